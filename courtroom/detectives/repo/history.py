"""The git history detective: commits, authors, timing, progression vs bulk upload.

Progression and bulk uploads are read from what each commit did (its size and the files
it touched), not from what its message says: messages are hostile input, kept as clipped,
single-line data for the listing only.

What a clone can prove: the commits, their order and what each changed. What it cannot:
when the work was done. Dates are whatever the committer's clock or environment said, and
pushes leave no trace in a clone, so a history of forged dates reads as sessions and steps.
The files weigh more: real building revisits its files (wiring, fixes), while a finished
tree split into commits only ever adds new, whole files. When that shows, the facts read
from dates alone are kept as weak claims, and the pattern itself is a charge.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from courtroom.detectives.base import Case, declares, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.repo.history_claims import (
    DATED_TAG,
    as_claims,
    dates_are_claims,
    finished_fact,
)
from courtroom.detectives.repo.history_log import MAX_COMMITS, CommitInfo, read_log
from courtroom.git import git_dir
from courtroom.models import Evidence

NAME = "history"
TAGS = (REPO, "git", "history")
#: A history whose whole span fits in this many minutes looks like one upload.
BULK_MINUTES = 15
#: A commit this soon after the previous one was not written in between.
RAPID_SECONDS = 120
#: A run of this many commits, each that soon after the last, is a burst (splitting one
#: piece of work into two or three commits at once is not).
BURST_COMMITS = 4
#: Share of all added source lines that, arriving in rapid-fire commits, makes a bulk upload.
RAPID_SHARE = 0.25
#: Share of all added source lines that, arriving in one commit, makes a bulk upload.
ONE_COMMIT_SHARE = 0.5
#: Below this many added source lines a history is too small to call either way.
MIN_LINES = 200
#: A layer starts with the first commit adding this many source lines to its files.
LAYER_LINES = 20
#: A window this long that holds half the lines of the agent's layers is a bulk upload.
CORE_MINUTES = 60
#: The tools layer must precede the orchestration layer by at least this long.
STEP_MINUTES = 30
#: The closing part of a history's span, as a share of it, where a late arrival lands.
LATE_SPAN = 0.1
#: Share of all added source lines that, arriving in the closing LATE_SPAN of the history,
#: makes a late bulk arrival: the code came at the end, after a history that held little.
LATE_SHARE = 0.4

#: Layers of an agent system, named by the files a commit touched (path words).
LAYERS: dict[str, re.Pattern[str]] = {
    "setup": re.compile(r"(^|/)(state|models?|schemas?|config|settings|types)\.py$", re.I),
    "tools": re.compile(r"tool|detective|investigat|clone|git|pdf|ast|pars|repo|doc|vision"
                        r"|sandbox|forensic", re.I),
    "graph": re.compile(r"graph|workflow|orchestrat|judge|justice|chief|synthes|court", re.I),
}


_CORE = re.compile("|".join(f"(?:{rx.pattern})" for rx in LAYERS.values()), re.I)


@dataclass(frozen=True)
class Bulk:
    """How much of the code arrived at once."""

    total: int  # source lines added over the whole history
    rapid: int  # of which in bursts: BURST_COMMITS+ commits each within RAPID_SECONDS
    largest: CommitInfo | None  # the commit adding the most source lines
    core: int = 0  # source lines added to the layers' files (setup, tools, graph)
    core_hour: int = 0  # the most of those added within one CORE_MINUTES window
    late: int = 0  # source lines added in the closing LATE_SPAN of the history's span
    late_top: CommitInfo | None = None  # the commit adding the most of those

    @property
    def found(self) -> bool:
        if self.total < MIN_LINES:
            return False
        top = self.largest.lines if self.largest else 0
        return self.rapid >= RAPID_SHARE * self.total or top >= ONE_COMMIT_SHARE * self.total \
            or self.core_found or self.late_found

    @property
    def late_found(self) -> bool:
        """Much of the code arrived at the very end: the history before it was thin, or was
        rewritten so that the code lands last (a post-deadline drop)."""
        return self.total >= MIN_LINES and self.late >= LATE_SHARE * self.total

    @property
    def core_found(self) -> bool:
        """Half the agent's layers written within one window: a tree built elsewhere, however
        much the rest of the repository (an API, a front end) grew afterwards."""
        return self.core >= MIN_LINES and self.core_hour >= ONE_COMMIT_SHARE * self.core


def bulk(commits: list[CommitInfo]) -> Bulk:
    """Measure bulk arrival over the work commits (merges add nothing of their own)."""
    work = [c for c in commits if c.parents <= 1]
    runs: list[list[CommitInfo]] = [[c] for c in work[:1]]
    for a, b in itertools.pairwise(work):
        if (b.when - a.when).total_seconds() < RAPID_SECONDS:
            runs[-1].append(b)
        else:
            runs.append([b])
    rapid = sum(c.lines for run in runs if len(run) >= BURST_COMMITS for c in run)
    largest = max(work, key=lambda c: c.lines, default=None)
    core = [(c.when, sum(n for path, n in c.added.items() if _CORE.search(path))) for c in work]
    core.sort(key=lambda item: item[0])  # author dates are the author's, in any order
    window, in_window, hour = 0, 0, 0
    for when, lines in core:
        in_window += lines
        while (when - core[window][0]).total_seconds() > CORE_MINUTES * 60:
            in_window -= core[window][1]
            window += 1
        hour = max(hour, in_window)
    late = late_commits(work)
    return Bulk(sum(c.lines for c in work), rapid, largest, sum(n for _w, n in core), hour,
                sum(c.lines for c in late), max(late, key=lambda c: c.lines, default=None))


def late_commits(work: list[CommitInfo]) -> list[CommitInfo]:
    """The commits dated in the closing LATE_SPAN of the history's span (first to last)."""
    if len(work) < 2:
        return []
    first, last = min(c.when for c in work), max(c.when for c in work)
    cut = last - (last - first) * LATE_SPAN
    return [c for c in work if c.when > cut]


