"""The court phase: plea deals, hearings, remands and mistrials around contested criteria.

Sits between judging and synthesis. Agreeing criteria leave at once (no extra call);
contested ones are heard again, bounded by a wall-clock TTL (checked between moves), a
handoff budget (a hearing round hands the floor to each judge: one handoff per judge; a
remand goes judges -> detectives -> judges: two), ``max_rounds`` hearing rounds (a
re-hearing after a remand counts as one) and ``max_remands``. The final opinions go to
the chief justice: the court never scores anything itself.

A criterion's session starts as soon as its own first-round opinions are in (given as a
callable that waits for them); requests in flight are bounded by the bench, not here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from courtroom.court import rules
from courtroom.court.rules import limits_for
from courtroom.detectives.base import Case
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.models import (
    CourtRecord,
    CriterionResult,
    Evidence,
    EvidenceGap,
    EvidenceRequest,
    HearingRound,
    JudicialOpinion,
    MistrialReason,
)
from courtroom.rubric import CourtParameters, Dimension, Rubric
from courtroom.trace import Trace

__all__ = ["Bench", "CourtOutcome", "apply_record", "hold_court", "limits_for"]

Clock = Callable[[], float]
Investigator = Callable[[Case, list[EvidenceRequest]], list[Evidence]]
#: A criterion's first-round opinions, or a callable that waits for them.
Opening = Sequence[JudicialOpinion] | Callable[[], Sequence[JudicialOpinion]]

#: Sessions open at once: a bound on threads only (they wait; the bench sends).
MAX_SESSIONS = 64

#: Moves between roles a remand costs: judges -> detectives -> judges.
REMAND_HANDOFFS = 2


class Bench(Protocol):
    """What the court needs of the judge bench: the same fan-out the first round used."""

    def judge(self, requests: list[JudgeRequest]) -> list[tuple[JudicialOpinion, JudgeUsage]]:
        """Answer every request, in order."""
        ...


@dataclass
class CourtOutcome:
    """What the court changed: final opinions, per-criterion records, evidence it added."""

    opinions: dict[str, list[JudicialOpinion]]
    records: dict[str, CourtRecord]
    new_evidence: dict[str, Evidence] = field(default_factory=dict)
    shown: dict[str, list[Evidence]] = field(default_factory=dict)


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
    bench: Bench,
    trace: Trace,
    clock: Clock = time.monotonic,
    limits: CourtParameters | None = None,
    investigator: Investigator | None = None,
) -> CourtOutcome:
    """Take every criterion through plea or hearing, each as soon as its opinions are in."""
    court_limits = limits or rubric.court
    investigate = investigator or _default_investigator

    def proceed(dim: Dimension) -> _Session:
        opening = opinions.get(dim.id, [])
        first = list(opening() if callable(opening) else opening)
        session = _Session(dim, case, pool, list(shown.get(dim.id, [])), first, bench=bench,
                           trace=trace, clock=clock, limits=court_limits,
                           investigate=investigate)
        if session.opening() == "hearing":
            session.hear()
        return session

    dims = list(rubric.dimensions)
    workers = max(1, min(MAX_SESSIONS, len(dims)))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="court") as executor:
        sessions = list(executor.map(proceed, dims))  # re-raises a session's exception
    outcome = CourtOutcome(opinions={}, records={})
    for session in sessions:
        cid = session.dim.id
        outcome.opinions[cid] = session.final_opinions()
        outcome.records[cid] = session.record
        outcome.shown[cid] = session.shown
        outcome.new_evidence.update(session.added)
    return outcome


def apply_record(result: CriterionResult, record: CourtRecord | None) -> CriterionResult:
    """Attach the court record to the chief justice's result.

    A mistrial is unsettled by definition, so it always needs re-evaluation, whatever the
    variance of the last opinions says; the score itself stays the chief justice's.
    """
    if record is None:
        return result
    update: dict[str, object] = {"court": record}
    if record.path == "mistrial":
        update["re_evaluation_required"] = True
    return result.model_copy(update=update)


class _Session:
    """One criterion's way through the court; mutable, used by one thread at a time."""

    def __init__(
        self,
        dim: Dimension,
        case: Case,
        pool: Mapping[str, Evidence],
        shown: list[Evidence],
        opinions: list[JudicialOpinion],
        *,
        bench: Bench,
        trace: Trace,
        clock: Clock,
        limits: CourtParameters,
        investigate: Investigator,
    ) -> None:
        self.dim, self.case, self.base_pool = dim, case, pool
        self.shown, self.bench, self.trace = shown, bench, trace
        self.clock, self.limits, self.investigate = clock, limits, investigate
        self.added: dict[str, Evidence] = {}
        self.current = rules.by_judge(opinions)
        opening = HearingRound(round=0, stage="opening", opinions=opinions)
        self.record = CourtRecord(rounds=[opening])
        self.asked: set[tuple[str, str, str]] = set()
        self.unanswered: list[EvidenceGap] = []
        self._start = 0.0

    def pool_view(self) -> dict[str, Evidence]:
        """The pool as this criterion sees it now (shared pool plus its own remands)."""
        return {**self.base_pool, **self.added}

    def final_opinions(self) -> list[JudicialOpinion]:
        """The opinions that stand after the court: the last revision of every judge."""
        return list(self.current.values())

    def opening(self) -> str:
        """Classify the first round; plea and pass-through leave with zero extra calls."""
        kind = rules.classify(self.final_opinions(), self.pool_view())
        if kind != "hearing":
            # Nothing was heard: the first-round opinions already are the final ones.
            self.record.path, self.record.rounds = kind, []
        self.trace.event("hear", "opening", criterion_id=self.dim.id, path=kind,
                         variance=rules.variance(self.final_opinions()))
        return kind

    def hear(self) -> None:
        """Hearing rounds, with remands when judges name missing evidence, then a ruling."""
        self._start = self.clock()
        self.record.path = "hearing"
        held = 0
        reason: MistrialReason | None = None
        while True:
            if self.clock() - self._start > self.limits.ttl_seconds:
                reason = "time_exhausted"
                break
            stage, new_ids = "hearing", []
            todo = rules.outstanding(self.final_opinions(), self.asked)
            can_remand = self.record.remands < self.limits.max_remands
            if todo and can_remand and held < self.limits.max_rounds:
                if not self.spend(REMAND_HANDOFFS):
                    reason = "deliberation_exhausted"
                    break
                stage, new_ids = "remand", self.remand(todo, held)
            if held >= self.limits.max_rounds:
                break
            seats = rules.participating(self.final_opinions())
            if not self.spend(len(seats)):
                reason = "deliberation_exhausted"
                break
            held += 1
            self.round(held, stage, new_ids)
            if rules.variance(self.final_opinions()) <= rules.HEARING_VARIANCE:
                break
        if reason is None and rules.variance(self.final_opinions()) > rules.HEARING_VARIANCE:
            standing = rules.standing_requests(self.final_opinions())
            reason = "judge_declared" if standing else "deliberation_exhausted"
        if reason is not None:
            self.mistrial(reason)
        elif self.record.remands:
            self.record.path = "remand"
        self.trace.event("hear", "ruled", criterion_id=self.dim.id, path=self.record.path,
                         rounds=held, remands=self.record.remands,
                         handoffs=self.record.handoffs, reason=reason)

    def spend(self, moves: int) -> bool:
        """Take ``moves`` handoffs from the budget; False (nothing spent) when it is short."""
        if self.record.handoffs + moves > self.limits.max_handoffs:
            return False
        self.record.handoffs += moves
        return True

    def remand(self, todo: list[tuple[str, EvidenceRequest]], held: int) -> list[str]:
        """Send the judges' requests to the detectives; return the ids new to this criterion."""
        requests = [request for _judge, request in todo]
        self.asked.update(rules.request_key(r) for r in requests)
        self.record.remands += 1
        try:
            found = self.investigate(self.case, requests)
        except Exception as exc:  # a detective bug must not sink the whole audit
            # A failed second look is a gap in the brief, not the end of the audit.
            self.trace.event("hear", "remand_failed", criterion_id=self.dim.id, error=str(exc))
            found = []
        known = {e.id for e in self.shown}
        # The pool may already hold an answer: evidence the docket gave other criteria.
        found = rules.from_pool(requests, self.base_pool, known) + found
        new_ids: list[str] = []
        answered = False
        for evidence in found:
            if evidence.id in known:
                continue
            known.add(evidence.id)
            self.shown.append(evidence)
            new_ids.append(evidence.id)
            answered = answered or evidence.found
            if evidence.id not in self.base_pool:
                self.added[evidence.id] = evidence
        if not answered:
            stage = f"remand {self.record.remands} (after round {held})"
            self.unanswered.extend(
                EvidenceGap(missing=rules.describe(r), raised_by=judge, stage=stage)
                for judge, r in todo
            )
        self.trace.event("hear", "remand", criterion_id=self.dim.id, requests=len(requests),
                         new_evidence=len(new_ids))
        return new_ids

    def round(self, number: int, stage: str, new_ids: list[str]) -> None:
        """One hearing round: every participating judge revises against its peers."""
        seats = rules.participating(self.final_opinions())
        pool = self.pool_view()
        requests = []
        for opinion in seats:
            peers = [rules.peer_view(p) for p in seats if p.judge != opinion.judge]
            requests.append(JudgeRequest(
                persona=opinion.judge,
                dimension=self.dim,
                evidence=rules.hearing_evidence(self.shown, peers, pool),
                peers=peers,
                previous=opinion,
                round=number,
            ))
        answers = self.bench.judge(requests)
        self.record.extra_calls += len(requests)
        for (revised, usage), asked in zip(answers, requests, strict=True):
            self.record.extra_tokens += (usage.input_tokens + usage.output_tokens
                                         + usage.cache_read_tokens + usage.cache_write_tokens)
            if revised.fallback or revised.judge != asked.persona:
                # A judge that fails during a hearing keeps its last valid opinion.
                self.trace.event("hear", "revision_failed", criterion_id=self.dim.id,
                                 judge=asked.persona, round=number)
                continue
            self.current[asked.persona] = revised.model_copy(update={"criterion_id": self.dim.id})
        self.record.rounds.append(HearingRound(
            round=number,
            stage="remand" if stage == "remand" else "hearing",
            opinions=self.final_opinions(),
            new_evidence=new_ids,
        ))

    def mistrial(self, reason: MistrialReason) -> None:
        """Close the criterion as a mistrial and write its Evidence Gap Brief."""
        rounds = [r.opinions for r in self.record.rounds]
        last = self.record.rounds[-1]
        self.record.path = "mistrial"
        self.record.mistrial_reason = reason
        self.record.prosecution_best_score = rules.prosecution_best(rounds)
        self.record.defense_challenges = rules.defense_challenges(rounds)
        self.record.gaps = rules.gaps(
            reason,
            self.unanswered,
            self.final_opinions(),
            stage=f"{last.stage} round {last.round}",
            ttl_seconds=self.limits.ttl_seconds,
        )
