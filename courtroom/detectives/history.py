"""The git history detective: commits, authors, timing, progression vs bulk upload.

Commit messages are hostile input: they are kept as clipped, single-line data and never
interpreted beyond keyword matching.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from courtroom.detectives.base import Case, detective
from courtroom.detectives.common import REPO, make, one_line
from courtroom.detectives.workspace import run_git
from courtroom.models import Evidence

NAME = "history"
TAGS = (REPO, "git", "history")
MAX_COMMITS = 2000
#: A history whose whole span fits in this many minutes looks like one upload.
BULK_MINUTES = 15

STAGES: dict[str, re.Pattern[str]] = {
    "setup": re.compile(r"init|setup|set up|scaffold|skeleton|bootstrap|pyproject|"
                        r"requirements|depend|readme|config|environment|\benv\b|project", re.I),
    "tools": re.compile(r"tool|detective|clone|\bgit\b|pdf|\bast\b|tree-sitter|parse|sandbox|"
                        r"repo_?investigat|doc_?analy|forensic", re.I),
    "graph": re.compile(r"graph|\bedges?\b|orchestrat|judge|chief|justice|fan[- ]?(in|out)|"
                        r"parallel|synthes|langgraph|workflow", re.I),
}


@dataclass(frozen=True)
class CommitInfo:
    """One commit as data."""

    sha: str
    author: str
    when: datetime
    parents: int
    subject: str


def read_log(ws_root: Path, limit: int = MAX_COMMITS) -> list[CommitInfo] | None:
    """Commits oldest first, or None when the tree is not a git repository."""
    raw = run_git(ws_root, "log", f"--max-count={limit}", "--no-color", "--date-order",
                  "--format=%H%x1f%an%x1f%aI%x1f%P%x1f%s%x1e", "HEAD")
    if raw is None:
        return None
    commits: list[CommitInfo] = []
    for record in raw.split("\x1e"):
        fields = record.strip("\n").split("\x1f")
        if len(fields) != 5:
            continue
        sha, author, date, parents, subject = fields
        try:
            when = datetime.fromisoformat(date)
        except ValueError:
            continue
        commits.append(CommitInfo(sha, one_line(author, 60), when, len(parents.split()),
                                  one_line(subject, 160)))
    commits.reverse()
    return commits


def progression(commits: list[CommitInfo]) -> tuple[bool, dict[str, int]]:
    """First commit index of each stage, and whether setup <= tools <= graph in time."""
    first: dict[str, int] = {}
    for i, c in enumerate(commits):
        for stage, rx in STAGES.items():
            if stage not in first and rx.search(c.subject):
                first[stage] = i
    ordered = all(s in first for s in STAGES) and \
        first["setup"] <= first["tools"] <= first["graph"] and len(commits) >= 3
    return ordered, first


def _count(commits: list[CommitInfo]) -> str:
    """The commit count, saying so when the log was cut at MAX_COMMITS."""
    if len(commits) >= MAX_COMMITS:
        return f"at least {len(commits)} commits (history cut)"
    return f"{len(commits)} commits"


@detective(NAME)
def history(case: Case) -> list[Evidence]:
    """Facts about the commit history: size, authors, timing and its story."""
    ws = case.workspace
    # Only the target's own repository: never a parent folder's history.
    commits = read_log(ws.root) if (ws.root / ".git").exists() else None
    if commits is None or not commits:
        return [make(NAME, "Git commit history", False, ".",
                     "The target is not a git repository or has no commits (git log failed).",
                     0.95, (*TAGS, "missing"))]
    head = commits[-1].sha
    authors = sorted({c.author for c in commits})
    span_min = (commits[-1].when - commits[0].when).total_seconds() / 60
    listing = "\n".join(f"{c.sha[:10]} {c.when.isoformat()} {c.author}: {c.subject}"
                        for c in commits[-40:])
    out = [make(NAME, "Git commit history", True, head,
                f"{_count(commits)} by {len(authors)} author(s) over "
                f"{span_min / 60:.1f} hours (first {commits[0].when.isoformat()}, last "
                f"{commits[-1].when.isoformat()}).", 0.98, TAGS, content=listing)]
    merges = sum(1 for c in commits if c.parents > 1)
    if len(commits) == 1:
        out.append(make(NAME, "Single-commit history", True, head,
                        "The whole repository arrived in one commit; no development story.",
                        0.97, TAGS, content=commits[0].subject))
    elif merges and merges >= len(commits) - 1:
        out.append(make(NAME, "Merge-only history", True, head,
                        f"{merges} of {len(commits)} commits are merges; the work itself is "
                        "not visible in this history.", 0.9, TAGS))
    bulk = len(commits) <= 2 or span_min <= BULK_MINUTES
    out.append(make(NAME, "Bulk upload (commits clustered within minutes)", bulk, head,
                    f"{len(commits)} commits spanning {span_min:.0f} minutes; "
                    f"threshold: 2 commits or {BULK_MINUTES} minutes.", 0.85, TAGS))
    ordered, first = progression(commits)
    stages = ", ".join(f"{s} first at commit #{i + 1} ({commits[i].sha[:10]})"
                       for s, i in sorted(first.items(), key=lambda kv: kv[1]))
    where = commits[first["graph"]].sha if "graph" in first else head
    out.append(make(NAME, "Development progression setup -> tools -> graph", ordered, where,
                    f"Stages found by commit-message keywords: {stages or 'none'}.", 0.75, TAGS,
                    content=stages or None))
    return out
