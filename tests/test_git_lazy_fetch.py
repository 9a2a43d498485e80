"""Reading the audited repository never leaves it, nor lets it swap what is read: a partial
clone must not fetch missing objects (the network, or a repository outside the tree), and
replacement refs must not substitute commits or blobs."""

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


def test_replacement_refs_do_not_swap_what_is_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"a.txt": "real\n"})
    real = _git("rev-parse", "HEAD:a.txt", cwd=repo)
    fake_file = tmp_path / "fake.txt"
    fake_file.write_text("forged\n")
    fake = _git("hash-object", "-w", str(fake_file), cwd=repo)
    _git("replace", real, fake, cwd=repo)
    assert _git("cat-file", "-p", real, cwd=repo) == "forged"  # plain git is fooled
    assert git_bytes(repo, "cat-file", "-p", real) == b"real\n"
