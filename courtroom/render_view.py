"""View model for the templates: what a reader needs from a Verdict, pre-digested.

Templates stay dumb (loops and layout); every judgement about *what* to show — which
citation is a hallucination, which criterion is strongest, how a score bar looks, what
changed since the last audit — is made here, in plain testable Python.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field

from courtroom.models import NO_EVIDENCE, CriterionResult, Evidence, Verdict

CONCLUSION_BADGE = {"success": "✅ success", "failure": "❌ failure", "neutral": "⚪ neutral"}
COURT_PATHS = {
    "plea": "settled by plea deal",
    "hearing": "decided after a hearing",
    "remand": "remanded to the detectives for more evidence",
    "mistrial": "declared a mistrial",
}

# Absolute scratch paths must never reach a reader: they are meaningless off the runner
# and can reveal machine layout. Repo-relative paths are kept as they are.
_SCRATCH = (
    "/tmp",  # noqa: S108 - a pattern to hide, not a place we write to
    "/var/folders",
    "/private/var/folders",
    "/github/workspace",
    "/home/runner/work",
)
_TEMP_ROOTS = sorted({tempfile.gettempdir(), *_SCRATCH}, key=len, reverse=True)
_TEMP_PATH = re.compile(
    "(?:" + "|".join(re.escape(r) for r in _TEMP_ROOTS) + r")(?:/[^\s:)\]`'\"<>|]+)+"
)


# A runner's checkout root: what follows it is already the repo-relative path.
_WORKSPACE = re.compile(r"(?:/github/workspace|/home/runner/work/[^/\s]+/[^/\s]+)/(?=[^\s/])")


def scrub(text: str) -> str:
    """Make runner paths repo-relative; shorten other scratch paths to their last part."""
    text = _WORKSPACE.sub("", text)
    return _TEMP_PATH.sub(lambda m: "…/" + m.group(0).rstrip("/").rsplit("/", 1)[-1], text)


def short_id(evidence_id: str) -> str:
    """The first block of a UUID: enough to find it in the appendix, short to read."""
    return evidence_id.split("-", 1)[0][:8]


def bar(score: float, width: int = 5) -> str:
    """A compact text bar of a 1..5 score, readable where Mermaid is not rendered."""
    filled = max(0, min(width, round(score * width / 5)))
    return "█" * filled + "░" * (width - filled)


@dataclass
class Citation:
    """One id a judge cited, checked against the evidence pool."""

    id: str
    short: str
    status: str  # "ok", "not_found" (found=false), "hallucinated", "none" (NO_EVIDENCE)
    goal: str = ""
    location: str = ""


@dataclass
class JudgeView:
    """One judge's opinion as shown in the report."""

    judge: str
    score: int
    scored: int  # after the fact-supremacy penalty
    argument: str
    citations: list[Citation]
    charges: list[str]
    mitigations: list[str]
    remediation: str
    fallback: bool

    @property
    def hallucinated(self) -> list[Citation]:
        """Citations that are not in the evidence pool at all."""
        return [c for c in self.citations if c.status == "hallucinated"]


@dataclass
class CriterionView:
    """One criterion: its score, its judges, what to do about it."""

    id: str
    name: str
    score: int
    exact: float
    bar: str
    judges: list[JudgeView]
    dissent: str | None
    remediation: str
    security_override: bool
    override_reason: str | None
    re_evaluation: bool
    court: str | None
    court_detail: str | None
    previous: int | None = None

    @property
    def delta(self) -> str:
        """Score change since the previous audit, as a reader wants to see it."""
        if self.previous is None:
            return "new"
        diff = self.score - self.previous
        return "±0" if diff == 0 else f"{diff:+d}"

    @property
    def flags(self) -> str:
        """Short markers for the score table."""
        marks = []
        if self.security_override:
            marks.append("🔒 security cap")
        if self.dissent:
            marks.append("⚖️ dissent")
        if any(j.fallback for j in self.judges):
            marks.append("⚠️ judge fallback")
        if any(j.hallucinated for j in self.judges):
            marks.append("👻 hallucinated citation")
        return ", ".join(marks)


@dataclass
class ReportView:
    """Everything the templates render."""

    verdict: Verdict
    criteria: list[CriterionView]
    strongest: list[CriterionView]
    weakest: list[CriterionView]
    evidence: list[Evidence]
    badge: str
    previous_overall: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def digest(self) -> str | None:
        """The verdict's integrity digest (``courtroom verify`` recomputes it), if sealed."""
        integrity = self.verdict.integrity or {}
        value = integrity.get("digest")
        return f"sha256:{value}" if isinstance(value, str) else None

    @property
    def overall_delta(self) -> str | None:
        """Overall score change since the previous audit."""
        if self.previous_overall is None:
            return None
        diff = round(self.verdict.overall_score - self.previous_overall, 2)
        return "±0.00" if diff == 0 else f"{diff:+.2f}"


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
            out.append(Citation(cid, short_id(cid), status, ev.goal, ev.location))
    return out


def _court(result: CriterionResult) -> tuple[str | None, str | None]:
    record = result.court
    if record is None or record.path == "skipped":
        return None, None
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
            argument=scrub(o.argument.strip()),
            citations=_citations(o.cited_evidence, pool),
            charges=[scrub(c) for c in o.charges or []],
            mitigations=[scrub(m) for m in o.mitigations or []],
            remediation=scrub((o.remediation or "").strip()),
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
        dissent=scrub(result.dissent_summary) if result.dissent_summary else None,
        remediation=scrub(result.remediation.strip()),
        security_override=result.security_override,
        override_reason=result.execution_log.override_reason,
        re_evaluation=result.re_evaluation_required,
        court=court,
        court_detail=detail,
    )


def build_view(
    verdict: Verdict,
    previous_scores: Mapping[str, int] | None = None,
    previous_overall: float | None = None,
) -> ReportView:
    """Build the view of a verdict, with score changes when a previous audit is known."""
    criteria = [criterion_view(c, verdict.evidences) for c in verdict.criteria]
    if previous_scores is not None:
        for view in criteria:
            view.previous = previous_scores.get(view.id)
    ranked = sorted(criteria, key=lambda c: (-c.exact, c.id))
    top = ranked[0].exact if ranked else 0
    low = ranked[-1].exact if ranked else 0
    strongest = [c for c in ranked if c.exact == top][:3]
    weakest = [c for c in reversed(ranked) if c.exact == low and c not in strongest][:3]
    # Appendix order: the facts judges leaned on first, then by file, stable across runs.
    cited = {cid for c in verdict.criteria for o in c.opinions for cid in o.cited_evidence}
    evidence = sorted(
        verdict.evidences.values(), key=lambda e: (e.id not in cited, e.location, e.id)
    )
    return ReportView(
        verdict=verdict,
        criteria=criteria,
        strongest=strongest,
        weakest=weakest,
        evidence=evidence,
        badge=CONCLUSION_BADGE.get(verdict.conclusion, verdict.conclusion),
        previous_overall=previous_overall,
    )
