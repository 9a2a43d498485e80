"""Security findings as data: what ``verdict.json`` lists and ``findings.sarif`` exports.

Every finding is kept (none is dropped to save space): confirmed ones gate the verdict,
unconfirmed ones are hints a reader can check. ``SecurityReport`` also says what the scan
covered, so a file it could not examine is never silently lost.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, Field

Precision = Literal["very-high", "high", "medium", "low"]
#: A finding held against the base commit's scan (SARIF 2.1.0 ``baselineState``).
BaselineState = Literal["new", "unchanged"]
#: What fails the gate: every confirmed finding, or only those the change introduces.
FailOn = Literal["all", "new"]


class FlowStep(BaseModel):
    """One hop of attacker data on its way to the sink (1-based line and column)."""

    path: str
    line: int
    column: int
    note: str


class SecurityFinding(BaseModel):
    """One located finding, confirmed (attacker data shown to reach it) or not."""

    rule_id: str = Field(description="courtroom/<rule> or bandit/<test id>.")
    name: str = Field(description="Plain-words kind: 'shell injection', 'sql injection'...")
    cwe: int
    severity: Literal["HIGH", "MEDIUM", "LOW"]
    precision: Precision
    path: str
    line: int
    column: int
    message: str
    confirmed: bool
    in_test: bool = Field(description="In test, fixture or example code: never confirmed.")
    reason: str = Field(description="Why it is (or is not) confirmed.")
    tools: list[str] = Field(default_factory=list, description="Engines that reported it.")
    flow: list[FlowStep] = Field(default_factory=list, description="Source-to-sink path.")
    in_diff: bool | None = Field(default=None, description="In the lines the change adds or "
                                 "rewrites; None without a base to compare with.")
    baseline: BaselineState | None = Field(default=None, description="Whether the base "
                                           "commit's scan had it; None without a base.")

    @property
    def fingerprint(self) -> str:
        """Stable across runs and line shifts: rule, file, the sink's source text and its
        column (two sinks of one rule on one line are two findings)."""
        key = "\x1f".join((self.rule_id, self.path, self.message, str(self.column)))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


class Baseline(BaseModel):
    """The scan held against the base commit's: what the change adds, keeps and removes."""

    base: str = Field(description="The base commit's full sha.")
    fail_on: FailOn = Field(description="What fails the gate (the fail-on-findings setting).")
    new: int = Field(description="Findings the base's scan did not have.")
    unchanged: int = Field(description="Findings the base's scan had too.")
    fixed: list[SecurityFinding] = Field(
        default_factory=list, description="The base's findings the change removes, as the "
        "base has them.")


class SecurityReport(BaseModel):
    """The security scan: its coverage, its counts and every finding."""

    files_examined: int = 0
    bandit_scanned: int = 0
    tree_sitter_only: list[str] = Field(
        default_factory=list,
        description="Files bandit could not parse (newer syntax) that the taint engine examined.")
    not_examined: list[str] = Field(
        default_factory=list, description="Files left unexamined, or examined only up to "
        "an analysis bound, each with the reason.")
    confirmed: int = 0
    unconfirmed: int = 0
    findings: list[SecurityFinding] = Field(default_factory=list)
    baseline: Baseline | None = Field(default=None, description="Held against the base "
                                      "commit's scan; None without a base.")
