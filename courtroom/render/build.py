"""Build the view the templates render from a Verdict (the shapes are in ``render/view.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from courtroom.models import NO_EVIDENCE, CriterionResult, Evidence, Verdict
from courtroom.render.view import (
    CONCLUSION_BADGE,
    Citation,
    CriterionView,
    JudgeView,
    ReportView,
    bar,
    short_id,
)

COURT_PATHS = {
    "hearing": "decided after a hearing",
    "remand": "remanded to the detectives for more evidence",
    "mistrial": "declared a mistrial",
}
#: What the chief justice writes when no judge proposed a fix.
NO_REMEDIATION = "No remediation proposed."
#: Evidence tags naming the PDF artifacts (the rubric's ``target_artifact`` values).
PDF_ARTIFACTS = frozenset({"pdf_report", "pdf_images"})


def _citations(cited: list[str], pool: Mapping[str, Evidence]) -> list[Citation]:
    out: list[Citation] = []
    for cid in cited:
        if cid == NO_EVIDENCE:
            out.append(Citation(cid, "NO_EVIDENCE", "none"))
            continue
        ev = pool.get(cid)
        if ev is None:
            out.append(Citation(cid, short_id(cid), "hallucinated"))
        else:
            status = "ok" if ev.found else "not_found"
            out.append(Citation(cid, short_id(cid), status, ev.location, ev.direction))
    return out


def _cited_once(judges: list[JudgeView]) -> list[Citation]:
    """Every id the judges cited, once, in first-cited order, with who cited it.

    ``cited_by`` stays empty when every counted judge cited the fact: the common case
    needs no words. NO_EVIDENCE is not a fact and is left out.
    """
    merged: dict[str, Citation] = {}
    for judge in judges:
        for c in judge.citations:
            if c.status == "none":
                continue
            entry = merged.setdefault(
                c.id, Citation(c.id, c.short, c.status, c.location, c.direction)
            )
            if judge.judge not in entry.cited_by:
                entry.cited_by.append(judge.judge)
    counted = [j.judge for j in judges if not j.fallback]
    for entry in merged.values():
        if sorted(entry.cited_by) == sorted(counted):
            entry.cited_by = []
    return list(merged.values())


def remediation_items(text: str) -> list[str]:
    """The chief justice's combined remediation ("- a\\n- b") as separate fixes."""
    items: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(("- ", "* ")):
            items.append(stripped[2:].strip())
        elif not items:
            items.append(stripped)
        else:
            items[-1] += " " + stripped  # a judge's text that ran over several lines
    return [item for item in items if item and item != NO_REMEDIATION]


def _court(result: CriterionResult) -> tuple[str | None, str | None]:
    record = result.court
    if record is None or record.path in ("skipped", "plea"):
        return None, None  # a plea deal is the judges agreeing at once: nothing to tell
    # rounds[0] is the opening judgement; only the rounds after it are hearing rounds.
    counts = [
        (max(0, len(record.rounds) - 1), "hearing round"),
        (record.remands, "remand"),
        (record.handoffs, "handoff"),
        (record.extra_calls, "extra call"),
        (record.extra_tokens, "extra token"),
    ]
    parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in counts if n]
    detail = ", ".join(parts) or "no further rounds"
    if record.mistrial_reason:
        detail += f"; mistrial: {record.mistrial_reason.replace('_', ' ')}"
    if record.gaps:
        detail += "; unresolved: " + "; ".join(g.missing for g in record.gaps[:5])
    return COURT_PATHS.get(record.path, record.path), detail


def criterion_view(result: CriterionResult, pool: Mapping[str, Evidence]) -> CriterionView:
    """Digest one criterion result for display."""
    penalised = {p.opinion_id: p.score_after for p in result.execution_log.penalty_events}
    judges = [
        JudgeView(
            judge=o.judge,
            score=o.score,
            scored=penalised.get(o.opinion_id, o.score),
            argument=o.argument.strip(),
            citations=_citations(o.cited_evidence, pool),
            charges=list(o.charges or []),
            mitigations=list(o.mitigations or []),
            fallback=o.fallback,
        )
        for o in result.opinions
    ]
    court, detail = _court(result)
    return CriterionView(
        id=result.criterion_id,
        name=result.name,
        score=result.final_score,
        exact=result.execution_log.final_float,
        bar=bar(result.final_score),
        judges=judges,
        dissent=result.dissent_summary,
        fixes=remediation_items(result.remediation),
        security_override=result.security_override,
        override_reason=result.execution_log.override_reason,
        re_evaluation=result.re_evaluation_required,
        court=court,
        court_detail=detail,
        evidence=_cited_once(judges),
        covered=result.covered,
    )


def absent_pdf_facts(verdict: Verdict) -> list[Evidence]:
    """The facts saying the PDF report could not be read, when no PDF was given at all."""
    if verdict.target.pdf:
        return []
    return [
        e for e in verdict.evidences.values() if not e.found and PDF_ARTIFACTS.intersection(e.tags)
    ]


def _judged_on_absent_pdf(result: CriterionResult, facts: list[Evidence]) -> bool:
    if result.artifact is not None:
        return result.artifact in PDF_ARTIFACTS
    # A verdict from before the artifact was recorded: the judges' citations tell.
    ids = {e.id for e in facts}
    return any(ids.intersection(o.cited_evidence) for o in result.opinions if not o.fallback)


def build_view(
    verdict: Verdict,
    previous_scores: Mapping[str, int] | None = None,
    previous_overall: float | None = None,
) -> ReportView:
    """Build the view of a verdict, with score changes when a previous audit is known."""
    criteria = [criterion_view(c, verdict.evidences) for c in verdict.criteria]
    absent = absent_pdf_facts(verdict)
    for view, result in zip(criteria, verdict.criteria, strict=True):
        view.no_pdf = bool(absent) and _judged_on_absent_pdf(result, absent)
        if previous_scores is not None:
            view.previous = previous_scores.get(view.id)
    # Appendix order: the facts judges leaned on first, then by file, stable across runs.
    cited = {cid for c in verdict.criteria for o in c.opinions for cid in o.cited_evidence}
    evidence = sorted(
        verdict.evidences.values(), key=lambda e: (e.id not in cited, e.location, e.id)
    )
    return ReportView(
        verdict=verdict,
        criteria=criteria,
        evidence=evidence,
        badge=CONCLUSION_BADGE.get(verdict.conclusion, verdict.conclusion),
        previous_overall=previous_overall,
        no_pdf_ids=frozenset(e.id for e in absent),
    )
