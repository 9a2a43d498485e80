"""Judges' opinions and the records of how the court heard them and the chief justice
weighed them (DESIGN §3, §4). ``courtroom.models`` re-exports every name: the data
contract stays one import.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

JudgeName = Literal["Prosecutor", "Defense", "TechLead"]
JUDGES: tuple[JudgeName, ...] = ("Prosecutor", "Defense", "TechLead")
MistrialReason = Literal["time_exhausted", "deliberation_exhausted", "judge_declared"]

#: Fixed namespace so an opinion gets the same id on every run and machine. It is the
#: evidence ids' namespace: changing it would orphan every cached opinion.
OPINION_NAMESPACE = uuid.UUID("24aa9a70-f0cb-58ce-9814-ef51f8694ac2")

FALLBACK_ARGUMENT = "System Error: Judicial evaluation failed after retries."


class EvidenceRequest(BaseModel):
    """What a judge asks the detectives to look at again (court remand)."""

    path: str | None = Field(default=None, description="A repo-relative file or folder.")
    symbol: str | None = Field(default=None, description="A class, function or call name.")
    question: str = Field(default="", description="What the judge needs to know.")


class JudicialOpinion(BaseModel):
    """One judge's opinion on one criterion."""

    opinion_id: str = Field(description="Stable id of this opinion.")
    judge: JudgeName
    criterion_id: str
    score: int = Field(ge=1, le=5)
    argument: str
    cited_evidence: list[str] = Field(default_factory=list, description="Evidence ids, as cited.")
    charges: list[str] | None = None
    mitigations: list[str] | None = None
    remediation: str | None = None
    fallback: bool = Field(default=False, description="True when the judge failed after retries.")
    evidence_requests: list[EvidenceRequest] | None = Field(
        default=None, description="What the judge needs to rule (triggers a remand)."
    )

    @classmethod
    def fallback_for(cls, judge: JudgeName, criterion_id: str) -> JudicialOpinion:
        """The fixed opinion of a judge that failed after its retries (DESIGN §4.1)."""
        return cls(
            opinion_id=opinion_id(judge, criterion_id, "fallback"),
            judge=judge,
            criterion_id=criterion_id,
            score=3,
            argument=FALLBACK_ARGUMENT,
            cited_evidence=[],
            fallback=True,
        )


def opinion_id(judge: str, criterion_id: str, salt: str) -> str:
    """Derive a stable opinion id from its judge, criterion and a content digest."""
    return str(uuid.uuid5(OPINION_NAMESPACE, f"opinion\x1f{judge}\x1f{criterion_id}\x1f{salt}"))


class PenaltyEvent(BaseModel):
    """One fact-supremacy penalty the chief justice applied (DESIGN §4.2)."""

    judge: JudgeName
    opinion_id: str
    invalid_ids: list[str] = Field(description="Cited ids not in the pool or with found=false.")
    reason: str
    score_before: int
    score_after: int


class ExecutionLog(BaseModel):
    """How the chief justice reached a criterion's score (DESIGN §4.8)."""

    criterion_id: str
    raw_scores: dict[str, int]
    weights: dict[str, float]
    penalty_events: list[PenaltyEvent] = Field(default_factory=list)
    override_triggered: bool = False
    override_reason: str | None = None
    final_float: float
    final_int: int


class HearingRound(BaseModel):
    """The opinions of one round of a court hearing (round 0 is the first judgement)."""

    round: int
    stage: Literal["opening", "hearing", "remand"]
    opinions: list[JudicialOpinion]
    new_evidence: list[str] = Field(default_factory=list, description="Ids added by a remand.")


class EvidenceGap(BaseModel):
    """One thing a mistrial could not settle, for the Evidence Gap Brief."""

    missing: str
    raised_by: str
    stage: str


class CourtRecord(BaseModel):
    """What the court phase did for a criterion (issue: court phase)."""

    path: Literal["skipped", "plea", "hearing", "remand", "mistrial"] = "skipped"
    rounds: list[HearingRound] = Field(default_factory=list)
    remands: int = 0
    handoffs: int = 0
    extra_calls: int = 0
    extra_tokens: int = 0
    mistrial_reason: MistrialReason | None = None
    prosecution_best_score: int | None = None
    defense_challenges: list[str] = Field(default_factory=list)
    gaps: list[EvidenceGap] = Field(default_factory=list)
