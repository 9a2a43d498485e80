"""Load and validate rubric files; fail fast with one line naming file, field and problem."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from courtroom.checks import Check
from courtroom.errors import RubricError
from courtroom.models import TargetArtifact
from courtroom.resources import default_rubric_path as default_rubric_path

#: Evidence tags that make a criterion one the security cap may fire on.
SECURITY_TAGS = frozenset({"security", "security_unconfirmed"})

DEFAULT_KEYWORDS = (
    "shell injection",
    "rce",
    "hardcoded credentials",
    "path traversal",
    "sql injection",
    "xss",
    "insecure deserialization",
)


class JudicialLogic(BaseModel):
    """Per-persona guidance a rubric gives for one criterion."""

    model_config = ConfigDict(extra="allow")

    prosecutor: str | None = None
    defense: str | None = None
    tech_lead: str | None = None


class Criterion(BaseModel):
    """One criterion the court rules on."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    target_artifact: TargetArtifact
    forensic_instruction: str = Field(min_length=1)
    success_pattern: str | None = None
    failure_pattern: str | None = None
    judicial_logic: JudicialLogic | None = None
    evidence_tags: list[str] | None = Field(
        default=None,
        description="Evidence tags relevant to this criterion; absent = chosen by artifact.",
    )
    checks: list[Check] = Field(default_factory=list, max_length=50,
                                description="Declarative checks whose facts serve this "
                                "criterion alone (courtroom.checks).")


class SynthesisParameters(BaseModel):
    """The machine parameters of the chief justice's rules (DESIGN §4 defaults)."""

    model_config = ConfigDict(extra="forbid")

    weights: dict[str, float] = Field(
        default_factory=lambda: {"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 2.0}
    )
    security_cap: float = Field(default=3.0, ge=1.0, le=5.0)
    hallucination_penalty: int = Field(default=2, ge=0, le=4)
    variance_threshold: int = Field(default=2, ge=0, le=4)
    security_keywords: list[str] = Field(default_factory=lambda: list(DEFAULT_KEYWORDS))
    #: The criteria the security cap may fire on (rule 4). A rubric lists extra ones here;
    #: ``Rubric.parameters`` adds every criterion whose evidence_tags name a security tag
    #: or that holds a security check.
    #: None (a verdict recorded before the field existed): every criterion.
    security_criteria: list[str] | None = None

    @field_validator("weights")
    @classmethod
    def _known_judges(cls, value: dict[str, float]) -> dict[str, float]:
        unknown = set(value) - {"Prosecutor", "Defense", "TechLead"}
        if unknown:
            raise ValueError(f"unknown judge(s) {sorted(unknown)}")
        if any(w <= 0 for w in value.values()):
            raise ValueError("weights must be positive")
        return {**{"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 2.0}, **value}


class CourtParameters(BaseModel):
    """Limits of the court phase around contested criteria."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    ttl_seconds: float = Field(default=120.0, gt=0)
    max_handoffs: int = Field(default=12, ge=1)
    max_rounds: int = Field(default=2, ge=0)
    max_remands: int = Field(default=2, ge=0)


class RubricMetadata(BaseModel):
    """Who the rubric is for."""

    model_config = ConfigDict(extra="allow")

    rubric_name: str
    grading_target: str | None = None
    version: str = "1.0"
    #: The detective profile the rubric selects (e.g. "automaton-auditor"); None: only the
    #: general detectives run (checked against the registry by detectives.contract).
    profile: str | None = None


class Rubric(BaseModel):
    """A validated rubric and the digest of the file it came from."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    rubric_metadata: RubricMetadata
    #: The file calls them ``dimensions`` (kept for the rubrics users have written).
    criteria: list[Criterion] = Field(min_length=1, alias="dimensions")
    synthesis_rules: dict[str, object] = Field(default_factory=dict)
    sha256: str = ""

    @field_validator("criteria")
    @classmethod
    def _unique_ids(cls, value: list[Criterion]) -> list[Criterion]:
        seen: set[str] = set()
        for criterion in value:
            if criterion.id in seen:
                raise ValueError(f"duplicate dimension id {criterion.id!r}")
            seen.add(criterion.id)
        return value

    @property
    def parameters(self) -> SynthesisParameters:
        """The chief justice's parameters, defaults filled in."""
        raw = self.synthesis_rules.get("parameters")
        params = SynthesisParameters.model_validate(raw if isinstance(raw, dict) else {})
        tagged = {d.id for d in self.criteria if SECURITY_TAGS & set(d.evidence_tags or ())
                  or any(c.kind == "security" for c in d.checks)}
        listed = set(params.security_criteria or ())
        return params.model_copy(update={"security_criteria": sorted(tagged | listed)})

    @property
    def court(self) -> CourtParameters:
        """The court phase's limits, defaults filled in."""
        raw = self.synthesis_rules.get("court")
        return CourtParameters.model_validate(raw if isinstance(raw, dict) else {})

    @property
    def rules_prose(self) -> dict[str, str]:
        """The named rules as prose (everything in synthesis_rules that is text)."""
        return {k: v for k, v in self.synthesis_rules.items() if isinstance(v, str)}


def _field_path(loc: tuple[int | str, ...], data: object) -> str:
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int) and isinstance(node, list) and item < len(node):
            node = node[item]
            ident = node.get("id") if isinstance(node, dict) else None
            parts.append(f"[{item}]" + (f"({ident})" if ident else ""))
        else:
            parts.append(f".{item}" if parts else str(item))
            node = node.get(item) if isinstance(node, dict) else None
    return "".join(parts)


def parse_rubric(text: str, source: str = "<rubric>") -> Rubric:
    """Validate rubric JSON text; raise RubricError naming source, field and problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RubricError(f"{source}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    except RecursionError as exc:  # arrays nested past the decoder's stack
        raise RubricError(f"{source}: invalid JSON: nested too deeply") from exc
    if not isinstance(data, dict):
        raise RubricError(f"{source}: top level must be a JSON object")
    try:
        rubric = Rubric.model_validate(data)
        _ = rubric.parameters, rubric.court
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        rules_ok = isinstance(data.get("synthesis_rules", {}), dict)
        if loc and loc[0] == "synthesis_rules" and not rules_ok:
            field = "synthesis_rules"
        elif exc.title in ("SynthesisParameters", "CourtParameters"):
            key = "parameters" if exc.title == "SynthesisParameters" else "court"
            field = "synthesis_rules." + key + ("." + ".".join(map(str, loc)) if loc else "")
        else:
            field = _field_path(loc, data)
        problem = err["msg"]
        if err["type"] == "missing":
            problem = "required field is missing"
        elif err["type"] == "literal_error":
            problem = f"{err.get('input')!r} is not one of github_repo, pdf_report, pdf_images"
        raise RubricError(f"{source}: {field or 'rubric'}: {problem}") from exc
    ids = {d.id for d in rubric.criteria}
    raw = rubric.synthesis_rules.get("parameters")
    listed = raw.get("security_criteria") if isinstance(raw, dict) else None
    for ident in listed or ():
        if ident not in ids:
            raise RubricError(f"{source}: synthesis_rules.parameters.security_criteria: "
                              f"unknown criterion {ident!r}")
    rubric.sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return rubric


def load_rubric(path: Path) -> Rubric:
    """Read and validate a rubric file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise RubricError(f"{path}: rubric file not found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise RubricError(f"{path}: cannot read rubric: {exc}") from exc
    return parse_rubric(text, str(path))
