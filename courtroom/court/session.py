"""The court phase: plea deals, hearings, remands and mistrials around contested criteria.

Sits between judging and synthesis. Agreeing criteria leave at once (no extra call);
contested ones are heard again, bounded by a wall-clock TTL (checked between moves), a
handoff budget (a hearing round hands the floor to each judge: one handoff per judge; a
remand goes judges -> detectives -> judges: two), ``max_rounds`` hearing rounds (a
re-hearing after a remand counts as one) and ``max_remands``. The final opinions go to
the chief justice: the court never scores anything itself.

A criterion's hearing starts as soon as its own first-round opinions are in (given as a
callable that waits for them); requests in flight are bounded by the bench, not here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from courtroom.court.hearing import Clock, Hearing, Investigator
from courtroom.detectives.base import Case
from courtroom.judges.bench import JudgeBench
from courtroom.models import (
    CourtRecord,
    CriterionResult,
    Evidence,
    EvidenceRequest,
    JudicialOpinion,
)
from courtroom.problems import Problem
from courtroom.rubric import CourtParameters, Criterion, Rubric
from courtroom.trace import Trace

__all__ = ["CourtOutcome", "hold_court"]

#: A criterion's first-round opinions, or a callable that waits for them.
Opening = Sequence[JudicialOpinion] | Callable[[], Sequence[JudicialOpinion]]

#: Hearings open at once: a bound on threads only (they wait; the bench sends).
MAX_SESSIONS = 64


@dataclass(frozen=True)
class CourtOutcome:
    """What the court decided: the opinions that stand, each criterion's record (none when
    the court did not sit), and the evidence remands added to the pool."""

    opinions: dict[str, list[JudicialOpinion]]
    records: dict[str, CourtRecord] = field(default_factory=dict)
    new_evidence: dict[str, Evidence] = field(default_factory=dict)

    def settle(self, result: CriterionResult) -> CriterionResult:
        """The chief justice's result with this court's record of the criterion attached.

        A mistrial is unsettled by definition, so it always needs re-evaluation, whatever
        the variance of the last opinions says; the score itself stays the chief justice's.
        """
        record = self.records.get(result.criterion_id)
        if record is None:
            return result
        update: dict[str, object] = {"court": record}
        if record.path == "mistrial":
            update["re_evaluation_required"] = True
        return result.model_copy(update=update)

    def fallbacks(self) -> list[Problem]:
        """One problem per standing opinion that is the fixed fallback (a judge that failed)."""
        return [Problem(kind="fallback", criterion=o.criterion_id, source=o.judge,
                        message=f"fell back on {o.criterion_id}")
                for ops in self.opinions.values() for o in ops if o.fallback]


def _default_investigator(case: Case, requests: list[EvidenceRequest]) -> list[Evidence]:
    from courtroom.detectives import investigate  # on use: only remands need the detectives

    return list(investigate(case, requests))


def hold_court(
    rubric: Rubric,
    case: Case,
    pool: Mapping[str, Evidence],
    shown: Mapping[str, Sequence[Evidence]],
    opinions: Mapping[str, Opening],
    *,
    bench: JudgeBench,
    trace: Trace,
    clock: Clock = time.monotonic,
    limits: CourtParameters | None = None,
    investigator: Investigator | None = None,
) -> CourtOutcome:
    """Take every criterion through plea or hearing, each as soon as its opinions are in."""
    court_limits = limits or rubric.court
    investigate = investigator or _default_investigator

    def proceed(criterion: Criterion) -> Hearing:
        opening = opinions.get(criterion.id, [])
        first = list(opening() if callable(opening) else opening)
        hearing = Hearing(criterion, case, pool, list(shown.get(criterion.id, [])), first,
                          bench=bench, trace=trace, clock=clock, limits=court_limits,
                          investigate=investigate)
        if hearing.opening() == "hearing":
            hearing.hear()
        return hearing

    criteria = list(rubric.criteria)
    workers = max(1, min(MAX_SESSIONS, len(criteria)))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="court") as executor:
        hearings = list(executor.map(proceed, criteria))  # re-raises a hearing's exception
    new_evidence: dict[str, Evidence] = {}
    for hearing in hearings:
        new_evidence.update(hearing.added)
    return CourtOutcome(
        opinions={h.criterion.id: h.final_opinions() for h in hearings},
        records={h.criterion.id: h.record for h in hearings},
        new_evidence=new_evidence,
    )
