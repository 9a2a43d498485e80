"""Which evidence each criterion is judged on (context minimisation for the judges).

A criterion sees the facts carrying one of its ``evidence_tags``, and the facts its own
declarative checks produced (tagged ``criterion:<id>``). A criterion with neither is not
covered: nothing the audit measures is about it, so it is shown only the general facts
of its artifact, as context, and its score is a placeholder (DESIGN §4). Words in a
criterion's id or name never choose its evidence: "Error handling" is not the graph.
"""

from __future__ import annotations

from collections.abc import Iterable

from courtroom.detectives.contract import is_general
from courtroom.models import SECURITY_TAG, Evidence
from courtroom.rubric import Dimension

#: Most items a judge is shown for one criterion; the rest stay in the pool and report.
MAX_ITEMS = 40


#: The tag prefix of facts a criterion's own checks produced: another criterion's are not
#: general context.
_CRITERION = "criterion:"


def criterion_tag(criterion_id: str) -> str:
    """The tag a criterion's own declarative checks put on their facts."""
    return f"{_CRITERION}{criterion_id}"


def _priority(evidence: Evidence) -> tuple[int, float, str, str]:
    # Security findings and missing facts first: they change scores the most.
    security = 0 if SECURITY_TAG in evidence.tags else 1
    return (security, -evidence.confidence, evidence.location, evidence.goal)


def is_covered(dimension: Dimension, pool: Iterable[Evidence]) -> bool:
    """Whether something the audit measures is about the criterion: its ``evidence_tags``
    (held to the contract at load) or a fact of its own checks."""
    own = criterion_tag(dimension.id)
    return bool(dimension.evidence_tags) or any(own in e.tags for e in pool)


def relevant(dimension: Dimension, pool: Iterable[Evidence], *, covered: bool) -> list[Evidence]:
    """Every fact the criterion may be shown, most decisive first.

    Uncovered, it is the general detectives' facts of its artifact (no other criterion's
    check facts) with their direction set to context: a fact points for or against the
    criterion that asked for it, not for one it happens to share an artifact with.
    """
    if covered:
        wanted = {*(dimension.evidence_tags or ()), criterion_tag(dimension.id)}
        chosen = [e for e in pool if wanted.intersection(e.tags)]
    else:
        chosen = [e.model_copy(update={"direction": "context"}) for e in pool
                  if dimension.target_artifact in e.tags and is_general(e.detective)
                  and not any(t.startswith(_CRITERION) for t in e.tags)]
    return sorted(chosen, key=_priority)


def evidence_for(dimension: Dimension, pool: Iterable[Evidence]) -> list[Evidence]:
    """The evidence a criterion is judged on, most decisive first, at most MAX_ITEMS."""
    items = list(pool)
    return relevant(dimension, items, covered=is_covered(dimension, items))[:MAX_ITEMS]
