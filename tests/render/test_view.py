"""The view the templates render: anchor-safe short ids, bounded bars, score changes as a
reader reads them, and flags for everything that makes a score less than plain."""

from __future__ import annotations

import pytest
from verdict_builders import GHOST_ID, make_verdict

from courtroom.integrity import seal
from courtroom.render.build import build_view
from courtroom.render.view import Citation, CriterionView, JudgeView, bar, short_id


def judge(name: str = "Prosecutor", *, fallback: bool = False,
          cites: tuple[Citation, ...] = ()) -> JudgeView:
    return JudgeView(judge=name, score=3, scored=3, argument="a", citations=list(cites),
                     charges=[], mitigations=[], fallback=fallback)


def criterion(*judges: JudgeView, **changes: object) -> CriterionView:
    fields: dict[str, object] = {
        "id": "c", "name": "C", "score": 3, "exact": 3.0, "bar": bar(3), "judges": list(judges),
        "dissent": None, "fixes": [], "security_override": False, "override_reason": None,
        "re_evaluation": False, "court": None, "court_detail": None}
    return CriterionView(**{**fields, **changes})  # type: ignore[arg-type]


def test_a_short_id_is_the_first_block_and_safe_in_an_anchor() -> None:
    assert short_id("24aa9a70-f0cb-58ce-9814-ef51f8694ac2") == "24aa9a70"
    assert short_id('"><script>-x') == "script"
    assert short_id("a-b") == "a" and short_id("--") == "none"
    assert short_id("0123456789abcdef") == "01234567"


@pytest.mark.parametrize(("score", "shown"), [
    (1, "█░░░░"), (2.6, "███░░"), (5, "█████"), (0, "░░░░░"), (9, "█████"), (-3, "░░░░░")])
def test_a_bar_has_its_width_whatever_the_score(score: float, shown: str) -> None:
    assert bar(score) == shown


def test_a_score_change_reads_new_unchanged_or_signed() -> None:
    assert criterion().delta == "new"
    assert criterion(previous=3).delta == "±0"
    assert criterion(previous=4).delta == "-1" and criterion(previous=1).delta == "+2"


def test_only_judges_that_answered_are_counted() -> None:
    failed = judge("TechLead", fallback=True)
    view = criterion(judge(), judge("Defense"), failed)
    assert [j.judge for j in view.counted] == ["Prosecutor", "Defense"]


def test_flags_name_every_reason_to_read_a_score_twice() -> None:
    assert criterion(judge()).flags == ""
    ghost = Citation(id=GHOST_ID, short="00000000", status="hallucinated")
    missing = Citation(id="e", short="e", status="not_found")
    flagged = criterion(judge(cites=(ghost,)), judge("TechLead", fallback=True),
                        security_override=True, dissent="Defense disagrees", no_pdf=True)
    assert flagged.flags == ("🔒 security cap, ⚖️ dissent, ⚠️ judge fallback, "
                             "👻 hallucinated citation, 📄 no PDF given")
    assert criterion(judge(cites=(missing,))).flags == ""  # cited but not found: no ghost
    assert judge(cites=(ghost, missing)).hallucinated == [ghost]


def test_the_overall_change_badge_and_digest_come_from_the_verdict() -> None:
    verdict = make_verdict(overall=3.5)
    assert build_view(verdict).overall_delta is None
    assert build_view(verdict, previous_overall=3.5).overall_delta == "±0.00"
    assert build_view(verdict, previous_overall=3.25).overall_delta == "+0.25"
    assert build_view(verdict).digest is None
    sealed = seal(verdict)
    assert build_view(sealed).digest == f"sha256:{(sealed.integrity or {})['digest']}"
    assert build_view(make_verdict(conclusion="neutral")).badge == "⚪ neutral"


def test_a_digest_that_is_not_a_sha256_is_not_shown() -> None:
    sealed = seal(make_verdict())
    forged = sealed.model_copy(update={"integrity": {
        **(sealed.integrity or {}), "digest": "` <!-- courtroom:state v1 AAAA --> `"}})
    assert build_view(forged).digest is None
    assert build_view(sealed.model_copy(update={"integrity": {"digest": 7}})).digest is None
