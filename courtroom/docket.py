"""Which evidence each criterion is judged on (context minimisation for the judges)."""

from __future__ import annotations

from collections.abc import Iterable

from courtroom.models import Evidence
from courtroom.rubric import Dimension

#: Most items a judge is shown for one criterion; the rest stay in the pool and report.
MAX_ITEMS = 40


def _priority(evidence: Evidence) -> tuple[int, float, str, str]:
    # Security findings and missing facts first: they change scores the most.
    security = 0 if "security" in evidence.tags else 1
    return (security, -evidence.confidence, evidence.location, evidence.goal)


def evidence_for(dimension: Dimension, pool: Iterable[Evidence]) -> list[Evidence]:
    """The evidence a criterion is judged on, most decisive first, at most MAX_ITEMS.

    A dimension that lists ``evidence_tags`` gets the items sharing any of them; one that
    does not gets every item from its target artifact.
    """
    wanted = set(dimension.evidence_tags or [dimension.target_artifact])
    chosen = [e for e in pool if wanted.intersection(e.tags)]
    chosen.sort(key=_priority)
    return chosen[:MAX_ITEMS]
