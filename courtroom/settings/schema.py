"""The one declaration of every setting: its flag, action input, file key, trust and record.

Each setting is one :class:`Setting` in :data:`SETTINGS`. The configuration file's keys
(:data:`courtroom.settings.config_file.KEYS`), what an untrusted file may not change once the
workflow set the gate (``MEASURE``) and what ``verdict.json`` records
(:meth:`courtroom.settings.config.AuditConfig.settings_record`) are read from this table, so a new
setting is one entry here plus the code that uses it (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from courtroom.models import CONCURRENCY_RANGE, JUDGE_KINDS, PROVIDERS
from courtroom.tree_paths import glob_problem
from courtroom.untrusted import LINE_BREAK

MAX_GLOBS = 200

#: What the audited tree's own (untrusted) file may do with a setting:
#: "free": fill it in when the workflow left it open; "tighten": only make the gate
#: stricter; "measure": how the score is measured, the workflow's once it set the gate;
#: "workflow": never read from a file at all.
Trust = Literal["free", "tighten", "measure", "workflow"]


def _number(lo: float, hi: float, *, integer: bool = False) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        kind = "a whole number" if integer else "a number"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"must be {kind}, got {value!r}")
        if integer and not isinstance(value, int):
            raise ValueError(f"must be {kind}, got {value!r}")
        if not math.isfinite(value) or not lo <= value <= hi:
            raise ValueError(f"must be between {lo:g} and {hi:g}, got {value!r}")
        return value

    return check


def _choice(*allowed: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}, got {value!r}")
        return str(value)

    return check


def _switch(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 300:
        raise ValueError(f"must be a non-empty string, got {value!r}")
    if "\x00" in value or LINE_BREAK.search(value):
        raise ValueError("must be one line")
    return value.strip()


def _globs(value: Any) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or len(items) > MAX_GLOBS:
        raise ValueError(f"must be a glob or a list of at most {MAX_GLOBS} globs")
    globs: list[str] = []
    for item in items:
        text = _text(item)
        problem = glob_problem(text)
        if problem:
            raise ValueError(f"{text!r} {problem}")
        globs.append(text)
    return tuple(globs)


def _gate(value: Any) -> dict[str, float]:
    if not isinstance(value, dict) or not value:
        raise ValueError("must map criterion ids to minimum scores, e.g. {safe_tools: 3}")
    score = _number(0, 5)
    gate: dict[str, float] = {}
    for key, minimum in value.items():
        if not isinstance(key, str) or not key.strip():
            raise ValueError(f"criterion id must be a string, got {key!r}")
        try:
            gate[key.strip()] = float(score(minimum))
        except ValueError as exc:
            raise ValueError(f"{key}: {exc}") from None
    return gate


class Setting(BaseModel):
    """One setting: the AuditConfig field and every way a user can set or see it."""

    model_config = ConfigDict(frozen=True)

    field: str  # the AuditConfig field
    flag: str | None = None  # the `courtroom audit` flag
    inputs: tuple[str, ...] = ()  # the Action's inputs (region has one per cloud)
    key: str | None = None  # the configuration file's key
    check: Callable[[Any], Any] | None = None  # validates the file's value
    trust: Trust = "workflow"
    recorded: bool = True  # in verdict.json's settings


def _s(field: str, flag: str | None, inputs: tuple[str, ...], key: str | None = None,
       check: Callable[[Any], Any] | None = None, trust: Trust = "workflow",
       recorded: bool = True) -> Setting:
    return Setting(field=field, flag=flag, inputs=inputs, key=key, check=check, trust=trust,
                   recorded=recorded)


#: Every setting, in the order verdict.json records them. Paths are checked against the
#: tree later (courtroom.settings.paths), so a file's rubric and pdf are plain text here.
SETTINGS: tuple[Setting, ...] = (
    _s("rubric_path", "--rubric", ("rubric",), "rubric", _text, "measure"),
    _s("pdf", "--pdf", ("pdf",), "pdf", _text, "free", recorded=False),
    _s("judges", "--judges", (), "judges", _choice(*JUDGE_KINDS), "measure"),
    _s("model", "--model", ("model",), "model", _text, "measure"),
    _s("provider", "--provider", ("provider",), "provider", _choice(*PROVIDERS), "measure"),
    _s("region", "--region", ("aws-region", "vertex-region"), "region", _text, "measure"),
    _s("project_id", "--project-id", ("vertex-project",), "project-id", _text, "measure"),
    _s("fail_below", "--fail-below", ("fail-below",), "fail-below", _number(0, 5), "tighten"),
    _s("gate", None, (), "gate", _gate, "tighten"),
    # Only a tightening: a flag or input that set it wins, and it can only be set true.
    _s("fail_on_uncovered", "--fail-on-uncovered", ("fail-on-uncovered",),
       "fail-on-uncovered", _switch, "tighten"),
    _s("max_cost_usd", "--max-cost-usd", ("max-cost",), "max-cost-usd",
       _number(0.01, 10_000), "measure"),
    _s("max_concurrency", "--max-concurrency", ("max-concurrency",), "max-concurrency",
       _number(*CONCURRENCY_RANGE, integer=True), "free"),
    # A real opinion takes minutes: a tree must not starve its judges into fallbacks.
    _s("judge_timeout", "--judge-timeout", ("judge-timeout",), "judge-timeout",
       _number(60, 3600), "measure"),
    _s("clone_timeout", "--clone-timeout", ("clone-timeout",)),
    # The tree's globs never hide Python source (tree_ignore): the security scan reads it.
    _s("ignore", "--ignore", (), "ignore", _globs, "free"),
    # The tree's own `ignore` lands here (see AuditConfig.tree_ignore), never set directly.
    _s("tree_ignore", None, ()),
    _s("use_cache", "--no-cache", ()),
    _s("court", "--no-court", ()),
    _s("base", "--base", ()),
    # "new" loosens the gate: a file the change under review wrote may only set "all".
    _s("fail_on_findings", "--fail-on-findings", ("fail-on-findings",), "fail-on-findings",
       _choice("all", "new"), "tighten"),
)
