"""A verdict's numbers recomputed from its own content: what `courtroom verify` proves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from verdict_builders import make_criterion, make_evidence, make_opinion, make_verdict

from courtroom import chief_justice
from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.judgment import SYNTHESIS, conclude_verdict, gate_failures, recompute, uncovered
from courtroom.models import JUDGES, CourtRecord, RubricRef, Target, Verdict
from courtroom.problems import Problem, error_lines
from courtroom.resources import default_rubric_path
from courtroom.rubric import SynthesisParameters, load_rubric

CID = "graph_orchestration"


def clean_verdict(
    scores: Sequence[int] = (4, 4, 4),
    *,
    params: SynthesisParameters | None = None,
    settings: Mapping[str, object] | None = None,
    tags: Sequence[str] = ("github_repo",),
) -> Verdict:
    """One criterion, no security fact: a verdict that concludes "success" unless told."""
    fact = make_evidence("StateGraph fans out", location="src/graph.py:4", tags=tags)
    pool = {fact.id: fact}
    opinions = [make_opinion(j, CID, s, cites=[fact.id]) for j, s in zip(JUDGES, scores,
                                                                          strict=True)]
    result = make_criterion(CID, "Graph", opinions, pool)
    if params is not None:  # the builder rules with the defaults; rule again with these
        result = chief_justice.rule(CID, "Graph", opinions, pool, params)
    return Verdict(
        target=Target(repo="octo/app"), bench="offline", evidences=pool, criteria=[result],
        rubric=RubricRef(name="Custom", version="1", sha256="c" * 64),
        overall_score=float(result.final_score), conclusion="success",
        settings=dict(settings or {}),
    )


def test_verdicts_built_by_the_rules_recompute_clean() -> None:
    assert recompute(make_verdict()) == []
    assert recompute(clean_verdict()) == []


def test_an_uncovered_criterion_is_an_errors_line_and_fails_only_when_asked() -> None:
    verdict = clean_verdict()
    results = [verdict.criteria[0].model_copy(update={"covered": False})]
    lines = error_lines(uncovered(results))
    assert len(lines) == 1 and lines[0].startswith(f"criterion {CID} is not covered")
    pool = verdict.evidences
    quiet = conclude_verdict(results, pool, fail_below=None, gate={}, incomplete=True)
    assert (quiet.overall, quiet.conclusion, quiet.failures) == (0.0, "neutral", [])
    strict = conclude_verdict(results, pool, fail_below=None, gate={}, incomplete=True,
                              fail_on_uncovered=True)
    assert strict.conclusion == "failure"
    assert error_lines(strict.failures) == [f"gate: {CID} is not covered (fail-on-uncovered)"]
    recorded = verdict.model_copy(update={
        "criteria": results, "overall_score": 0.0, "conclusion": "failure",
        "errors": [*lines, *error_lines(strict.failures)],
        "settings": {"fail_on_uncovered": True}})
    assert recompute(recorded) == []
    # Dropping the line, or the failure, is named: both follow from the content.
    assert recompute(recorded.model_copy(update={"errors": error_lines(strict.failures)}))
    assert recompute(recorded.model_copy(update={"settings": {}}))


@pytest.mark.parametrize(("settings", "tags", "why"), [
    ({"fail_below": 4.5}, ("github_repo",), "fail_below"),
    ({"gate": {CID: 5}}, ("github_repo",), "the criterion's own gate"),
    ({}, ("github_repo", SCAN_INCOMPLETE), "an incomplete scan"),
])
def test_what_fails_the_conclusion_is_read_from_the_verdict(
    settings: dict[str, object], tags: tuple[str, ...], why: str
) -> None:
    verdict = clean_verdict(settings=settings, tags=tags)
    problems = recompute(verdict)
    assert problems[-1] == "conclusion: success recorded, failure recomputed", why
    # The gate's and the scan's own error lines follow from the content; fail_below has none.
    assert len(problems) == (1 if why == "fail_below" else 2), why


def test_dropping_a_line_that_fails_the_gate_is_named_even_with_the_conclusion_kept() -> None:
    verdict = clean_verdict(settings={"gate": {CID: 5}}).model_copy(
        update={"conclusion": "failure"})
    assert recompute(verdict) == [f"errors: the line 'gate: {CID} scored 4, under its minimum "
                                  "5' follows from the verdict's own content but is missing"]
    whole = verdict.model_copy(update={"errors": [f"gate: {CID} scored 4, under its minimum 5"]})
    assert recompute(whole) == []


def test_settings_that_could_not_be_known_fail_the_recomputed_conclusion_too() -> None:
    line = "conclusion failure: the settings this pull request is measured with are unknown"
    ruling = conclude_verdict(clean_verdict().criteria, {}, fail_below=None, gate={},
                              incomplete=False, fail_closed=[line])
    assert ruling.conclusion == "failure" and ruling.failures == [
        Problem(kind="settings_unknown", message=line)]
    recorded = clean_verdict(settings={"fail_closed": [line]}).model_copy(
        update={"conclusion": "failure", "errors": [line]})
    assert recompute(recorded) == []
    erased = recorded.model_copy(update={"settings": {}, "errors": []})
    assert recompute(erased) == ["conclusion: failure recorded, success recomputed"]


def test_errors_and_mistrials_leave_the_audit_neutral() -> None:
    assert recompute(clean_verdict().model_copy(update={"errors": ["judge fell back"]})) == [
        "conclusion: success recorded, neutral recomputed"]
    verdict = clean_verdict()
    verdict.criteria[0].court = CourtRecord(path="mistrial")
    assert recompute(verdict) == [
        f"criterion {CID}: re_evaluation_required False recorded, True recomputed",
        "conclusion: success recorded, neutral recomputed"]


def test_an_edited_execution_log_is_named() -> None:
    verdict = clean_verdict()
    verdict.criteria[0].execution_log.raw_scores["Defense"] = 5
    assert recompute(verdict) == [
        f"criterion {CID}: execution_log is not the one the rules give for its opinions"]


def test_recorded_synthesis_parameters_are_the_ones_used() -> None:
    equal = SynthesisParameters(weights={"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 1.0})
    # (3 + 3 + 4) / 3 = 3.33 -> 3 with equal weights; (3 + 3 + 8) / 4 = 3.5 -> 4 by default.
    recorded = {SYNTHESIS: equal.model_dump(mode="json")}
    assert recompute(clean_verdict((3, 3, 4), params=equal, settings=recorded)) == []
    unrecorded = clean_verdict((3, 3, 4), params=equal)
    assert recompute(unrecorded)[0] == f"criterion {CID}: final_score 3 recorded, 4 recomputed"


def test_a_verdict_of_the_bundled_rubric_cannot_record_other_parameters() -> None:
    bundled = load_rubric(default_rubric_path())
    lenient = bundled.parameters.model_copy(update={"security_keywords": []})
    verdict = make_verdict()
    verdict.rubric.sha256 = bundled.sha256
    verdict.settings[SYNTHESIS] = lenient.model_dump(mode="json")
    assert recompute(verdict) == [
        f"settings.{SYNTHESIS} differs from the parameters of the rubric the verdict names "
        "(the bundled one)"]


def test_unreadable_settings_are_one_line() -> None:
    verdict = clean_verdict(settings={"fail_below": "4"})
    assert recompute(verdict) == [
        "settings.fail_below cannot be read (Input should be a valid number), so nothing "
        "was recomputed"]


def test_a_confirmed_finding_no_criterion_capped_fails_the_conclusion() -> None:
    verdict = clean_verdict(tags=("github_repo", "security"))
    ruling = conclude_verdict(verdict.criteria, verdict.evidences, fail_below=None, gate={},
                              incomplete=False)
    assert ruling.conclusion == "failure"
    assert ruling.failures[0].kind == "unjudged_finding"
    assert error_lines(ruling.failures)[0].startswith(
        "conclusion failure: a confirmed security finding")


def test_a_criterion_no_judge_took_part_in_cannot_have_a_score() -> None:
    verdict = clean_verdict()
    verdict.criteria[0].opinions = [make_opinion(j, CID, 3, fallback=True) for j in JUDGES]
    assert recompute(verdict)[0] == f"criterion {CID!r}: no judge could take part"


def test_each_criterion_under_its_own_minimum_fails_the_gate_as_a_typed_problem() -> None:
    results = [
        make_criterion(cid, cid, [make_opinion(j, cid, score) for j in JUDGES], {})
        for cid, score in (("a", 2), ("b", 4))
    ]
    (failure,) = gate_failures(results, {"a": 3, "b": 4})
    assert (failure.kind, failure.criterion) == ("gate", "a")
    assert error_lines([failure]) == ["gate: a scored 2, under its minimum 3"]
    assert gate_failures(results, {}) == []


def test_a_verdicts_errors_are_derived_from_its_problems() -> None:
    problem = Problem(kind="gate", criterion=CID, message=f"{CID} scored 2, under its minimum 3")
    derived = clean_verdict().model_copy(update={"problems": [problem]})
    verdict = Verdict.model_validate(derived.model_dump(exclude={"errors"}))
    assert verdict.errors == [f"gate: {CID} scored 2, under its minimum 3"]
    with pytest.raises(ValueError, match="errors are not the lines of problems"):
        Verdict.model_validate({**verdict.model_dump(), "errors": ["gate: edited"]})
