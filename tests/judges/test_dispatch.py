"""One bound on requests in flight for the whole audit, cache-aware order, early hearings."""

from __future__ import annotations

import threading
import time

from builders import FakeBackend
from court.support import CASE, rubric_with

from courtroom.court.session import hold_court
from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.bench import JudgeBench
from courtroom.judges.offline import OfflineBackend
from courtroom.models import JUDGES, JudicialOpinion, opinion_id
from courtroom.trace import Trace

from .conftest import SECRET, long_evidence, make_criterion


class Recording(FakeBackend):
    """An in-process backend that records requests in flight and when each ran."""

    name = "recording"

    def __init__(self, delay: float = 0.005, slow: frozenset[str] = frozenset(),
                 contest: bool = False) -> None:
        self.delay, self.slow, self.contest = delay, slow, contest
        self.in_flight = self.max_in_flight = 0
        self.log: list[tuple[str, str, int, float, float]] = []
        self._lock = threading.Lock()

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        started = time.monotonic()
        time.sleep(0.2 if request.criterion.id in self.slow else self.delay)
        score = {"Prosecutor": 1, "Defense": 5, "TechLead": 3}[request.persona] \
            if self.contest else 3
        with self._lock:
            self.in_flight -= 1
            self.log.append((request.criterion.id, request.persona, request.round, started,
                             time.monotonic()))
        opinion = JudicialOpinion(
            opinion_id=opinion_id(request.persona, request.criterion.id, f"r{request.round}"),
            judge=request.persona, criterion_id=request.criterion.id, score=score,
            argument="Recorded.", cited_evidence=["NO_EVIDENCE"])
        return opinion, JudgeUsage(requests=1)


def first_round(rubric) -> list[JudgeRequest]:
    return [JudgeRequest(persona=p, criterion=d, evidence=[]) for d in rubric.criteria
            for p in JUDGES]


def test_the_bound_holds_over_100_criteria_with_hearings():
    rubric = rubric_with([f"c{i:03d}" for i in range(100)])
    backend = Recording(contest=True)
    bench = JudgeBench(backend, max_workers=8)
    requests = first_round(rubric)
    answers = bench.submit(requests)
    opening = {d.id: (lambda cid=d.id: [f.result()[0] for r, f in zip(requests, answers)
                                        if r.criterion.id == cid]) for d in rubric.criteria}
    outcome = hold_court(rubric, CASE, {}, {}, opening, bench=bench, trace=Trace())
    bench.close()
    hearings = sum(r.extra_calls for r in outcome.records.values())
    assert hearings >= 300  # every criterion was heard
    assert backend.max_in_flight == 8
    assert bench.usage.calls == len(backend.log) == 300 + hearings


def test_a_hearing_starts_as_soon_as_its_own_opinions_are_in():
    rubric = rubric_with(["fast", "slow"])
    backend = Recording(slow=frozenset({"slow"}), contest=True)
    bench = JudgeBench(backend, max_workers=4)
    requests = first_round(rubric)
    answers = bench.submit(requests)
    opening = {d.id: (lambda cid=d.id: [f.result()[0] for r, f in zip(requests, answers)
                                        if r.criterion.id == cid]) for d in rubric.criteria}
    hold_court(rubric, CASE, {}, {}, opening, bench=bench, trace=Trace())
    bench.close()
    fast_hearing = min(start for cid, _p, rnd, start, _e in backend.log
                       if cid == "fast" and rnd == 1)
    slow_opened = max(end for cid, _p, rnd, _s, end in backend.log if cid == "slow" and rnd == 0)
    assert fast_hearing < slow_opened


def test_first_persona_of_a_criterion_goes_alone_then_the_other_two():
    backend = Recording()
    bench = JudgeBench(backend, max_workers=8)
    bench.judge(first_round(rubric_with(["a", "b", "c"])))
    bench.close()
    for cid in "abc":
        runs = sorted((s, e, p) for c, p, _r, s, e in backend.log if c == cid)
        leader_end = runs[0][1]
        assert all(start >= leader_end for start, _e, _p in runs[1:])


def test_prefix_written_once_and_read_twice(fake):
    fake.latency = 0.05
    backend = AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=10.0)
    requests = [JudgeRequest(persona=p, criterion=make_criterion(f"crit_{i}"),
                             evidence=long_evidence()) for i in range(10) for p in JUDGES]
    bench = JudgeBench(backend, max_workers=8)
    bench.judge(requests)
    bench.close()
    assert fake.max_in_flight <= 8
    assert (fake.cache.writes, fake.cache.reads) == (10, 20)
    usage = bench.usage
    assert usage.calls == len(fake.requests) == 30
    assert usage.cache_read_tokens > 1.5 * usage.cache_write_tokens > 0


def test_offline_bench_runs_through_the_same_dispatcher():
    bench = JudgeBench(OfflineBackend(), max_workers=2)
    answers = bench.judge(first_round(rubric_with(["a", "b"])))
    bench.close()
    assert [o.judge for o, _ in answers] == list(JUDGES) * 2
    assert bench.usage.calls == 6


def test_closing_drops_queued_requests_after_a_failure():
    backend = Recording(delay=0.05)
    bench = JudgeBench(backend, max_workers=1)
    bench.submit(first_round(rubric_with([f"c{i}" for i in range(10)])))
    time.sleep(0.02)
    bench.close()
    assert len(backend.log) < 30  # what was still queued was never sent
