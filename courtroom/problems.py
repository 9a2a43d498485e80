"""What went wrong during an audit, as data: the verdict's ``problems`` (DESIGN §3).

Each stage records its problems where it meets them (a detective that failed, a PDF that
could not be read, a judge that fell back, the cost cap, a scan gap, a gate that fails);
renderers read the kind and the fields, never the wording. ``verdict.json`` keeps the
one-line ``errors`` of earlier versions, and ``error_line`` is the one place that writes
them, so a verdict's ``errors`` always follow from its ``problems``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ProblemKind = Literal[
    "detective_error",   # a detective failed after its retries or ran past its deadline
    "pdf",               # the PDF could not be used, or only in part
    "workspace",         # a listing limit or a tree problem left files out
    "fallback",          # a judge failed after its retries; its fixed opinion does not vote
    "cost_cap",          # the cost cap sent a criterion to the offline bench
    "scan_gap",          # the security scan did not cover the whole repository
    "uncovered",         # nothing the audit measures is about a criterion (a placeholder)
    "settings_unknown",  # a pull request's settings could not be read from its base
    "gate",              # a criterion scored under its own minimum
    "unjudged_finding",  # a confirmed security finding that no criterion capped
]

#: The kinds that fail the conclusion on their own (the merge gate fails closed).
GATE_KINDS: frozenset[ProblemKind] = frozenset({"settings_unknown", "gate", "unjudged_finding"})

#: The start of an unjudged finding's ``errors`` line (kept for earlier readers).
UNJUDGED_FINDING = "conclusion failure: a confirmed security finding no criterion capped"
SCAN_GAP = "conclusion failure: the security scan did not cover the whole repository"


class Problem(BaseModel):
    """One thing that went wrong, typed: what kind, about which criterion, where."""

    model_config = ConfigDict(frozen=True)

    kind: ProblemKind
    criterion: str | None = Field(default=None, description="The criterion it concerns.")
    location: str | None = Field(
        default=None, description="path:line, a path, or the PDF's display name.")
    source: str | None = Field(
        default=None, description="The detective or judge that failed, by name.")
    message: str = Field(description="What happened, one line, without the kind's label.")


def error_line(problem: Problem) -> str:
    """The ``errors`` line of one problem, worded as verdicts have always worded it."""
    p = problem
    match p.kind:
        case "detective_error":
            return f"detective {p.source} {p.message}"
        case "pdf":
            return f"pdf {p.location}: {p.message}"
        case "workspace":
            return f"workspace: {p.message}"
        case "fallback":
            return f"judge {p.source} {p.message}"
        case "uncovered":
            return f"criterion {p.criterion} is not covered: {p.message}"
        case "scan_gap":
            return f"{SCAN_GAP} ({p.location}: {p.message})"
        case "gate":
            return f"gate: {p.message}"
        case "unjudged_finding":
            return f"{UNJUDGED_FINDING}: {p.location}: {p.message}"
        case "cost_cap" | "settings_unknown":
            return p.message


def error_lines(problems: Iterable[Problem]) -> list[str]:
    """The ``errors`` lines of ``problems``, in their order."""
    return [error_line(p) for p in problems]
