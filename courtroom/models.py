"""The data contract: one pydantic model per concept, as fixed by DESIGN §3.

Evidence flows from detectives to judges; opinions from judges to the chief justice;
``CriterionResult`` and ``Verdict`` are what gets rendered, published and verified.
"""

from __future__ import annotations

import re
import uuid
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from courtroom.findings import SecurityReport
from courtroom.usage import Usage

JudgeName = Literal["Prosecutor", "Defense", "TechLead"]

#: The judge benches ``--judges`` offers; a new backend adds its kind here (the CLI, the
#: config file and ``config.choose_judges`` all read ``JUDGE_KINDS``).
JudgeKind = Literal["offline", "anthropic"]
JUDGE_KINDS: tuple[JudgeKind, ...] = get_args(JudgeKind)
JUDGES: tuple[JudgeName, ...] = ("Prosecutor", "Defense", "TechLead")
#: Where Claude is served from; the flag, the config file and the action input read PROVIDERS.
Provider = Literal["anthropic", "bedrock", "vertex"]
PROVIDERS: tuple[Provider, ...] = get_args(Provider)
#: Judge requests in flight over one audit, inclusive: the one range that the flag, the
#: config file, the action input and ``AuditConfig`` all check.
CONCURRENCY_RANGE: tuple[int, int] = (1, 64)
Conclusion = Literal["success", "failure", "neutral"]
MistrialReason = Literal["time_exhausted", "deliberation_exhausted", "judge_declared"]
#: Which way a fact points for the criteria it serves: it meets the success pattern
#: ("supports"), it matches the failure pattern ("adverse"), or it is background ("context").
#: Lenses credit only "supports"; an "adverse" fact is never credit, whatever ``found`` says.
Direction = Literal["supports", "adverse", "context"]

#: Tag of a confirmed security finding: it caps the criterion's score (DESIGN §4 rule 4)
#: and the court hears it. Unconfirmed findings carry "security_unconfirmed" instead.
SECURITY_TAG = "security"

#: Sentinel a judge cites when nothing was found for the criterion; never penalised.
NO_EVIDENCE = "NO_EVIDENCE"

#: Fixed namespace so the same fact gets the same evidence id on every run and machine.
EVIDENCE_NAMESPACE = uuid.UUID("24aa9a70-f0cb-58ce-9814-ef51f8694ac2")

FALLBACK_ARGUMENT = "System Error: Judicial evaluation failed after retries."


_LINE_SUFFIX = re.compile(r":\d+(?:-\d+)?$")


def location_path(location: str) -> str:
    """The path part of a ``path:line`` or ``path:start-end`` location (the location itself
    when it has no line). Only a trailing line number is cut: a file name may hold ``:``."""
    return _LINE_SUFFIX.sub("", location.strip())


def evidence_id(detective: str, goal: str, location: str, content: str | None) -> str:
    """Derive the stable UUID of a fact from what makes it that fact."""
    key = "\x1f".join((detective, goal, location, content or ""))
    return str(uuid.uuid5(EVIDENCE_NAMESPACE, key))


class Evidence(BaseModel):
    """One located fact a detective collected. Facts only: never a score."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="UUID5 over detective, goal, location and content.")
    goal: str = Field(description="What the detective was looking for, in a short sentence.")
    found: bool = Field(description="Whether the thing looked for was found.")
    content: str | None = Field(default=None, description="The fact itself (excerpt, list, graph).")
    location: str = Field(description="path:line, commit sha, or 'pdf:page N'; repo-relative.")
    rationale: str = Field(description="Why the detective believes this, and how it checked.")
    confidence: float = Field(ge=0.0, le=1.0, description="How sure the detective is, 0..1.")
    tags: list[str] = Field(default_factory=list, description="Topics; 'security' gates §4.4.")
    detective: str = Field(default="", description="Name of the detective that produced it.")
    direction: Direction = Field(
        default="context",
        description="supports: meets the success pattern; adverse: matches the failure "
        "pattern; context: neither. Not part of the id.",
    )

    @classmethod
    def make(
        cls,
        *,
        detective: str,
        goal: str,
        found: bool,
        location: str,
        rationale: str,
        confidence: float,
        content: str | None = None,
        tags: list[str] | tuple[str, ...] = (),
        direction: Direction = "context",
    ) -> Evidence:
        """Build an evidence item with its derived id."""
        return cls(
            id=evidence_id(detective, goal, location, content),
            goal=goal,
            found=found,
            content=content,
            location=location,
            rationale=rationale,
            confidence=confidence,
            tags=sorted(set(tags)),
            detective=detective,
            direction=direction,
        )


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
    return str(uuid.uuid5(EVIDENCE_NAMESPACE, f"opinion\x1f{judge}\x1f{criterion_id}\x1f{salt}"))


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


class CriterionResult(BaseModel):
    """The chief justice's ruling on one rubric criterion."""

    criterion_id: str
    name: str
    final_score: int = Field(ge=1, le=5)
    opinions: list[JudicialOpinion]
    dissent_summary: str | None = None
    remediation: str
    re_evaluation_required: bool = False
    security_override: bool = False
    execution_log: ExecutionLog
    court: CourtRecord | None = None
    #: Evidence relevant to the criterion that was cut to fit the judges' prompt, counted
    #: by kind ("<detective>, <direction>"); the judges were told these counts.
    evidence_left_out: dict[str, int] = Field(default_factory=dict)
    #: False when nothing the audit measures is about the criterion (no evidence_tags, no
    #: checks): its score is a placeholder, left out of the overall score (DESIGN §4).
    covered: bool = True


class Target(BaseModel):
    """What was audited."""

    repo: str = Field(description="owner/name, a URL, or a display path (never a temp path).")
    commit: str | None = None
    pdf: str | None = None


class RubricRef(BaseModel):
    """Which rubric judged the target."""

    name: str
    version: str
    sha256: str


ConfigOrigin = Literal["tree", "base", "operator", "ignored", "absent"]
RubricOrigin = Literal["bundled", "operator", "tree", "base"]


class SettingsSource(BaseModel):
    """Which settings the audited repository chose for itself: its config file and a rubric
    inside it are its author's, so whoever grades it must see when they set the measure."""

    #: The config file applied: the audited tree's ("tree"), a pull request base's ("base"),
    #: the operator's --config FILE, none (--config none: "ignored"), or it has none.
    config: ConfigOrigin
    rubric: RubricOrigin
    #: The config keys (``rubric``, ``gate``...) whose value the repository's file decided.
    from_tree: list[str] = Field(default_factory=list)


class Verdict(BaseModel):
    """The whole machine-readable verdict (``verdict.json``)."""

    schema_version: int = 1
    target: Target
    rubric: RubricRef
    bench: str
    overall_score: float
    conclusion: Conclusion
    evidences: dict[str, Evidence]
    criteria: list[CriterionResult]
    errors: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    #: The effective settings the audit ran with and where each came from (no secrets).
    settings: dict[str, object] = Field(default_factory=dict)
    settings_source: SettingsSource | None = None  # None: a verdict from before it was kept
    security: SecurityReport | None = Field(
        default=None, description="The security scan: coverage, counts, every finding.")
    integrity: dict[str, object] | None = None
