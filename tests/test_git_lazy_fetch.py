"""A partial clone must not fetch missing objects while it is read: that would reach the
network, or a repository outside the audited tree, on the audited repository's say-so."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from builders import make_repo

from courtroom.git import git_bytes, run_git


def _git(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    full = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd), **(env or {})}
    out = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                         env=full)
    return out.stdout.strip()


def test_a_missing_object_of_a_partial_clone_is_not_fetched(tmp_path: Path) -> None:
    origin = make_repo(tmp_path / "origin", files={"secret.txt": "kept elsewhere\n"})
    _git("config", "uploadpack.allowFilter", "true", cwd=origin)
    _git("clone", "-q", "--filter=blob:none", "--no-checkout", origin.as_uri(), "tree",
         cwd=tmp_path)
    tree = tmp_path / "tree"
    blob = _git("rev-parse", "HEAD:secret.txt", cwd=tree)

    assert git_bytes(tree, "cat-file", "-p", blob) is None
    assert run_git(tree, "log", "--numstat", "--format=%H", "HEAD") is None
    # Still missing: nothing was fetched from the promisor remote.
    missing = subprocess.run(["git", "cat-file", "-e", blob], cwd=tree, capture_output=True,
                             env={**os.environ, "GIT_ALLOW_PROTOCOL": "none",
                                  "GIT_NO_LAZY_FETCH": "1"})
    assert missing.returncode != 0
