"""The configuration file: ``.github/courtroom.yml`` in the audited tree, or ``--config FILE``.

A file holds the settings a team would otherwise repeat in every workflow. Each key is
checked at start; a problem is one line naming the file, the key and what is wrong
(exit 2), and unknown keys are errors, so a typo never silently does nothing.

The tree's own file is written by whoever writes the pull request, so it is read as
untrusted (see :mod:`courtroom.settings.effective` for what it may and may not change); the Action
reads a pull request's from its base commit (:mod:`courtroom.settings.base_commit`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from courtroom.errors import ConfigError
from courtroom.settings.schema import SETTINGS
from courtroom.tree_paths import inside_tree

#: Where the audited repository keeps its settings (relative to its root).
TREE_FILE = ".github/courtroom.yml"
#: A settings file is a few lines; anything larger is refused before parsing.
MAX_BYTES = 64 * 1024
#: How the score is measured. Under a gate the workflow set, an untrusted file cannot
#: change these (a lax rubric or a cheaper bench would loosen that gate by another road).
MEASURE = tuple(s.field for s in SETTINGS if s.trust == "measure")


@dataclass(frozen=True)
class FileSettings:
    """Validated settings of one file, as AuditConfig field names -> values."""

    source: str  # the file as shown to users (repo-relative for the tree's own file)
    values: dict[str, Any] = field(default_factory=dict)
    trusted: bool = False  # chosen by the operator (--config), not by the tree's author
    base: Path | None = None  # folder its relative paths start from (None: the tree root)


#: file key -> (AuditConfig field, validator), from the one table of settings.
KEYS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    s.key: (s.field, s.value.check) for s in SETTINGS if s.key is not None
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
