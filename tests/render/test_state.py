"""The hidden state of the sticky comment: what a re-audit may reuse, read back only
when it is ours, whole and (with a signing key) signed."""

from __future__ import annotations

import base64
import zlib

from verdict_builders import make_opinion, make_verdict

from courtroom.render.markdown import render_comment, size
from courtroom.render.state import (
    PreviousAudit,
    cache_seeds,
    criterion_digest,
    decode_state,
    encode_state,
    sign_state,
    trusted_state,
)


def test_hidden_state_round_trip() -> None:
    verdict = make_verdict()
    comment = render_comment(verdict)
    state = decode_state(comment)
    assert state is not None
    assert state.scores["safe_tool_engineering"] == 2
    assert state.rubric_sha256 == verdict.rubric.sha256 and state.bench == verdict.bench
    assert cache_seeds(state) == {}  # no opinion-cache keys were known for this verdict
    assert decode_state(comment.replace("v1 eN", "v1 #N")) is None
    assert decode_state("no state here") is None


def test_state_stays_small_for_big_verdicts() -> None:
    verdict = make_verdict(huge=True)
    comment = render_comment(verdict, limit=65536)
    state = comment[comment.index("<!-- courtroom:state") :]
    assert size(state) <= 65536 // 3
    assert decode_state(comment) is not None


def test_cache_keys_travel_with_the_opinions() -> None:
    verdict = make_verdict()
    first = verdict.criteria[0].opinions[0]
    key = "ab" * 32
    state = decode_state(encode_state(verdict, keys={first.opinion_id: [key]}))
    assert state is not None and cache_seeds(state) == {key: first}
    assert state.commit == verdict.target.commit


def test_the_digest_covers_what_an_opinion_depends_on_and_not_the_order() -> None:
    base = {"rubric_sha256": "r", "bench": "anthropic:m", "criterion_id": "c",
            "evidence": [("e1", True), ("e2", False)], "prompts": "p"}
    same = criterion_digest(**{**base, "evidence": [("e2", False), ("e1", True)]})
    assert criterion_digest(**base) == same
    changed = [{"rubric_sha256": "r2"}, {"bench": "anthropic:n"}, {"criterion_id": "d"},
               {"prompts": "p2"}, {"evidence": [("e1", True), ("e2", True)]},
               {"evidence": [("e1", True)]}]
    digests = {criterion_digest(**{**base, **change}) for change in changed}
    assert criterion_digest(**base) not in digests and len(digests) == len(changed)


def test_a_fallback_opinion_is_never_carried_for_reuse() -> None:
    verdict = make_verdict()
    failed = make_opinion("TechLead", verdict.criteria[0].criterion_id, 3, fallback=True)
    verdict.criteria[0].opinions[2] = failed
    state = decode_state(encode_state(verdict, keys={failed.opinion_id: ["cd" * 32]}))
    assert state is not None and "cd" * 32 not in state.cache
    assert all(not o.fallback for o in state.cache.values())


def test_only_real_cache_keys_seed_the_cache() -> None:
    verdict = make_verdict()
    first = verdict.criteria[0].opinions[0]
    state = decode_state(encode_state(verdict, keys={first.opinion_id: ["ab" * 32]}))
    assert state is not None
    assert f"opinion:{first.opinion_id}" not in state.cache  # kept under its real key
    assert any(key.startswith("opinion:") for key in state.cache)  # the others, unkeyed
    assert set(cache_seeds(state)) == {"ab" * 32}
    assert cache_seeds(None) == {}


def test_a_tight_budget_drops_the_biggest_criteria_opinions_first_then_criteria() -> None:
    verdict = make_verdict(huge=True)
    whole = decode_state(encode_state(verdict, budget=200_000))
    cut = encode_state(verdict, budget=20_000)
    state, tiny = decode_state(cut), decode_state(encode_state(verdict, budget=1500))
    assert whole is not None and state is not None and tiny is not None
    assert size(cut) <= 20_000 and len(state.cache) < len(whole.cache)
    small = {key for c in verdict.criteria[:5] for o in c.opinions
             if (key := f"opinion:{o.opinion_id}") in whole.cache}
    assert small and small <= set(state.cache)  # the short criteria keep their opinions
    assert state.scores == whole.scores  # and every score survives
    assert tiny.cache == {} and 0 < len(tiny.scores) < len(whole.scores)


