"""The data contract: one pydantic model per concept, as fixed by DESIGN §3.

Evidence flows from detectives to judges; opinions from judges to the chief justice;
``CriterionResult`` and ``Verdict`` are what gets rendered, published and verified.
"""

from __future__ import annotations

import re
import uuid
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from courtroom.findings import SecurityReport
from courtroom.opinions import FALLBACK_ARGUMENT as FALLBACK_ARGUMENT
from courtroom.opinions import JUDGES as JUDGES
from courtroom.opinions import CourtRecord as CourtRecord
from courtroom.opinions import EvidenceGap as EvidenceGap
from courtroom.opinions import EvidenceRequest as EvidenceRequest
from courtroom.opinions import ExecutionLog as ExecutionLog
from courtroom.opinions import HearingRound as HearingRound
from courtroom.opinions import JudgeName as JudgeName
from courtroom.opinions import JudicialOpinion as JudicialOpinion
from courtroom.opinions import MistrialReason as MistrialReason
from courtroom.opinions import PenaltyEvent as PenaltyEvent
from courtroom.opinions import opinion_id as opinion_id
from courtroom.problems import Problem, error_lines

#: The judge benches ``--judges`` offers; a new backend adds its kind here (the CLI, the
#: config file and ``config.choose_judges`` all read ``JUDGE_KINDS``).
JudgeKind = Literal["offline", "anthropic"]
JUDGE_KINDS: tuple[JudgeKind, ...] = get_args(JudgeKind)
#: Where Claude is served from; the flag, the config file and the action input read PROVIDERS.
Provider = Literal["anthropic", "bedrock", "vertex"]
PROVIDERS: tuple[Provider, ...] = get_args(Provider)
#: Judge requests in flight over one audit, inclusive: the one range that the flag, the
#: config file, the action input and ``AuditConfig`` all check.
CONCURRENCY_RANGE: tuple[int, int] = (1, 64)
Conclusion = Literal["success", "failure", "neutral"]
#: What a rubric criterion judges: the repository, the PDF report's text, its images.
TargetArtifact = Literal["github_repo", "pdf_report", "pdf_images"]
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
    fix: str | None = Field(
        default=None, description="The change that would cure an adverse fact, one sentence. "
        "Not part of the id.")

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
        fix: str | None = None,
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
            fix=fix,
        )


class CriterionResult(BaseModel):
    """The chief justice's ruling on one rubric criterion."""

    criterion_id: str
    name: str
    #: What the rubric points the criterion at (None: a verdict from before it was kept).
    artifact: TargetArtifact | None = None
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


class Usage(BaseModel):
    """Model usage of an audit: calls, tokens and estimated cost."""

    calls: int = 0
    cached_opinions: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    estimated_cost_usd: float = 0.0
    model: str | None = None
    api_version: str | None = None
    #: The cost cap in force (USD), and the criteria the offline bench judged because a
    #: Claude call for them would have passed it (the reason is in the verdict's errors).
    max_cost_usd: float | None = None
    over_budget: list[str] = Field(default_factory=list)


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
    #: Everything that went wrong, typed; ``errors`` are its lines (a verdict written
    #: before ``problems`` existed has only ``errors``).
    problems: list[Problem] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    #: The effective settings the audit ran with and where each came from (no secrets).
    settings: dict[str, object] = Field(default_factory=dict)
    settings_source: SettingsSource | None = None  # None: a verdict from before it was kept
    security: SecurityReport | None = Field(
        default=None, description="The security scan: coverage, counts, every finding.")
    integrity: dict[str, object] | None = None

    @model_validator(mode="after")
    def _errors_follow_problems(self) -> Verdict:
        # One source of truth: ``errors`` are derived from ``problems``, and a verdict whose
        # lines were edited apart from its problems does not load.
        if self.problems:
            lines = error_lines(self.problems)
            if not self.errors:
                self.errors = lines
            elif self.errors != lines:
                raise ValueError("errors are not the lines of problems")
        return self
