"""Builders for settings tests: a tree with (or without) its own config file, a pull
request's repository (a base commit and a head commit), and the effective settings of an
audit of it, with the user's cache folder kept under tmp."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builders import Commit, head_sha, make_repo

from courtroom.settings.base_commit import PullBase
from courtroom.settings.config import AuditConfig
from courtroom.settings.config_file import TREE_FILE
from courtroom.settings.effective import effective_config


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


def pull_repo(
    root: Path, base: dict[str, str | bytes | None], head: dict[str, str | bytes | None]
) -> tuple[str, str]:
    """A repository checked out at a pull request's head: (base sha, head sha).

    ``base`` is the base branch's commit; ``head`` is what the pull request changes on it.
    """
    make_repo(root, [Commit("Base branch", base), Commit("Pull request", head)])
    return head_sha(root, "HEAD~1"), head_sha(root)


def lenient_rubric(name: str) -> bytes:
    """The bundled rubric renamed, so a test can tell which rubric file measured an audit."""
    data = json.loads((Path(__file__).parents[1] / "rubric.json").read_text(encoding="utf-8"))
    data["rubric_metadata"]["rubric_name"] = name
    return json.dumps(data).encode("utf-8")


def settle(
    root: Path,
    tmp: Path,
    lines: list[str] | None = None,
    pull: PullBase | None = None,
    **given: Any,
) -> AuditConfig:
    """The effective settings of auditing ``root`` with flags ``given``; notes go to ``lines``.

    ``pull`` makes it an audit of a pull request (config and rubric from the base commit,
    the rubric copied under ``tmp/base-files``).
    """
    fields = {"target": str(root), "out_dir": tmp / "out", **given}
    said = lines if lines is not None else []
    env = {"XDG_CACHE_HOME": str(tmp / "xdg")}
    return effective_config(fields, root, env=env, say=said.append, pull=pull,
                            scratch=tmp / "base-files")