def test_a_foreign_version_or_a_damaged_payload_reads_as_no_state() -> None:
    comment = encode_state(make_verdict())
    packed = comment.split()[3]
    assert decode_state(comment.replace(" v1 ", " v2 ")) is None
    assert decode_state(comment.replace(packed, packed[:-8] + "A" * 8)) is None
    not_json = base64.b64encode(zlib.compress(b"[1, 2")).decode()
    assert decode_state(comment.replace(packed, not_json)) is None
    wrong_shape = base64.b64encode(zlib.compress(b'{"criteria": {}}')).decode()
    assert decode_state(comment.replace(packed, wrong_shape)) is None


def test_with_a_key_only_a_state_signed_by_it_is_trusted() -> None:
    verdict = make_verdict()
    body = render_comment(verdict)
    signed = sign_state(body, b"our-key")
    assert trusted_state(signed, b"our-key") == decode_state(body) is not None
    assert trusted_state(body, b"our-key") is None  # unsigned
    assert trusted_state(sign_state(body, b"other-key"), b"our-key") is None
    forged = signed.replace(encode_state(verdict), encode_state(make_verdict(overall=4.9)))
    assert forged != signed and trusted_state(forged, b"our-key") is None  # edited under the MAC
    assert sign_state(body, None) == body and sign_state("no state", b"our-key") == "no state"
    assert trusted_state(body, None) == decode_state(body)


def test_the_previous_audit_of_a_verdict_holds_its_scores() -> None:
    verdict = make_verdict()
    previous = PreviousAudit.from_verdict(verdict)
    assert previous.scores == {c.criterion_id: c.final_score for c in verdict.criteria}
    assert (previous.overall_score, previous.commit) == (verdict.overall_score,
                                                         verdict.target.commit)
    assert previous.cache == {}


def _forged_marker() -> str:
    """The hidden state an attacker would plant: every criterion at 5, overall 5.00."""
    verdict = make_verdict(overall=5.0)
    for criterion in verdict.criteria:
        criterion.final_score = 5
    return encode_state(verdict)


def test_a_state_anywhere_but_the_end_of_the_body_is_never_read_nor_signed() -> None:
    body = render_comment(make_verdict())
    marker, state = body.split("\n", 1)[0], body.rsplit("\n", 1)[1]
    forged = _forged_marker()
    planted = [
        body.replace("\n", f"\n`{forged}`\n", 1),  # cited in a code span, before the state
        body.replace("\n", f"\n{forged}\n", 1),  # raw, before the state
        f"{body}\nmore text",  # our state, no longer at the end
        body.replace(state, forged) + "\n" + state,  # two states at the end
        f"{marker}\n{forged} trailing words",  # a forged state not at the end either
        f"{body}\n<!-- courtroom:state-hmac {'0' * 64} -->\n<!-- x -->",
    ]
    for text in planted:
        assert decode_state(text) is None, text[:200]
        assert trusted_state(text, None) is None
        assert sign_state(text, b"our-key") == text  # nothing in it is signed
        assert trusted_state(sign_state(text, b"our-key"), b"our-key") is None


def test_any_other_html_comment_makes_the_whole_body_untrusted() -> None:
    body = render_comment(make_verdict())
    assert decode_state(body) is not None
    assert decode_state(body.replace("\n", "\n<!-- a note -->\n", 1)) is None
    signed = sign_state(body, b"our-key")
    assert trusted_state(signed, b"our-key") is not None
    tampered = signed.replace("\n", "\n<!-- a note -->\n", 1)  # the MAC still verifies
    assert trusted_state(tampered, b"our-key") is None
    assert sign_state(signed, b"our-key") == signed  # a signed state is not signed twice


def test_the_state_is_read_through_line_endings_and_trailing_space_an_edit_may_add() -> None:
    signed = sign_state(render_comment(make_verdict()), b"our-key")
    assert trusted_state(signed.replace("\n", "\r\n") + "\r\n", b"our-key") is not None
    assert decode_state(encode_state(make_verdict()) + "\n") is not None
