"""git's output is read under a byte cap (issue 19 §4): a commit subject of many megabytes
(a tiny pack, compressed) costs the audit no more memory than the cap, and the history
that could not be read fails the audit closed with the reason."""

from __future__ import annotations

import subprocess
import tracemalloc
from pathlib import Path

import pytest

from courtroom import git
from courtroom.detectives import Case, open_workspace, run_detectives
from courtroom.errors import WorkspaceError
from courtroom.git import git_bytes, run_git
from courtroom.problems import error_lines

CAP = 1_000_000


def _huge_subject_repo(root: Path, subject_bytes: int) -> Path:
    """A repository whose one commit has a subject line of ``subject_bytes`` bytes."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subject = b"x" * subject_bytes
    stream = (b"commit refs/heads/main\ncommitter Ada <ada@example.com> 1770000000 +0000\n"
              b"data %d\n%s\nM 644 inline app.py\ndata 10\nprint(1)\n\n\n"
              % (len(subject), subject))
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=stream,
                   check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True)
    return root


def test_output_over_the_cap_stops_git_and_says_so_in_bounded_memory(tmp_path: Path) -> None:
    repo = _huge_subject_repo(tmp_path / "r", 16 * CAP)
    tracemalloc.start()
    try:
        with pytest.raises(WorkspaceError, match=r"git log printed more than 1 MB, the cap"):
            git_bytes(repo, "log", "--format=%s", max_bytes=CAP)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The cap and one copy of it, never the 16 MB git printed.
    assert peak < 3 * CAP


def test_output_within_the_cap_is_read_whole(tmp_path: Path) -> None:
    repo = _huge_subject_repo(tmp_path / "r", CAP // 2)
    out = run_git(repo, "log", "--format=%s", max_bytes=CAP)
    assert out == "x" * (CAP // 2) + "\n"


def test_the_cap_defaults_to_the_module_setting(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _huge_subject_repo(tmp_path / "r", 2 * CAP)
    monkeypatch.setattr(git, "MAX_OUTPUT_BYTES", CAP)
    with pytest.raises(WorkspaceError, match="more than 1 MB"):
        run_git(repo, "log", "--format=%s")


def test_a_history_over_the_cap_fails_the_history_detective_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _huge_subject_repo(tmp_path / "r", 2 * CAP)
    monkeypatch.setattr(git, "MAX_OUTPUT_BYTES", CAP)
    with open_workspace(str(repo), timeout=30) as ws:
        found = run_detectives(Case(workspace=ws), only=["history"], retries=0)
        evidence, errors = found.evidence, found.problems
    # Not "no history" (adverse evidence the audit would weigh): an error, which leaves
    # the verdict incomplete and so not passing.
    assert evidence == []
    assert error_lines(errors) == [
        "detective history failed after 1 attempts: WorkspaceError: git log printed more than "
        "1 MB, the cap; it was stopped and nothing it printed was used"]
