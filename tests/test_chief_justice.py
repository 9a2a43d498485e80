"""The chief justice's rules, one table row per case, plus properties over random input."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from verdict_builders import make_opinion

from courtroom import chief_justice as cj
from courtroom.errors import SynthesisError
from courtroom.models import (
    NO_EVIDENCE,
    CourtRecord,
    Evidence,
    JudgeName,
    JudicialOpinion,
)
from courtroom.rubric import SynthesisParameters

PARAMS = SynthesisParameters()
GOOD = Evidence.make(
    detective="t", goal="graph found", found=True, location="a.py:1", rationale="r", confidence=1
)
MISSING = Evidence.make(
    detective="t", goal="no reducer", found=False, location="b.py:2", rationale="r", confidence=1
)
SECURITY = Evidence.make(
    detective="t",
    goal="os.system with request input",
    found=True,
    location="c.py:3",
    rationale="r",
    confidence=1,
    tags=["security"],
)
UNCONFIRMED = Evidence.make(
    detective="t",
    goal="os.system with a constant",
    found=True,
    location="d.py:4",
    rationale="r",
    confidence=1,
    tags=["security_unconfirmed"],
)
POOL = {e.id: e for e in (GOOD, MISSING, SECURITY, UNCONFIRMED)}
GOOD_CITE = [GOOD.id]


def op(
    judge: JudgeName,
    score: int,
    cited: list[str] | None = None,
    argument: str = "ok",
    charges: list[str] | None = None,
    remediation: str | None = None,
    fallback: bool = False,
) -> JudicialOpinion:
    """An opinion on the criterion "c" these tests rule on, citing the good fact by default."""
    return make_opinion(judge, "c", score, cites=GOOD_CITE if cited is None else cited,
                        argument=argument, charges=charges, remediation=remediation,
                        fallback=fallback)


def rule(*opinions: JudicialOpinion, params: SynthesisParameters = PARAMS):  # type: ignore[no-untyped-def]
    return cj.rule("c", "Criterion", list(opinions), POOL, params)


@pytest.mark.parametrize(
    ("scores", "final_float", "final_int"),
    [
        ((3, 3, 3), 3.0, 3),
        ((1, 5, 3), 3.0, 3),  # (1 + 5 + 2*3) / 4
        ((2, 3, 3), 2.75, 3),
        ((2, 2, 3), 2.5, 3),  # exactly half rounds up
        ((1, 2, 3), 2.25, 2),
        ((5, 5, 4), 4.5, 5),
        ((1, 1, 1), 1.0, 1),
        ((1, 1, 2), 1.5, 2),
    ],
)
def test_weighting_three_judges_techlead_counts_double(scores, final_float, final_int) -> None:
    p, d, t = scores
    result = rule(op("Prosecutor", p), op("Defense", d), op("TechLead", t))
    assert result.execution_log.final_float == final_float
    assert result.final_score == final_int
    assert result.execution_log.weights == {"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 2.0}


def test_two_judges_take_the_plain_mean_and_fallback_does_not_take_part() -> None:
    result = rule(op("Prosecutor", 2), op("Defense", 3), op("TechLead", 3, fallback=True))
    assert result.execution_log.final_float == 2.5
    assert result.final_score == 3
    assert set(result.execution_log.raw_scores) == {"Prosecutor", "Defense"}
    assert len(result.opinions) == 3  # the fallback is still shown


def test_one_judge_gives_its_score() -> None:
    result = rule(
        op("Prosecutor", 4, fallback=True), op("Defense", 2), op("TechLead", 5, fallback=True)
    )
    assert result.final_score == 2


def test_no_participating_judge_is_a_synthesis_error() -> None:
    with pytest.raises(SynthesisError, match="no judge"):
        rule(*(op(j, 3, fallback=True) for j in ("Prosecutor", "Defense", "TechLead")))


@pytest.mark.parametrize(
    ("cited", "penalised"),
    [
        (["not-in-pool"], True),
        ([MISSING.id], True),
        ([GOOD.id, "ghost", "ghost2"], True),
        ([NO_EVIDENCE], False),
        ([GOOD.id], False),
        ([], False),
    ],
)
def test_fact_supremacy_penalises_invalid_citations_once(cited, penalised) -> None:
    result = rule(op("Prosecutor", 4, cited=cited), op("Defense", 4), op("TechLead", 4))
    events = result.execution_log.penalty_events
    assert len(events) == (1 if penalised else 0)
    if penalised:
        assert events[0].score_before == 4 and events[0].score_after == 2
        assert result.execution_log.final_float == 3.5  # (2 + 4 + 8) / 4
    assert result.execution_log.raw_scores["Prosecutor"] == 4


def test_penalty_never_goes_below_one() -> None:
    result = rule(op("Prosecutor", 2, cited=["ghost"]), op("Defense", 1), op("TechLead", 1))
    assert result.execution_log.penalty_events[0].score_after == 1


@pytest.mark.parametrize(
    ("argument", "charges", "cited", "capped"),
    [
        ("Confirmed shell injection in the clone tool.", None, [SECURITY.id], True),
        ("Looks fine.", ["Possible RCE via os.system"], [SECURITY.id], True),
        ("Path   Traversal through the report path.", None, [SECURITY.id], True),
        ("Confirmed shell injection.", None, [GOOD.id], False),  # no security evidence cited
        ("Confirmed shell injection.", None, [UNCONFIRMED.id], False),  # not tagged security
        ("The source code is clean.", None, [SECURITY.id], False),  # 'source' is not 'rce'
        ("Uses xssfilter library.", None, [SECURITY.id], False),  # whole words only
    ],
)
def test_security_override_caps_after_weighting(argument, charges, cited, capped) -> None:
    result = rule(
        op("Prosecutor", 5, cited=cited, argument=argument, charges=charges),
        op("Defense", 5),
        op("TechLead", 5),
    )
    assert result.security_override is capped
    assert result.execution_log.override_triggered is capped
    assert result.final_score == (3 if capped else 5)
    assert result.execution_log.final_float == (3.0 if capped else 5.0)


def test_only_a_criterion_about_security_is_capped() -> None:
    # "dependencies pinned" must not be capped because a judge there named the XSS.
    named = (op("Prosecutor", 5, cited=[SECURITY.id], argument="XSS in the form"),
             op("Defense", 5), op("TechLead", 5))
    elsewhere = SynthesisParameters(security_criteria=["injection"])
    assert not rule(*named, params=elsewhere).security_override
    assert rule(*named, params=elsewhere).final_score == 5
    assert rule(*named, params=SynthesisParameters(security_criteria=["c"])).security_override
    assert rule(*named).security_override  # recorded before the field: every criterion


def test_order_is_penalty_then_weighting_then_cap_then_round() -> None:
    # Prosecutor 5 cites a ghost -> 3; (3 + 2 + 2*3) / 4 = 2.75; cap 3 has no effect; -> 3.
    result = rule(
        op("Prosecutor", 5, cited=["ghost", SECURITY.id], argument="shell injection"),
        op("Defense", 2),
        op("TechLead", 3),
    )
    assert result.execution_log.final_float == 2.75
    assert result.final_score == 3
    assert result.security_override


def test_cap_applies_before_rounding_with_custom_parameters() -> None:
    params = SynthesisParameters(security_cap=2.5)
    result = rule(
        op("Prosecutor", 4, cited=[SECURITY.id], argument="hardcoded credentials"),
        op("Defense", 4),
        op("TechLead", 4),
        params=params,
    )
    assert result.execution_log.final_float == 2.5
    assert result.final_score == 3


def test_dissent_names_every_judge_and_score_when_variance_exceeds_two() -> None:
    result = rule(
        op("Prosecutor", 1, charges=["No reducers on parallel writers."]),
        op("Defense", 5, argument="Great iteration history."),
        op("TechLead", 3),
    )
    assert result.re_evaluation_required
    summary = result.dissent_summary or ""
    for part in ("Prosecutor 1", "Defense 5", "TechLead 3", "No reducers", "Great iteration"):
        assert part in summary


def test_dissent_says_why_the_judges_disagree() -> None:
    # Different facts: each side's own citations are named by their goals.
    apart = rule(
        op("Prosecutor", 1, cited=[SECURITY.id], charges=["Shell injection in c.py:3."]),
        op("Defense", 5, cited=[GOOD.id], argument="The graph is wired."),
        op("TechLead", 3),
    ).dissent_summary or ""
    assert "They rest on different facts" in apart
    assert "only Prosecutor cites 'os.system with request input'" in apart
    assert "only Defense cites 'graph found'" in apart
    assert "Prosecutor (1) charges: Shell injection in c.py:3." in apart
    # Same facts: the disagreement is about their weight, and the summary says so.
    same = rule(op("Prosecutor", 1), op("Defense", 5), op("TechLead", 3)).dissent_summary or ""
    assert "They cite the same fact and weigh it differently." in same
    # No facts at all: judgement alone.
    bare = rule(
        op("Prosecutor", 1, cited=[]), op("Defense", 5, cited=[]), op("TechLead", 3, cited=[])
    ).dissent_summary or ""
    assert "Neither cites evidence" in bare


def test_variance_of_two_is_not_dissent() -> None:
    result = rule(op("Prosecutor", 2), op("Defense", 4), op("TechLead", 3))
    assert result.dissent_summary is None and not result.re_evaluation_required


def test_remediation_combines_unique_texts() -> None:
    result = rule(
        op("Prosecutor", 2, remediation="Add reducers in state.py."),
        op("Defense", 3, remediation="Add reducers in state.py."),
        op("TechLead", 3, remediation="Split graph.py."),
    )
    assert result.remediation == "- Add reducers in state.py.\n- Split graph.py."


def test_round_half_up_is_exact() -> None:
    assert cj.round_half_up(Decimal("2.5")) == 3
    assert cj.round_half_up(Decimal("2.49")) == 2
    assert cj.round_half_up(Decimal("3.125"), 2) == Decimal("3.13")


def test_overall_score_and_conclusion() -> None:
    a = rule(op("Prosecutor", 4), op("Defense", 4), op("TechLead", 4))
    b = rule(op("Prosecutor", 3), op("Defense", 3), op("TechLead", 3))
    assert cj.overall_score([a, b]) == 3.5
    assert cj.conclude([a, b], 3.5, fail_below=None, incomplete=False) == "success"
    assert cj.conclude([a, b], 3.5, fail_below=4.0, incomplete=False) == "failure"
    assert cj.conclude([a, b], 3.5, fail_below=3.5, incomplete=False) == "success"
    assert cj.conclude([a, b], 3.5, fail_below=None, incomplete=True) == "neutral"
    capped = rule(
        op("Prosecutor", 5, cited=[SECURITY.id], argument="RCE"),
        op("Defense", 5),
        op("TechLead", 5),
    )
    assert cj.conclude([a, capped], 4.0, fail_below=None, incomplete=True) == "failure"
    fell = rule(op("Prosecutor", 4), op("Defense", 4, fallback=True), op("TechLead", 4))
    assert cj.conclude([fell], 4.0, fail_below=None, incomplete=False) == "neutral"
    # An uncovered criterion's placeholder score is no part of the overall score.
    assert cj.overall_score([a, b.model_copy(update={"covered": False})]) == 4.0
    assert cj.overall_score([b.model_copy(update={"covered": False})]) == 0.0
    mistrial = a.model_copy(update={"court": CourtRecord(path="mistrial")})
    assert cj.conclude([mistrial], 4.0, fail_below=None, incomplete=False) == "neutral"


def test_an_incomplete_security_scan_fails_closed() -> None:
    a = rule(op("Prosecutor", 5), op("Defense", 5), op("TechLead", 5))
    assert cj.conclude([a], 5.0, fail_below=None, incomplete=False) == "success"
    # Not neutral (which GitHub treats as passing): a scan that missed files cannot pass.
    assert cj.conclude([a], 5.0, fail_below=None, incomplete=False,
                       scan_incomplete=True) == "failure"
    assert cj.conclude([a], 5.0, fail_below=1.0, incomplete=True,
                       scan_incomplete=True) == "failure"


CITES = st.lists(
    st.sampled_from([GOOD.id, MISSING.id, SECURITY.id, "ghost", NO_EVIDENCE]), max_size=3
)
OPINION = st.builds(
    lambda judge, score, cited, arg, fb: op(judge, score, cited=cited, argument=arg, fallback=fb),
    st.sampled_from(["Prosecutor", "Defense", "TechLead"]),
    st.integers(1, 5),
    CITES,
    st.sampled_from(["fine", "shell injection found", "RCE", "clean code"]),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(OPINION, min_size=1, max_size=3, unique_by=lambda o: o.judge))
def test_properties_deterministic_bounded_and_capped(opinions: list[JudicialOpinion]) -> None:
    if all(o.fallback for o in opinions):
        with pytest.raises(SynthesisError):
            cj.rule("c", "C", opinions, POOL, PARAMS)
        return
    first = cj.rule("c", "C", opinions, POOL, PARAMS)
    again = cj.rule("c", "C", list(reversed(opinions)), POOL, PARAMS)
    assert first == again
    assert 1 <= first.final_score <= 5
    if first.security_override:
        assert first.execution_log.final_float <= PARAMS.security_cap
        assert first.final_score <= 3
