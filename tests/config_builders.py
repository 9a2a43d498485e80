"""Builders for settings tests: a tree with (or without) its own config file, and the
effective settings of an audit of it, with the user's cache folder kept under tmp."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from courtroom.config import AuditConfig
from courtroom.repo_config import TREE_FILE
from courtroom.settings import effective_config


def tree(root: Path, config: str | None = None, files: dict[str, bytes] | None = None) -> Path:
    """A folder holding ``files`` and, when given, ``.github/courtroom.yml`` = ``config``."""
    root.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (root / ".github").mkdir(exist_ok=True)
        (root / TREE_FILE).write_text(config, encoding="utf-8")
    for rel, data in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def settle(root: Path, tmp: Path, lines: list[str] | None = None, **given: Any) -> AuditConfig:
    """The effective settings of auditing ``root`` with flags ``given``; notes go to ``lines``."""
    fields = {"target": str(root), "out_dir": tmp / "out", **given}
    said = lines if lines is not None else []
    return effective_config(fields, root, env={"XDG_CACHE_HOME": str(tmp / "xdg")}, say=said.append)
