"""A history longer than the detective reads is reported as cut, not as its true size."""

from __future__ import annotations

import subprocess
from pathlib import Path

from courtroom.detectives import Case, open_workspace, run_detectives
from courtroom.detectives.repo.history import MAX_COMMITS


def _long_history(root: Path, count: int) -> Path:
    """A repository of ``count`` commits, written in one go with git fast-import."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    stream = []
    for i in range(count):
        stream.append(f"commit refs/heads/main\nmark :{i + 1}\n"
                      f"committer Ada <ada@example.com> {1770000000 + 60 * i} +0000\n"
                      f"data <<END\nStep {i}\nEND\n")
        if i:
            stream.append(f"from :{i}\n")
        stream.append(f"M 644 inline NOTES.md\ndata <<END\n{i}\nEND\n\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"],
                   input="".join(stream).encode(), check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True)
    return root


def test_a_cut_history_says_at_least(tmp_path: Path) -> None:
    repo = _long_history(tmp_path / "r", MAX_COMMITS + 1)
    with open_workspace(str(repo), timeout=30) as ws:
        evidence = run_detectives(Case(workspace=ws), only=["history"]).evidence
    summary = next(e for e in evidence if e.goal == "Git commit history")
    assert summary.rationale.startswith(f"at least {MAX_COMMITS} commits (history cut) by 1")


def test_a_whole_history_gives_its_exact_size(tmp_path: Path) -> None:
    repo = _long_history(tmp_path / "r", 3)
    with open_workspace(str(repo), timeout=30) as ws:
        evidence = run_detectives(Case(workspace=ws), only=["history"]).evidence
    summary = next(e for e in evidence if e.goal == "Git commit history")
    assert summary.rationale.startswith("3 commits by 1 author(s)")
