"""A verdict's numbers: the one way they are reached, and their recomputation for `verify`.

``conclude_verdict`` turns ruled criteria into the overall score and the conclusion; the
pipeline reaches every verdict through it, and ``recompute`` runs it again, with the real
chief justice, over a finished verdict's own opinions, evidence pool and recorded
settings. What the rules cannot derive is taken as recorded: the court's path (a mistrial
asks for re-evaluation), whether each criterion was covered, the ``problems`` (any of
them leaves an otherwise clean audit neutral), ``fail_below``, ``gate``, ``fail_closed``,
``fail_on_uncovered``, and the synthesis parameters the rubric gave
(``settings.synthesis``; DESIGN §4 defaults for a verdict that predates the record, and
the bundled rubric's own when the verdict names that rubric). So recomputing proves that
the verdict is consistent with itself; only the HMAC proves who sealed it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from courtroom import chief_justice
from courtroom.court.session import CourtOutcome
from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.errors import SynthesisError
from courtroom.models import Conclusion, CriterionResult, Evidence, Verdict
from courtroom.problems import Problem, error_lines
from courtroom.resources import default_rubric_path
from courtroom.rubric import SynthesisParameters, load_rubric
from courtroom.untrusted import one_line

#: The key of ``Verdict.settings`` that records the rubric's synthesis parameters.
SYNTHESIS = "synthesis"


@dataclass(frozen=True)
class Ruling:
    """The verdict-level outcome of ruled criteria."""

    overall: float
    conclusion: Conclusion
    #: What failed the conclusion beyond the chief justice's rules: settings that could
    #: not be known, a criterion under its own ``gate`` minimum, a confirmed finding no
    #: criterion capped.
    failures: list[Problem]


def conclude_verdict(
    results: Sequence[CriterionResult],
    pool: Mapping[str, Evidence],
    *,
    fail_below: float | None,
    gate: Mapping[str, float],
    incomplete: bool,
    fail_closed: Sequence[str] = (),
    fail_on_uncovered: bool = False,
) -> Ruling:
    """The overall score and the conclusion; a scan marked incomplete fails closed."""
    overall = chief_justice.overall_score(results)
    conclusion = chief_justice.conclude(
        results, overall, fail_below=fail_below, incomplete=incomplete,
        scan_incomplete=any(SCAN_INCOMPLETE in e.tags for e in pool.values()),
    )
    # ``fail_closed`` holds the settings' own lines: why they could not be known.
    failures = [*(Problem(kind="settings_unknown", message=line) for line in fail_closed),
                *gate_failures(results, gate), *chief_justice.unjudged_findings(results, pool)]
    if fail_on_uncovered:
        failures += [Problem(kind="gate", criterion=r.criterion_id, message=f"{r.criterion_id}"
                             " is not covered (fail-on-uncovered)")
                     for r in results if not r.covered]
    return Ruling(overall, "failure" if failures else conclusion, failures)


def gate_failures(results: Sequence[CriterionResult], gate: Mapping[str, float]) -> list[Problem]:
    """One problem per criterion whose final score is under its own minimum in ``gate``."""
    return [
        Problem(kind="gate", criterion=r.criterion_id, message=f"{r.criterion_id} scored "
                f"{r.final_score}, under its minimum {gate[r.criterion_id]:g}")
        for r in results
        if r.criterion_id in gate and r.final_score < gate[r.criterion_id]
    ]


def unscanned(pool: Mapping[str, Evidence]) -> list[Problem]:
    """One problem per fact saying the security scan missed part of the tree."""
    facts = sorted((e for e in pool.values() if SCAN_INCOMPLETE in e.tags),
                   key=lambda e: (e.location, e.id))
    return [Problem(kind="scan_gap", location=e.location, message=one_line(e.rationale, 240))
            for e in facts]


def uncovered(results: Sequence[CriterionResult]) -> list[Problem]:
    """One problem per criterion nothing the audit measures is about (neutral, reported)."""
    return [Problem(kind="uncovered", criterion=r.criterion_id,
                    message="no evidence_tags and no check of the rubric are about it; its "
                    "score is a placeholder, left out of the overall score")
            for r in results if not r.covered]


class _Recorded(BaseModel):
    """What ``Verdict.settings`` records that the rules read (the rest is ignored)."""

    model_config = ConfigDict(strict=True)

    fail_below: float | None = None
    gate: dict[str, float] = Field(default_factory=dict)
    fail_closed: list[str] = Field(default_factory=list)
    fail_on_uncovered: bool = False
    synthesis: SynthesisParameters | None = None


def recompute(verdict: Verdict) -> list[str]:
    """One line per recorded number the rules do not give for the verdict's own content."""
    try:
        recorded = _Recorded.model_validate(verdict.settings)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return [f"settings.{where} cannot be read ({error['msg']}), so nothing was recomputed"]
    params, problems = _parameters(verdict, recorded.synthesis)
    court = CourtOutcome(opinions={}, records={c.criterion_id: c.court for c in verdict.criteria
                                               if c.court is not None})
    results: list[CriterionResult] = []
    for criterion in verdict.criteria:
        try:
            again = chief_justice.rule(criterion.criterion_id, criterion.name,
                                       criterion.opinions, verdict.evidences, params)
        except SynthesisError as exc:
            problems.append(str(exc))  # it names the criterion
            results.append(criterion)
            continue
        again = court.settle(again).model_copy(update={"covered": criterion.covered})
        problems.extend(_differences(criterion, again))
        results.append(again)
    ruling = conclude_verdict(results, verdict.evidences, fail_below=recorded.fail_below,
                              gate=recorded.gate, incomplete=bool(verdict.errors),
                              fail_closed=recorded.fail_closed,
                              fail_on_uncovered=recorded.fail_on_uncovered)
    # The lines that fail the gate closed follow from the content: dropping one must not
    # pass (other lines, a PDF that could not be read, say, are taken as recorded). The
    # ``errors`` lines are compared, so a verdict from before ``problems`` is checked too.
    derived = error_lines([*unscanned(verdict.evidences), *uncovered(verdict.criteria),
                           *ruling.failures])
    problems.extend(f"errors: the line {line[:160]!r} follows from the verdict's own content "
                    "but is missing" for line in derived if line not in verdict.errors)
    if verdict.overall_score != ruling.overall:
        problems.append(f"overall score: {verdict.overall_score:g} recorded, "
                        f"{ruling.overall:g} recomputed")
    if verdict.conclusion != ruling.conclusion:
        problems.append(f"conclusion: {verdict.conclusion} recorded, {ruling.conclusion} "
                        "recomputed")
    return problems


