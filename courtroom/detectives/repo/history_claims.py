"""What a history's dates can and cannot prove, and the files that contradict them.

A clone proves the commits, their order and what each changed; never when the work was
done. Dates are whatever the committer's clock or environment said, and pushes leave no
trace in a clone. The files weigh more: real building revisits its files (wiring,
fixes), while a finished tree split into commits only ever adds new, whole files. When
that shows, the facts read from dates alone (tagged DATED_TAG where they are made) are
kept as weak claims, and the pattern itself is a charge.
"""

from __future__ import annotations

from courtroom.detectives.common import make
from courtroom.detectives.repo.history_log import CommitInfo
from courtroom.models import Evidence

#: Marks a fact resting on commit dates (timing, sessions, steps apart).
DATED_TAG = "dated"
#: Commits changing source needed before "no commit revises an earlier file" means much.
FINISHED_COMMITS = 8
#: Share of those commits (the first excepted) revising an earlier source file, under
#: which the history reads as finished files added one by one.
REVISION_SHARE = 0.2
#: Confidence of a fact read from commit dates alone once the files contradict the story:
#: under ``judges.facts.WEAK``, so no lens takes it as proven.
CLAIM_CONFIDENCE = 0.5


def revisions(commits: list[CommitInfo]) -> tuple[int, int]:
    """(work commits changing source, how many of them change a file an earlier one wrote)."""
    seen: set[str] = set()
    building = revising = 0
    for c in commits:
        touched = set(c.added)  # numstat lists every changed file, deletions included
        if c.parents > 1 or not touched:
            continue
        building += 1
        revising += bool(touched & seen)
        seen |= touched
    return building, revising


def finished_fact(commits: list[CommitInfo], head: str, name: str, tags: tuple[str, ...],
                  min_lines: int) -> Evidence | None:
    """A charge when every commit adds whole new files and almost none revises one."""
    building, revising = revisions(commits)
    total = sum(c.lines for c in commits if c.parents <= 1)
    if building < FINISHED_COMMITS or total < min_lines:
        return None
    if revising >= REVISION_SHARE * (building - 1):
        return None
    return make(name, "Commits only add finished files (earlier files never revised)", True,
                head, f"{building} commits change source and {revising} of them revise a file "
                "an earlier commit wrote: each adds new files, whole and consistent with the "
                "rest. Building a system revisits its files (wiring, fixes), so this reads as "
                "a finished tree split into commits; its dates are the author's to set.", 0.7,
                tags, direction="adverse",
                fix="commit the work as it is done, including the edits to earlier parts.")


def as_claims(items: list[Evidence]) -> list[Evidence]:
    """The facts read from dates alone, once the files contradict them: kept, as weak
    claims; every other fact as it is."""
    return [make(e.detective, e.goal, e.found, e.location, f"{e.rationale} (Read from "
                 "commit dates alone, which the files do not bear out: a claim.)",
                 min(e.confidence, CLAIM_CONFIDENCE), e.tags, e.content, e.direction)
            if DATED_TAG in e.tags and e.direction == "supports" else e for e in items]


def dates_are_claims(head: str, name: str, tags: tuple[str, ...]) -> Evidence:
    """Said of every history: what its dates are."""
    return make(name, "Commit dates are the author's claims", True, head,
                "Every date above is what the committer's clock or environment said: a clone "
                "shows no push times, so the dates show an order the author chose, not when "
                "the work was done. What each commit changed weighs more than when.", 0.95,
                tags)