def layers(commits: list[CommitInfo]) -> dict[str, int]:
    """Index of the first commit that adds LAYER_LINES+ source lines to each layer's files."""
    first: dict[str, int] = {}
    for i, c in enumerate(commits):
        for layer, rx in LAYERS.items():
            if layer in first:
                continue
            if sum(n for path, n in c.added.items() if rx.search(path)) >= LAYER_LINES:
                first[layer] = i
    return first


def progression(commits: list[CommitInfo]) -> tuple[bool | None, dict[str, int]]:
    """Whether tools were built before the graph, in separate steps (None: cannot tell)."""
    first = layers(commits)
    if "tools" not in first or "graph" not in first:
        return None, first
    tools, graph = commits[first["tools"]], commits[first["graph"]]
    apart = (graph.when - tools.when).total_seconds() / 60 >= STEP_MINUTES
    setup_first = first.get("setup", first["tools"]) <= first["tools"]
    return setup_first and first["tools"] < first["graph"] and apart, first


def _bulk_fact(commits: list[CommitInfo], head: str) -> Evidence:
    """Whether the code arrived in steps or in one go (rapid-fire commits, one huge commit)."""
    b = bulk(commits)
    span = (commits[-1].when - commits[0].when).total_seconds() / 60
    top = b.largest.lines if b.largest else 0
    measure = (f"{b.rapid} of {b.total} source lines came in bursts of {BURST_COMMITS}+ "
               f"commits made under {RAPID_SECONDS} s apart and {top} in the largest single "
               f"commit, over {len(commits)} commits")
    if len(commits) <= 2 or span <= BULK_MINUTES or b.found:
        where = b.largest.sha if b.largest and top >= ONE_COMMIT_SHARE * b.total else \
            b.late_top.sha if b.late_found and b.late_top else head
        late = (f"{b.late} of {b.total} source lines arrived in the last "
                f"{LATE_SPAN:.0%} of the history's span (most in "
                f"{b.late_top.sha[:7]}, +{b.late_top.lines}); " if b.late_found and b.late_top
                else "")
        why = (f"{b.core_hour} of the {b.core} source lines of the agent's layers (state, "
               f"tools, graph, judges) were added within {CORE_MINUTES} minutes; " if
               b.core_found else "") + late + measure if b.found else (
            f"the whole history is {len(commits)} commit(s) over {span:.0f} minutes, too few "
            "to show the code being built")
        return make(NAME, "Bulk upload: most of the code arrived at once", True, where,
                    f"Code arrived in bulk: {why}; the whole history spans {span:.0f} "
                    "minutes. Code that lands seconds apart or in one commit was written "
                    "elsewhere and pasted in.", 0.85, TAGS, direction="adverse",
                    fix="commit each layer as it is built, with a message saying what changed.")
    return make(NAME, "Code arrived in steps (no bulk upload)", True, head,
                f"{measure}: under {RAPID_SHARE:.0%} rapid-fire and under "
                f"{ONE_COMMIT_SHARE:.0%} in one commit.", 0.85, (*TAGS, DATED_TAG),
                direction="supports")


