"""The change under review as evidence: each hunk a located fact, shown to judges first.

On a pull request (or ``--base REF``) the lines the change adds or rewrites are what a
reviewer reads first, so every criterion about the repository is shown the hunks before the
rest of its evidence, those in the files its own evidence names ahead of the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from courtroom.detectives.base import Case, declares, detective
from courtroom.detectives.common import REPO, make
from courtroom.diff import Hunk
from courtroom.models import Evidence, location_path

NAME = "diff"
#: The tag of a fact about the change under review.
DIFF_TAG = "diff"
#: Most hunks made facts; a larger change is summed up in one more fact.
MAX_HUNKS = 80
#: Most hunks shown first to one criterion's judges (they count against its item limit).
MAX_FIRST = 10


def _fact(hunk: Hunk) -> Evidence:
    removed = f", {hunk.removed} removed from the base's line {hunk.base_start}" \
        if hunk.removed else ""
    what = f"{hunk.added} line(s) added{removed}" if hunk.added else \
        f"{hunk.removed} line(s) removed from the base's line {hunk.base_start} on"
    return make(NAME, "Lines the change under review adds or removes", True, hunk.location,
                f"git diff-tree of the audited commit over its base: {what}.", 1.0,
                (REPO, DIFF_TAG), content=hunk.text or None).model_copy(
                    update={"in_diff": bool(hunk.added)})


@detective(NAME, produces=declares(REPO, {DIFF_TAG: "a region the change under review "
                                          "touches: path:start-end, lines added and removed"}))
def changes(case: Case) -> list[Evidence]:
    """One fact per hunk of the change over its base (none without a base)."""
    if case.diff is None:
        return []
    # A path the ignore globs hide is read by no detective, its hunks' text included.
    hunks = [h for h in case.diff.hunks if not case.workspace.ignore(h.path)]
    facts = [_fact(h) for h in hunks[:MAX_HUNKS]]
    if len(hunks) > MAX_HUNKS:
        rest = hunks[MAX_HUNKS:]
        files = sorted({h.path for h in rest})
        facts.append(make(NAME, "Lines the change under review adds or removes", True, ".",
                          f"{len(rest)} more hunks in {len(files)} files are not listed one "
                          f"by one: {', '.join(files[:20])}.", 1.0, (REPO, DIFF_TAG)))
    return facts


def changes_first(artifact: str, pool: Sequence[Evidence],
                  chosen: Sequence[Evidence]) -> list[Evidence]:
    """The change's facts a criterion about ``artifact`` is shown before its own evidence:
    hunks in the files its evidence names first, at most MAX_FIRST."""
    if artifact != REPO:
        return []
    files = {location_path(e.location) for e in chosen}
    hunks = [e for e in pool if e.detective == NAME and DIFF_TAG in e.tags]
    hunks.sort(key=lambda e: location_path(e.location) not in files)  # stable: diff order
    return hunks[:MAX_FIRST]
