"""The configuration file: ``.github/courtroom.yml`` in the audited tree, or ``--config FILE``.

A file holds the settings a team would otherwise repeat in every workflow. Each key is
checked at start; a problem is one line naming the file, the key and what is wrong
(exit 2), and unknown keys are errors, so a typo never silently does nothing.

The tree's own file is written by whoever writes the pull request, so it is read as
untrusted (see :mod:`courtroom.settings` for what it may and may not change); the Action
reads a pull request's from its base commit (:mod:`courtroom.base_config`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from courtroom.errors import ConfigError
from courtroom.models import CONCURRENCY_RANGE, JUDGE_KINDS, PROVIDERS
from courtroom.tree_paths import glob_problem, inside_tree
from courtroom.untrusted import LINE_BREAK

#: Where the audited repository keeps its settings (relative to its root).
TREE_FILE = ".github/courtroom.yml"
#: A settings file is a few lines; anything larger is refused before parsing.
MAX_BYTES = 64 * 1024
MAX_GLOBS = 200
#: How the score is measured. Under a gate the workflow set, an untrusted file cannot
#: change these (a lax rubric or a cheaper bench would loosen that gate by another road).
MEASURE = (
    "rubric_path", "judges", "provider", "region", "project_id", "model", "max_cost_usd",
    "judge_timeout",
)


@dataclass(frozen=True)
class FileSettings:
    """Validated settings of one file, as AuditConfig field names -> values."""

    source: str  # the file as shown to users (repo-relative for the tree's own file)
    values: dict[str, Any] = field(default_factory=dict)
    trusted: bool = False  # chosen by the operator (--config), not by the tree's author
    base: Path | None = None  # folder its relative paths start from (None: the tree root)


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


#: file key -> (AuditConfig field, validator). Paths are checked against the tree later.
KEYS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "rubric": ("rubric_path", _text),
    "pdf": ("pdf", _text),
    "fail-below": ("fail_below", _number(0, 5)),
    "gate": ("gate", _gate),
    # Only a tightening: a flag or input that set it wins, and it can only be set true.
    "fail-on-uncovered": ("fail_on_uncovered", _switch),
    "judges": ("judges", _choice(*JUDGE_KINDS)),
    "model": ("model", _text),
    "provider": ("provider", _choice(*PROVIDERS)),
    "region": ("region", _text),
    "project-id": ("project_id", _text),
    "max-cost-usd": ("max_cost_usd", _number(0.01, 10_000)),
    "max-concurrency": ("max_concurrency", _number(*CONCURRENCY_RANGE, integer=True)),
    # A real opinion takes minutes: a tree must not starve its judges into fallbacks.
    "judge-timeout": ("judge_timeout", _number(60, 3600)),
    "ignore": ("ignore", _globs),
}


def parse(text: str, source: str) -> dict[str, Any]:
    """Validate a file's text; ConfigError names the file, the key and the problem."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or "cannot be parsed"
        raise ConfigError(f"{source}: {where}not valid YAML: {problem}") from exc
    except RecursionError as exc:  # a few KiB of brackets nest past Python's stack
        raise ConfigError(f"{source}: not valid YAML: nested too deeply") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: must be a mapping of settings, got {type(data).__name__}")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise ConfigError(f"{source}: {key}: unknown key (known keys: {known})")
        name, check = KEYS[key]
        try:
            values[name] = check(value)
        except ValueError as exc:
            raise ConfigError(f"{source}: {key}: {exc}") from None
    return values


def _read(path: Path, source: str) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ConfigError(f"{source}: larger than {MAX_BYTES // 1024} KiB; refused")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{source}: not UTF-8 text") from exc
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read: {exc.strerror or exc}") from exc


def load_operator_file(path: Path) -> FileSettings:
    """A ``--config FILE`` chosen by whoever runs the audit (trusted; paths from its folder)."""
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    values = parse(_read(path, str(path)), str(path))
    return FileSettings(str(path), values, trusted=True, base=path.resolve().parent)


def load_tree_file(root: Path) -> FileSettings | None:
    """The audited tree's own ``.github/courtroom.yml`` (untrusted), or None when absent."""
    path = inside_tree(root, TREE_FILE)
    if path is None:
        raise ConfigError(f"{TREE_FILE}: is or lies behind a symlink; refused")
    if not path.exists():
        return None
    if not path.is_file():
        raise ConfigError(f"{TREE_FILE}: is not a file")
    return FileSettings(TREE_FILE, parse(_read(path, TREE_FILE), TREE_FILE))
