"""Which evidence each criterion is judged on (context minimisation for the judges).

A criterion sees the facts carrying one of its ``evidence_tags``, and the facts its own
declarative checks produced (tagged ``criterion:<id>``). A criterion with neither is not
covered: nothing the audit measures is about it, so it is shown only the general facts
of its artifact, as context, and its score is a placeholder (DESIGN §4). Words in a
criterion's id or name never choose its evidence: "Error handling" is not the graph.
"""

from __future__ import annotations

from collections.abc import Iterable

from courtroom.checks import CHECK_TAG, criterion_tag
from courtroom.detectives.contract import is_general
from courtroom.detectives.repo.changes import DIFF_TAG, changes_first
from courtroom.models import SECURITY_TAG, Evidence
from courtroom.rubric import Criterion

#: Most items a judge is shown for one criterion; the rest stay in the pool and report.
MAX_ITEMS = 40


def _priority(evidence: Evidence) -> tuple[int, float, str, str]:
    # Security findings and missing facts first: they change scores the most.
    security = 0 if SECURITY_TAG in evidence.tags else 1
    return (security, -evidence.confidence, evidence.location, evidence.goal)


def is_covered(criterion: Criterion) -> bool:
    """Whether something the audit measures is about the criterion: its ``evidence_tags``
    (held to the contract at load) or its own declarative checks."""
    return bool(criterion.evidence_tags) or bool(criterion.checks)


def relevant(criterion: Criterion, pool: Iterable[Evidence]) -> list[Evidence]:
    """Every fact the criterion may be shown, most decisive first.

    A criterion's check facts serve it alone, whatever other tags they carry. Uncovered,
    it is the general detectives' facts of its artifact (no criterion's check
    facts: those serve their own criterion alone) with their direction set to context: a
    fact points for or against the criterion that asked for it, not for one it happens to
    share an artifact with.
    """
    own = criterion_tag(criterion.id) if criterion.checks else None
    if is_covered(criterion):
        wanted = set(criterion.evidence_tags or ())
        chosen = [e for e in pool if own in e.tags
                  or (CHECK_TAG not in e.tags and wanted.intersection(e.tags))]
    else:
        chosen = [e.model_copy(update={"direction": "context"}) for e in pool
                  if criterion.target_artifact in e.tags and is_general(e.detective)
                  and CHECK_TAG not in e.tags]
    return sorted(chosen, key=_priority)


def evidence_for(criterion: Criterion, pool: Iterable[Evidence]) -> list[Evidence]:
    """The evidence a criterion is judged on, most decisive first, at most MAX_ITEMS: the
    hunks of the change under review first when there is one (``changes_first``)."""
    items = list(pool)
    chosen = [e for e in relevant(criterion, items) if DIFF_TAG not in e.tags]
    return [*changes_first(criterion.target_artifact, items, chosen), *chosen][:MAX_ITEMS]
