"""One criterion's way through the court: opening, hearing rounds, remands, mistrial.

A ``Hearing`` is mutable and used by one thread at a time; ``court.session`` runs one per
criterion and collects what they decided. The rules it asks are pure (``court.rules``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from courtroom.court import rules
from courtroom.detectives.base import Case
from courtroom.judges.base import JudgeRequest
from courtroom.judges.bench import JudgeBench
from courtroom.models import (
    CourtRecord,
    Evidence,
    EvidenceGap,
    EvidenceRequest,
    HearingRound,
    JudicialOpinion,
    MistrialReason,
)
from courtroom.rubric import CourtParameters, Criterion
from courtroom.trace import Trace

Clock = Callable[[], float]
Investigator = Callable[[Case, list[EvidenceRequest]], list[Evidence]]

#: Moves between roles a remand costs: judges -> detectives -> judges.
REMAND_HANDOFFS = 2


class Hearing:
    """One criterion's way through the court; mutable, used by one thread at a time."""

    def __init__(
        self,
        criterion: Criterion,
        case: Case,
        pool: Mapping[str, Evidence],
        shown: list[Evidence],
        opinions: list[JudicialOpinion],
        *,
        bench: JudgeBench,
        trace: Trace,
        clock: Clock,
        limits: CourtParameters,
        investigate: Investigator,
    ) -> None:
        self.criterion, self.case, self.base_pool = criterion, case, pool
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
        self.trace.event("hear", "opening", criterion_id=self.criterion.id, path=kind,
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
        self.trace.event("hear", "ruled", criterion_id=self.criterion.id, path=self.record.path,
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
            self.trace.event("hear", "remand_failed", criterion_id=self.criterion.id,
                             error=str(exc))
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
        self.trace.event("hear", "remand", criterion_id=self.criterion.id, requests=len(requests),
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
                criterion=self.criterion,
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
                self.trace.event("hear", "revision_failed", criterion_id=self.criterion.id,
                                 judge=asked.persona, round=number)
                continue
            self.current[asked.persona] = revised.model_copy(
                update={"criterion_id": self.criterion.id})
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