def _parameters(
    verdict: Verdict, recorded: SynthesisParameters | None
) -> tuple[SynthesisParameters, list[str]]:
    """The synthesis parameters to recompute with, and a line if they contradict the rubric.

    A verdict that names the bundled rubric is recomputed with that rubric's parameters,
    whatever it records: an edited record could otherwise switch a rule off.
    """
    bundled = load_rubric(default_rubric_path())
    if verdict.rubric.sha256 != bundled.sha256:
        return recorded or SynthesisParameters(), []
    if recorded is not None and recorded != bundled.parameters:
        return bundled.parameters, [f"settings.{SYNTHESIS} differs from the parameters of "
                                    "the rubric the verdict names (the bundled one)"]
    return bundled.parameters, []


def _differences(recorded: CriterionResult, again: CriterionResult) -> list[str]:
    pairs = (("final_score", recorded.final_score, again.final_score),
             ("security_override", recorded.security_override, again.security_override),
             ("re_evaluation_required", recorded.re_evaluation_required,
              again.re_evaluation_required))
    lines = [f"criterion {recorded.criterion_id}: {name} {was} recorded, {now} recomputed"
             for name, was, now in pairs if was != now]
    if recorded.execution_log != again.execution_log:
        # Raw scores, weights, penalties, the override's reason, the unrounded score.
        lines.append(f"criterion {recorded.criterion_id}: execution_log is not the one the "
                     "rules give for its opinions")
    return lines
