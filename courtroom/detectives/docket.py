"""Which evidence each criterion is judged on (context minimisation for the judges)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from courtroom.checks import criterion_tag
from courtroom.models import SECURITY_TAG, Evidence
from courtroom.rubric import Dimension

#: Most items a judge is shown for one criterion; the rest stay in the pool and report.
MAX_ITEMS = 40


def _priority(evidence: Evidence) -> tuple[int, float, str, str]:
    # Security findings and missing facts first: they change scores the most.
    security = 0 if SECURITY_TAG in evidence.tags else 1
    return (security, -evidence.confidence, evidence.location, evidence.goal)


_REPO, _PDF, _IMAGES = "github_repo", "pdf_report", "pdf_images"
#: Evidence topics a criterion is about, read from the words of its id and name, per artifact.
TOPICS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    (_REPO, re.compile(r"\bgit_|commit|history"), ("git", "history")),
    (_REPO, re.compile(r"state|reducer"), ("state",)),
    (_REPO, re.compile(r"graph|orchestrat|fan.?(in|out)|parallel"),
     ("graph", "parallelism", "conditional")),
    (_REPO, re.compile(r"tool|sandbox|clone|secur"),
     ("tools", "sandbox", SECURITY_TAG, "security_unconfirmed")),
    (_REPO, re.compile(r"structured|schema"), ("structured_output",)),
    (_REPO, re.compile(r"judicial|persona|judge|dialectic"), ("personas",)),
    (_REPO, re.compile(r"chief|justice|synthes|verdict"), ("synthesis",)),
    (_PDF, re.compile(r"theor|depth|concept"), ("concepts",)),
    (_PDF, re.compile(r"accura|claim|hallucinat"), ("claims", "paths")),
    (_IMAGES, re.compile(r"visual|diagram|swarm|image"), ("diagram",)),
)


def topics(dimension: Dimension) -> set[str]:
    """The evidence tags a dimension is about: its own ``evidence_tags`` when given, else the
    topics of its artifact that its id and name speak of, else its whole target artifact."""
    if dimension.evidence_tags:
        return set(dimension.evidence_tags)
    words = f"{dimension.id} {dimension.name}".lower().replace(" ", "_")
    found = {tag for artifact, rx, tags in TOPICS
             if artifact == dimension.target_artifact and rx.search(words) for tag in tags}
    return found or {dimension.target_artifact}


def evidence_for(dimension: Dimension, pool: Iterable[Evidence]) -> list[Evidence]:
    """The evidence a criterion is judged on, most decisive first, at most MAX_ITEMS.

    A dimension gets the items sharing any of its topics (see ``topics``).
    """
    wanted = checked_topics(dimension) or topics(dimension)
    chosen = [e for e in pool if wanted.intersection(e.tags)]
    chosen.sort(key=_priority)
    return chosen[:MAX_ITEMS]


def checked_topics(dimension: Dimension) -> set[str]:
    """A dimension with declarative checks: the tag of its own checks' facts (they serve it
    and no other) plus its ``evidence_tags``; it never falls back on its words or its
    artifact. Empty for a dimension without checks."""
    if not dimension.checks:
        return set()
    return {criterion_tag(dimension.id), *(dimension.evidence_tags or ())}
