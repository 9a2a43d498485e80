"""What the docket's cut left out of a criterion's prompt, counted by kind.

The docket (courtroom.docket) picks at most a fixed number of the most decisive items per
criterion. Whatever rule it uses, the items it would pick next are the ones it left out:
asking it again over what remains, until it picks nothing, finds them all without
restating its rule here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from courtroom.docket import evidence_for
from courtroom.models import Evidence
from courtroom.rubric import Dimension


def kind(item: Evidence) -> str:
    """How a left-out item is counted: which detective found it and which way it points."""
    return f"{item.detective or 'unknown'}, {item.direction}"


def left_out(
    dimension: Dimension, pool: Iterable[Evidence], shown: Sequence[Evidence]
) -> dict[str, int]:
    """Counts by kind of the items relevant to ``dimension`` that ``shown`` does not hold."""
    kept = {e.id for e in shown}
    rest = [e for e in pool if e.id not in kept]
    counts: Counter[str] = Counter()
    while rest:
        more = evidence_for(dimension, rest)
        if not more:
            break
        taken = {e.id for e in more}
        counts.update(kind(e) for e in more)
        rest = [e for e in rest if e.id not in taken]
    return dict(sorted(counts.items()))
