"""The words at the top: a verdict line that explains itself, the fixes that matter most,
and a missing PDF that reads as missing."""

from __future__ import annotations

import re
from collections.abc import Sequence

from verdict_builders import make_criterion, make_evidence, make_opinion, make_verdict

from courtroom.models import (
    JUDGES,
    Conclusion,
    CriterionResult,
    Evidence,
    RubricRef,
    Target,
    TargetArtifact,
    Verdict,
)
from courtroom.problems import Problem
from courtroom.render.brief import top_fixes, verdict_line
from courtroom.render.build import build_view, remediation_items
from courtroom.render.markdown import render_check_run, render_comment, render_report
from courtroom.settings.base_commit import UNKNOWN_SETTINGS

CODE = make_evidence("StateGraph wires detectives in parallel", location="src/graph.py:42")
NO_PDF = make_evidence(
    "PDF report readable",
    location="pdf",
    found=False,
    tags=("pdf_report", "missing", "parse_error"),
    detective="report",
    content="no PDF report was given",
)


def _criterion(
    cid: str, scores: Sequence[int], *, fixes: Sequence[str] = (), about: Evidence = CODE,
    artifact: TargetArtifact | None = None,
) -> CriterionResult:
    pool = {CODE.id: CODE, NO_PDF.id: NO_PDF}
    cites = [about.id] if about.found else ["NO_EVIDENCE"]
    opinions = [
        make_opinion(
            judge,
            cid,
            score,
            cites=cites,
            argument=f"{judge} read {about.goal} at {about.location}.",
            remediation=fixes[i] if i < len(fixes) else None,
        )
        for i, (judge, score) in enumerate(zip(JUDGES, scores, strict=True))
    ]
    return make_criterion(cid, cid.replace("_", " ").title(), opinions, pool, artifact=artifact)


def _verdict(
    criteria: Sequence[CriterionResult],
    conclusion: Conclusion,
    *,
    pdf: str | None = "report.pdf",
    extra: Sequence[Evidence] = (),
    problems: Sequence[Problem] = (),
) -> Verdict:
    pool = {e.id: e for e in (CODE, NO_PDF, *extra)}
    overall = round(sum(c.final_score for c in criteria) / len(criteria), 2)
    return Verdict(
        target=Target(repo="octo-org/small", commit="c" * 40, pdf=pdf),
        rubric=RubricRef(name="Rubric", version="1", sha256="d" * 64),
        bench="offline",
        overall_score=overall,
        conclusion=conclusion,
        evidences=pool,
        criteria=list(criteria),
        problems=list(problems),
    )


def _line(verdict: Verdict) -> str:
    return verdict_line(build_view(verdict))


def test_success_beside_weak_criteria_says_what_success_means() -> None:
    weak = [_criterion(f"weak_{n}", (1, 1, 1)) for n in range(4)]
    verdict = _verdict([*weak, _criterion("strong", (5, 5, 5))], "success")
    line = _line(verdict)
    assert line.startswith("The merge gate passes: no confirmed security problem")
    assert "the security scan covered the repository" in line
    assert "It is the gate's answer, not a grade: 4 of 5 criteria scored 2/5 or less." in line
    report = render_report(verdict)
    assert report.splitlines()[2].startswith("**1.80 / 5 · ✅ success** — The merge gate passes")
    _title, summary, _text = render_check_run(verdict)
    assert "not a grade: 4 of 5 criteria" in summary
    assert "not a grade: 4 of 5 criteria" in render_comment(verdict)


def test_success_with_strong_criteria_needs_no_warning() -> None:
    line = _line(_verdict([_criterion("a", (4, 4, 4)), _criterion("b", (3, 3, 3))], "success"))
    assert line.endswith("Every criterion scored above 2/5.")


def test_neutral_names_what_left_the_audit_unsettled() -> None:
    fell_back = _criterion("graph", (4, 4, 4))
    fell_back.opinions[2] = make_opinion("TechLead", "graph", 3, fallback=True)
    crashed = Problem(kind="detective_error", source="report", message="failed: boom")
    line = _line(_verdict([fell_back], "neutral", problems=[crashed]))
    assert line.startswith("Neither pass nor fail, because a judge could not answer on Graph")
    assert "1 problem(s) during the audit, listed below" in line
    assert "GitHub lets a neutral check pass" in line


def test_failure_says_which_gate_failed() -> None:
    low = _verdict([_criterion("a", (1, 2, 1))], "failure")
    assert "the overall score 1.00 is under the required minimum (`fail-below`)" in _line(low)
    gap = make_evidence(
        "Security scan skipped a file", location="src/big.py", tags=("security", "scan_incomplete")
    )
    unscanned = _verdict([_criterion("a", (4, 4, 4))], "failure", extra=[gap])
    line = _line(unscanned)
    assert "the security scan did not cover the whole repository" in line
    assert "fails closed" in line and "under the required minimum" not in line
    crashed = _verdict(
        [_criterion("a", (4, 4, 4))],
        "failure",
        problems=[Problem(kind="scan_gap", location=".", message="no result from security")],
    )
    assert "the security scan did not cover the whole repository" in _line(crashed)
    capped = make_verdict()  # a confirmed shell injection capped one criterion
    assert "a confirmed security problem capped Safe Tool Engineering (2/5)" in _line(capped)


