"""The hidden state of the sticky comment: what a re-audit may reuse, read back only
when it is ours, whole and (with a signing key) signed."""

from __future__ import annotations

from verdict_builders import make_verdict

from courtroom.render.markdown import render_comment, size
from courtroom.render.state import cache_seeds, decode_state, encode_state


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
