"""The words at the top of every output: a verdict line that explains itself, the
executive summary, the fixes that matter most and what deserves a second look.

Everything here is derived from the verdict alone, and says only what the verdict shows:
no gate value is claimed that the verdict does not record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.problems import ProblemKind
from courtroom.render.view import CriterionView, ReportView

#: A criterion at or under this score is one a reader must not overlook.
LOW_SCORE = 2
NO_PDF_FIX = "Add the PDF report to the submission: none was given, and these criteria judge it."


@dataclass(frozen=True)
class Fix:
    """One fix worth doing first, and the criteria it lifts."""

    text: str
    criteria: str


def _names(items: Iterable[CriterionView]) -> str:
    return ", ".join(f"{c.name} ({c.score}/5)" for c in items)


def _has(view: ReportView, kind: ProblemKind) -> bool:
    return any(p.kind == kind for p in view.verdict.problems)


def _scan_incomplete(view: ReportView) -> bool:
    tagged = any(SCAN_INCOMPLETE in e.tags for e in view.verdict.evidences.values())
    return tagged or _has(view, "scan_gap")


def _failure_reasons(view: ReportView) -> list[str]:
    capped = [c for c in view.criteria if c.security_override]
    reasons = []
    if capped:
        reasons.append(f"a confirmed security problem capped {_names(capped)}")
    if _scan_incomplete(view):
        reasons.append(
            "the security scan did not cover the whole repository, so the gate fails "
            "closed (the reason is listed under the audit's problems)"
        )
    if not capped and _has(view, "unjudged_finding"):
        reasons.append(
            "a confirmed security finding in production code was not capped by any criterion "
            "of the rubric, so the gate fails closed (listed under the audit's problems)"
        )
    if _has(view, "settings_unknown"):
        reasons.append(
            "the settings the pull request must be measured with could not be read from its "
            "base, so the gate fails closed (listed under the audit's problems)"
        )
    below = [p.message for p in view.verdict.problems if p.kind == "gate"]
    if below:
        reasons.append(f"a criterion is under its own minimum ({'; '.join(below)})")
    if not reasons:
        reasons.append(
            f"the overall score {view.verdict.overall_score:.2f} is under the required "
            "minimum (`fail-below`)"
        )
    return reasons


def _neutral_reasons(view: ReportView, *, default: bool = True) -> list[str]:
    fell_back = [c.name for c in view.criteria if any(j.fallback for j in c.judges)]
    split = [c.name for c in view.criteria if c.re_evaluation]
    mistrial = [c.name for c in view.criteria if c.court == "declared a mistrial"]
    problems = len(view.verdict.errors)
    reasons = []
    if fell_back:
        reasons.append(f"a judge could not answer on {', '.join(fell_back)}")
    if split:
        reasons.append(f"the judges disagree by more than two points on {', '.join(split)}")
    if mistrial:
        reasons.append(f"the court declared a mistrial on {', '.join(mistrial)}")
    if problems:
        reasons.append(f"{problems} problem(s) during the audit, listed below")
    return reasons or (["the audit is incomplete or unsettled"] if default else [])


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]


def verdict_line(view: ReportView) -> str:
    """What the conclusion means for this verdict, in one or two sentences."""
    v = view.verdict
    if v.conclusion == "failure":
        return f"The merge gate fails: {_and(_failure_reasons(view))}."
    if v.conclusion == "neutral":
        return (
            f"Neither pass nor fail, because {_and(_neutral_reasons(view))}. "
            "GitHub lets a neutral check pass; re-run the audit once this is settled."
        )
    weak = [c for c in view.criteria if c.score <= LOW_SCORE]
    grade = (
        f"It is the gate's answer, not a grade: {len(weak)} of {len(view.criteria)} "
        f"criteria scored {LOW_SCORE}/5 or less."
        if weak
        else f"Every criterion scored above {LOW_SCORE}/5."
    )
    return f"The merge gate passes: {_and(_passed(view))}. {grade}"


def _passed(view: ReportView) -> list[str]:
    # Only what this verdict shows is claimed; the gate value itself is not recorded.
    held = []
    if not any(c.security_override for c in view.criteria):
        held.append("no confirmed security problem capped a criterion")
    if not _scan_incomplete(view):
        held.append("the security scan covered the repository")
    held.append("the score meets the minimum if one is set")
    if not view.verdict.errors and not _neutral_reasons(view, default=False):
        held.append("the audit completed with the judges in agreement")
    return held


def summary_sentence(view: ReportView) -> str:
    """The score, how it spreads over the criteria, and what a missing PDF did to it."""
    counts = [(s, sum(1 for c in view.criteria if c.score == s)) for s in range(5, 0, -1)]
    spread = ", ".join(f"{n} at {s}/5" for s, n in counts if n)
    parts = [
        f"Across {len(view.criteria)} criteria the submission scores "
        f"**{view.verdict.overall_score:.2f} / 5**" + (f" ({spread})." if spread else ".")
    ]
    absent = [c for c in view.criteria if c.no_pdf]
    if absent:
        parts.append(
            f"No PDF report was given, so {_names(absent)} "
            f"{'was' if len(absent) == 1 else 'were'} judged on its absence."
        )
    return " ".join(parts)


def _relevance(members: Sequence[CriterionView]) -> tuple[bool, int, int, float]:
    # A security cap fails the gate; then the lower the score, the more a fix can gain,
    # and a fix that lifts several criteria at once gains more than one that lifts one.
    return (
        not any(c.security_override for c in members),
        min(c.score for c in members),
        -sum(5 - c.score for c in members),
        min(c.exact for c in members),
    )


def top_fixes(view: ReportView, count: int = 3) -> list[Fix]:
    """The fixes that matter most, from the criteria's own remediation, most relevant first.

    Criteria judged on a PDF that was never given share one fix: add the report.
    """
    needing = [c for c in view.criteria if c.score < 5 or c.security_override]
    absent = [c for c in needing if c.no_pdf]
    queues: list[tuple[list[CriterionView], list[str]]] = [
        ([c], list(c.fixes)) for c in needing if not c.no_pdf and c.fixes
    ]
    if absent:
        queues.append((absent, [NO_PDF_FIX]))
    queues.sort(key=lambda queue: _relevance(queue[0]))
    fixes: list[Fix] = []
    seen: set[str] = set()
    depth = max((len(texts) for _, texts in queues), default=0)
    for rank in range(depth):  # every criterion's first fix before anyone's second
        for members, texts in queues:
            if rank < len(texts) and texts[rank] not in seen and len(fixes) < count:
                seen.add(texts[rank])
                fixes.append(Fix(texts[rank], _names(members)))
    return fixes


def attention(view: ReportView) -> list[str]:
    """Short lines about what deserves a second look."""
    lines = []
    dissent = [c.name for c in view.criteria if c.dissent]
    ghosts = sum(len(j.hallucinated) for c in view.criteria for j in c.judges)
    fallback = [c.name for c in view.criteria if any(j.fallback for j in c.judges)]
    if dissent:
        lines.append(f"⚖️ Judges disagreed sharply on {', '.join(dissent)}.")
    if ghosts:
        lines.append(
            f"👻 {ghosts} cited evidence id(s) do not exist; those opinions were penalised."
        )
    if fallback:
        lines.append(
            f"⚠️ A judge could not answer on {', '.join(fallback)}; "
            "its default opinion was not counted."
        )
    return lines
