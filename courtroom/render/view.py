"""View model for the templates: what a reader needs from a Verdict, ready to lay out.

Templates stay dumb (loops and layout); every judgement about *what* to show is made in
plain testable Python: here (the shapes, score bars, scratch paths) and in
``render/build.py`` (which citation is a hallucination, which criterion was judged on a
missing PDF, what changed since the last audit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from courtroom.models import Evidence, Verdict

CONCLUSION_BADGE = {"success": "✅ success", "failure": "❌ failure", "neutral": "⚪ neutral"}

def short_id(evidence_id: str) -> str:
    """The first block of a UUID: enough to find it in the appendix, short to read.

    Only letters and digits are kept: the short id lands in HTML anchors and links.
    """
    return re.sub(r"[^0-9A-Za-z]", "", evidence_id.split("-", 1)[0])[:8] or "none"


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
    location: str = ""
    direction: str = "context"  # supports / adverse / context, as the detective said
    cited_by: list[str] = field(default_factory=list)


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
    fixes: list[str]
    security_override: bool
    override_reason: str | None
    re_evaluation: bool
    court: str | None
    court_detail: str | None
    evidence: list[Citation] = field(default_factory=list)
    previous: int | None = None
    no_pdf: bool = False  # judged on the absence of a PDF report that was never given
    covered: bool = True  # false: nothing measured it; its score is a placeholder

    @property
    def delta(self) -> str:
        """Score change since the previous audit, as a reader wants to see it."""
        if self.previous is None:
            return "new"
        diff = self.score - self.previous
        return "±0" if diff == 0 else f"{diff:+d}"

    @property
    def counted(self) -> list[JudgeView]:
        """The judges whose opinions took part in the score."""
        return [j for j in self.judges if not j.fallback]

    @property
    def flags(self) -> str:
        """Short markers for the score table."""
        marks = [] if self.covered else ["❔ not covered"]
        if self.security_override:
            marks.append("🔒 security cap")
        if self.dissent:
            marks.append("⚖️ dissent")
        if any(j.fallback for j in self.judges):
            marks.append("⚠️ judge fallback")
        if any(j.hallucinated for j in self.judges):
            marks.append("👻 hallucinated citation")
        if self.no_pdf:
            marks.append("📄 no PDF given")
        return ", ".join(marks)


@dataclass
class ReportView:
    """Everything the templates render."""

    verdict: Verdict
    criteria: list[CriterionView]
    evidence: list[Evidence]
    badge: str
    previous_overall: float | None = None
    #: Facts saying the PDF could not be read, when in truth none was given.
    no_pdf_ids: frozenset[str] = frozenset()

    @property
    def digest(self) -> str | None:
        """The verdict's integrity digest (``courtroom verify`` recomputes it), if sealed."""
        integrity = self.verdict.integrity or {}
        value = integrity.get("digest")
        # Shown raw in a code span: a verdict read from a file must not choose that text.
        hex_digest = isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value)
        return f"sha256:{value}" if hex_digest else None

    @property
    def overall_delta(self) -> str | None:
        """Overall score change since the previous audit."""
        if self.previous_overall is None:
            return None
        diff = round(self.verdict.overall_score - self.previous_overall, 2)
        return "±0.00" if diff == 0 else f"{diff:+.2f}"
