"""The one small interface every judge backend implements, and what it is asked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from courtroom.detectives.docket import relevant
from courtroom.models import Evidence, JudgeName, JudicialOpinion
from courtroom.rubric import Criterion


class JudgeRequest(BaseModel):
    """One persona asked to rule on one criterion over the evidence selected for it."""

    model_config = ConfigDict(frozen=True)

    persona: JudgeName
    criterion: Criterion
    evidence: list[Evidence] = Field(description="Only the evidence for this criterion.")
    #: Other judges' opinions during a court hearing (structured data only); empty at first.
    peers: list[JudicialOpinion] = Field(default_factory=list)
    #: This judge's own opinion from the previous round, during a hearing.
    previous: JudicialOpinion | None = None
    round: int = 0
    #: Items relevant to the criterion that were cut to fit, counted by kind
    #: ("<detective>, <direction>"); the judge is told what it does not see.
    omitted: dict[str, int] = Field(default_factory=dict)


class JudgeUsage(BaseModel):
    """Tokens one call used (zero for offline and cached opinions)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    #: Retries the backend made for this opinion (transport: timeouts/429/5xx; output:
    #: answers that did not validate). Zero for offline and cached opinions.
    transport_retries: int = 0
    output_retries: int = 0
    #: HTTP requests this opinion took (first try, retries, re-asks); 0 for rule-based
    #: backends, which make none.
    requests: int = 0


class Backend(Protocol):
    """A source of judicial opinions: offline rules, Claude, or a test fake."""

    #: Shown in verdict.json's "bench": "offline" or "anthropic:<model>".
    name: str

    @property
    def model(self) -> str | None:
        """The model asked (None for rule-based backends); priced and recorded in usage."""
        ...

    @property
    def api_version(self) -> str | None:
        """The API version header sent, if any; recorded in usage and resume keys."""
        ...

    @property
    def cacheable(self) -> bool:
        """Whether the opinion cache may serve and store this backend's opinions."""
        ...

    def estimate_usd(self, request: JudgeRequest, output_tokens: int | None = None) -> float | None:
        """What answering ``request`` would cost, for the cost cap; None when it is free."""
        ...

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """Return the persona's opinion; raise JudgeError when it cannot."""
        ...


# What the docket's cut left out of a criterion's prompt: the items it finds relevant that
# the prompt does not hold, counted without restating the docket's rule here.

def kind(item: Evidence) -> str:
    """How a left-out item is counted: which detective found it and which way it points."""
    return f"{item.detective or 'unknown'}, {item.direction}"


def left_out(
    criterion: Criterion, pool: Iterable[Evidence], shown: Sequence[Evidence]
) -> dict[str, int]:
    """Counts by kind of the items relevant to ``criterion`` that ``shown`` does not hold."""
    kept = {e.id for e in shown}
    counts = Counter(kind(e) for e in relevant(criterion, pool) if e.id not in kept)
    return dict(sorted(counts.items()))
