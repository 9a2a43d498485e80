"""The commit log as data: each commit's author, date, parents, subject and added lines.

Read once by the history detective (``history``); messages and author names are hostile
input, kept clipped and on one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from courtroom.detectives.repo.workspace import run_git
from courtroom.untrusted import one_line

MAX_COMMITS = 2000
SOURCE = (".py",)


@dataclass
class CommitInfo:
    """One commit as data: who, when, what it says, and what it added where."""

    sha: str
    author: str
    when: datetime
    parents: int
    subject: str
    added: dict[str, int] = field(default_factory=dict)  # source path -> lines added

    @property
    def lines(self) -> int:
        return sum(self.added.values())


def read_log(ws_root: Path, limit: int = MAX_COMMITS) -> list[CommitInfo] | None:
    """Commits oldest first with their added source lines, or None when not a repository."""
    raw = run_git(ws_root, "log", f"--max-count={limit}", "--no-color", "--date-order",
                  "--numstat", "--no-renames", "--format=%x1e%H%x1f%an%x1f%aI%x1f%P%x1f%s",
                  "HEAD", timeout=60)
    if raw is None:
        return None
    commits: list[CommitInfo] = []
    for record in raw.split("\x1e"):
        head, _, stats = record.partition("\n")
        fields = head.split("\x1f")
        if len(fields) != 5:
            continue
        sha, author, date, parents, subject = fields
        try:
            when = datetime.fromisoformat(date)
        except ValueError:
            continue
        commit = CommitInfo(sha, one_line(author, 60), when, len(parents.split()),
                            one_line(subject, 160))
        for line in stats.splitlines():
            parts = line.split("\t")
            if len(parts) == 3 and parts[0].isdigit() and parts[2].endswith(SOURCE):
                commit.added[parts[2]] = commit.added.get(parts[2], 0) + int(parts[0])
        commits.append(commit)
    commits.reverse()
    return commits