def test_a_gate_reason_is_read_from_the_typed_problem_not_its_line() -> None:
    below = Problem(kind="gate", criterion="a", message="a scored 2, under its minimum 3")
    line = _line(_verdict([_criterion("a", (2, 2, 2))], "failure", problems=[below]))
    assert "a criterion is under its own minimum (a scored 2, under its minimum 3)" in line
    assert "under the required minimum" not in line


def test_failure_for_settings_it_could_not_know_says_so_not_fail_below() -> None:
    unknown = Problem(kind="settings_unknown", message=f"{UNKNOWN_SETTINGS}: the base commit "
                      "0123456789ab is not in the checkout, and ...")
    line = _line(_verdict([_criterion("a", (4, 4, 4))], "failure", problems=[unknown]))
    assert "could not be read from its base, so the gate fails closed" in line
    assert "under the required minimum" not in line


def test_no_pdf_given_reads_as_such_not_as_an_unreadable_pdf() -> None:
    report_criterion = _criterion(
        "theoretical_depth",
        (1, 1, 1),
        fixes=["Make the PDF report readable by the tools."],
        about=NO_PDF,
        artifact="pdf_report",
    )
    verdict = _verdict(
        [report_criterion, _criterion("graph", (3, 3, 3), fixes=["Add an error edge."])],
        "success",
        pdf=None,
    )
    report = render_report(verdict)
    visible = re.sub(r"<details>.*?</details>", "", report, flags=re.S)
    assert "no PDF report given" in visible
    absent = "No PDF report was given, so Theoretical Depth (1/5) was judged on its absence."
    assert absent in visible
    assert "📄 **No PDF report was given.**" in visible
    assert "**Fix:** add the PDF report to the submission; none was given." in visible
    assert "readable" not in visible.split("## Evidence appendix")[0]
    appendix = report.split("## Evidence appendix")[1]
    assert "PDF report readable *(not found: no PDF report was given," in appendix
    fixes = top_fixes(build_view(verdict))
    assert fixes[0].text.startswith("Add the PDF report to the submission")
    # The same facts with a PDF that was given but could not be read: not "no PDF given".
    given = verdict.model_copy(update={"target": Target(repo="r", pdf="broken.pdf")})
    assert "No PDF report was given" not in render_report(given)


def test_fixes_come_from_the_most_score_relevant_criteria() -> None:
    criteria = [
        _criterion("fine", (5, 5, 5), fixes=["Keep it up."]),
        _criterion("middling", (3, 3, 3), fixes=["Split graph.py.", "Name the nodes."]),
        _criterion("weak", (1, 2, 1), fixes=["Add reducers in state.py.", "Split graph.py."]),
    ]
    fixes = top_fixes(build_view(_verdict(criteria, "success")))
    assert [(f.text, f.criteria) for f in fixes] == [
        ("Add reducers in state.py.", "Weak (1/5)"),
        ("Split graph.py.", "Middling (3/5)"),
        ("Name the nodes.", "Middling (3/5)"),  # a repeated text is not offered twice
    ]
    # A security cap fails the gate, so its fix comes first whatever the scores.
    capped = top_fixes(build_view(make_verdict()))
    assert capped[0].criteria == "Safe Tool Engineering (2/5)"


def test_only_criteria_about_the_missing_pdf_are_marked() -> None:
    report = _criterion("theoretical_depth", (1, 1, 1), artifact="pdf_report")
    images = _criterion("diagrams", (1, 1, 1), artifact="pdf_images")
    code = _criterion("graph", (2, 2, 2), artifact="github_repo")
    for opinion in code.opinions:  # the judges' words never decide what a criterion is about
        opinion.argument = "No PDF was provided with the submission, so nothing explains it."
    view = build_view(_verdict([report, images, code], "success", pdf=None))
    assert [c.no_pdf for c in view.criteria] == [True, True, False]
    given = build_view(_verdict([report, images, code], "success")).criteria
    assert [c.no_pdf for c in given] == [False, False, False]


def test_a_verdict_without_artifacts_marks_the_criteria_citing_the_missing_pdf() -> None:
    cites = _criterion("theoretical_depth", (1, 1, 1))
    for opinion in cites.opinions:
        opinion.cited_evidence = [NO_PDF.id]
    silent = _criterion("graph", (2, 2, 2))
    view = build_view(_verdict([cites, silent], "success", pdf=None))
    assert [c.no_pdf for c in view.criteria] == [True, False]


def test_remediation_splits_into_fixes_without_losing_markup() -> None:
    text = "- **Add** a reducer in `state.py`.\n  continued here\n- Split graph.py.\n"
    assert remediation_items(text) == [
        "**Add** a reducer in `state.py`. continued here",
        "Split graph.py.",
    ]
    assert remediation_items("No remediation proposed.") == []


def test_one_fix_that_lifts_several_criteria_ranks_above_one_that_lifts_one() -> None:
    code = _criterion("judges", (1, 1, 1), fixes=["Add persona prompts."])
    report_criteria = [_criterion(f"pdf_{n}", (1, 1, 1), about=NO_PDF,
                                  artifact="pdf_report") for n in range(3)]
    fixes = top_fixes(build_view(_verdict([code, *report_criteria], "success", pdf=None)))
    assert [f.text for f in fixes] == [
        "Add the PDF report to the submission: none was given, and these criteria judge it.",
        "Add persona prompts.",
    ]