def _progression_fact(commits: list[CommitInfo], head: str) -> Evidence:
    """Progression read from which files each commit touched."""
    ordered, first = progression(commits)
    stages = ", ".join(f"{s} from commit #{i + 1} ({commits[i].sha[:10]}, "
                       f"{commits[i].when.isoformat()})"
                       for s, i in sorted(first.items(), key=lambda kv: kv[1]))
    goal = "Progression setup -> tools -> graph (files each commit touched)"
    where = commits[first["graph"]].sha if "graph" in first else head
    if ordered is None:
        return make(NAME, goal, False, where, "The commits' files do not show both a tools "
                    f"layer and an orchestration layer ({stages or 'no layer found'}).", 0.5,
                    TAGS, content=stages or None)
    if ordered:
        return make(NAME, goal, True, where, f"Tools were built before the graph, at least "
                    f"{STEP_MINUTES} minutes apart: {stages}.", 0.75, (*TAGS, DATED_TAG),
                    content=stages, direction="supports")
    tools, graph = (commits[first[k]] for k in ("tools", "graph"))
    return make(NAME, goal, False, where, f"The graph's files were written before, or within "
                f"{STEP_MINUTES} minutes of, the tools' files (tools from {tools.sha[:7]} at "
                f"{tools.when:%Y-%m-%d %H:%M}, graph from {graph.sha[:7]} at "
                f"{graph.when:%Y-%m-%d %H:%M}).", 0.7, TAGS, content=stages, direction="adverse",
                fix="build and commit the tools before wiring the graph that uses them.")


def _count(commits: list[CommitInfo]) -> str:
    """The commit count, saying so when the log was cut at MAX_COMMITS."""
    if len(commits) >= MAX_COMMITS:
        return f"at least {len(commits)} commits (history cut)"
    return f"{len(commits)} commits"


def _why_no_history(root: Path) -> tuple[str, str]:
    """Why no commit could be read and its fix, told apart so the fix is the right one."""
    if not os.path.lexists(root / ".git"):
        return ("The target is not a git repository (no .git in it).",
                "audit a git checkout with its history.")
    if git_dir(root) is None:
        return ("The tree's .git (a gitdir file, commondir or alternates) leads outside the "
                "audited tree, so its history was not read.",
                "audit a full clone, not a worktree or a clone that borrows objects from "
                "elsewhere.")
    return ("The repository has no commits, or git log could not read them.",
            "audit a git checkout with its history.")


@detective(NAME, produces=declares(REPO, {
    "git": "the commit log: how many commits, their messages and spread",
    "history": "how the work progressed over the commits",
    "dated": "what the commit dates can and cannot prove",
}))
def history(case: Case) -> list[Evidence]:
    """Facts about the commit history: size, authors, timing and its story."""
    ws = case.workspace
    # Only the target's own repository: never a parent folder's history.
    commits = read_log(ws.root) if (ws.root / ".git").exists() else None
    if commits is None or not commits:
        why, fix = _why_no_history(ws.root)
        return [make(NAME, "Git commit history", False, ".", why, 0.95,
                     (*TAGS, "missing"), direction="adverse", fix=fix)]
    head = commits[-1].sha
    authors = sorted({c.author for c in commits})
    span_min = (commits[-1].when - commits[0].when).total_seconds() / 60
    days = len({c.when.date() for c in commits})
    listing = "\n".join(f"{c.sha[:10]} {c.when.isoformat()} {c.author} +{c.lines}: {c.subject}"
                        for c in commits[-40:])
    work = [c for c in commits if c.parents <= 1]
    out = [make(NAME, "Git commit history", True, head,
                f"{_count(commits)} by {len(authors)} author(s) ({len(work)} with work, "
                f"{len(commits) - len(work)} merges) over {span_min / 60:.1f} hours on "
                f"{days} day(s) (first {commits[0].when.isoformat()}, last "
                f"{commits[-1].when.isoformat()}).", 0.98, TAGS, content=listing)]
    if len(work) > 3:
        out.append(make(NAME, "More than three commits with work", True, head,
                        f"{len(work)} commits that change files.", 0.9, TAGS,
                        direction="supports"))
    else:
        goal = "Single-commit history" if len(commits) == 1 else "Three or fewer commits"
        out.append(make(NAME, goal, True, head, f"Only {len(work)} commit(s) with work: no "
                        "development story.", 0.95, TAGS, content=commits[0].subject,
                        direction="adverse", fix="commit in small steps as the system grows."))
    if days >= 2 or span_min >= 180:
        out.append(make(NAME, "Work spread over several sessions", True, head,
                        f"Commits on {days} day(s) over {span_min / 60:.1f} hours.", 0.8,
                        (*TAGS, DATED_TAG), direction="supports"))
    out += [_bulk_fact(commits, head), _progression_fact(commits, head),
            dates_are_claims(head, NAME, TAGS)]
    finished = finished_fact(commits, head, NAME, TAGS, MIN_LINES)
    return out if finished is None else [*as_claims(out), finished]
