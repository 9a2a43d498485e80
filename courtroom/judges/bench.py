"""The judge bench: every persona on every criterion, cached, bounded, with a fallback.

One backend call per persona per criterion. Every call of the audit (first round and
court) goes through one dispatcher (dispatch.py): at most ``max_workers`` requests in
flight, the personas of a criterion ordered so their shared prompt prefix is cached once
and read twice. A judge that fails after its retries (JudgeError) gets the fixed fallback
opinion and the audit goes on. With a cost cap, a criterion whose calls would pass it is
judged by the offline bench instead, and ``notes`` says which and why. Every call leaves
entry and exit events in the trace: latency, retries, tokens and the score — never prompt
text, evidence content or secrets.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future

from courtroom.errors import JudgeError
from courtroom.judges.base import Backend, JudgeRequest, JudgeUsage
from courtroom.judges.cache import OpinionCache
from courtroom.judges.dispatch import CONTINUE, OPEN, Budget, Dispatcher
from courtroom.judges.offline import OfflineBackend
from courtroom.judges.pricing import estimate_usd
from courtroom.models import JudicialOpinion, Usage
from courtroom.problems import Problem
from courtroom.trace import Trace

#: Default bound on requests in flight (AuditConfig.max_concurrency's default).
DEFAULT_WORKERS = 8

Answer = tuple[JudicialOpinion, JudgeUsage]


def prefix_key(request: JudgeRequest) -> Hashable:
    """What the personas of one criterion and round share: the cacheable prompt prefix."""
    evidence = tuple(e.id for e in request.evidence)
    return (request.criterion.id, request.round, evidence, tuple(sorted(request.omitted.items())))


class JudgeBench:
    """Fans judge requests out to a backend; aggregates usage; caches opinions."""

    def __init__(
        self,
        backend: Backend,
        *,
        max_workers: int = DEFAULT_WORKERS,
        cache: OpinionCache | None = None,
        trace: Trace | None = None,
        clock: Callable[[], float] = time.perf_counter,
        max_cost_usd: float | None = None,
    ) -> None:
        self.backend = backend
        self.max_workers = max(1, max_workers)
        self.cache = cache
        self.trace = trace or Trace()
        self._clock = clock
        self._lock = threading.Lock()
        self._usage = Usage(
            model=backend.model,
            api_version=backend.api_version,
            max_cost_usd=max_cost_usd,
        )
        self._budget = Budget(max_cost_usd) if max_cost_usd is not None else None
        self._offline = OfflineBackend()
        #: Per prompt prefix: the backend that judges it and the estimate held per call.
        self._routes: dict[Hashable, tuple[Backend, float]] = {}
        self._answered = 0
        #: How many requests share each prompt prefix (the calls a route reserves for).
        self._sizes: dict[Hashable, int] = {}
        self._dispatch: Dispatcher[JudgeRequest, Answer] = Dispatcher(self._one, self.max_workers)
        #: Why criteria went to the offline bench (the cost cap), for the verdict's problems.
        self.notes: list[Problem] = []

    @property
    def usage(self) -> Usage:
        """Requests, cached opinions, tokens and estimated cost so far (a copy)."""
        with self._lock:
            return self._usage.model_copy(deep=True)

    def submit(self, requests: list[JudgeRequest]) -> list[Future[Answer]]:
        """Queue requests; one future per request, in order. Never blocks on a call."""
        with self._lock:
            for request in requests:
                group = prefix_key(request)
                self._sizes[group] = self._sizes.get(group, 0) + 1
        slots: dict[int, Future[Answer]] = {}
        for tier, wanted in ((OPEN, False), (CONTINUE, True)):
            indices = [i for i, r in enumerate(requests) if (r.round > 0) == wanted]
            queued = self._dispatch.submit_grouped(
                [requests[i] for i in indices], prefix_key, tier
            )
            slots.update(zip(indices, queued, strict=True))
        return [slots[i] for i in range(len(requests))]

    def judge(self, requests: list[JudgeRequest]) -> list[Answer]:
        """Every request's opinion, in request order; never raises for a failed judge."""
        return [future.result() for future in self.submit(requests)]

    def close(self) -> None:
        """Stop the bench's worker threads; requests still queued are not sent."""
        self._dispatch.close()

    def _one(self, request: JudgeRequest) -> Answer:
        who = {"criterion_id": request.criterion.id, "judge": request.persona,
               "round": request.round}
        backend, held = self._route(request)
        # Rule-based backends (offline) recompute in microseconds; caching them would only
        # risk serving opinions from older rules.
        key = self.cache.key(request, backend.name) if self.cache and backend.cacheable else None
        if self.cache is not None:
            cached = self.cache.get(key, request) if key is not None else None
            if cached is not None:
                self._settle(held, JudgeUsage(), ran=False)
                with self._lock:
                    self._usage.cached_opinions += 1
                self.trace.event("judge", "cached", score=cached.score, **who)
                return cached, JudgeUsage()
        self.trace.event("judge", "enter", bench=backend.name, **who)
        started = self._clock()
        if self._budget is not None:
            self._budget.start()
        opinion, usage, error = self._call(backend, request)
        latency = round(self._clock() - started, 4)
        self._settle(held, usage, ran=True)
        self._account(usage)
        self.trace.event(
            "judge", "exit", seconds=latency, score=opinion.score, fallback=opinion.fallback,
            transport_retries=usage.transport_retries, output_retries=usage.output_retries,
            input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens, error=error, **who,
        )
        if error is None and self.cache is not None and key is not None:
            self.cache.put(key, opinion)
        return opinion, usage

    def _call(self, backend: Backend, request: JudgeRequest) -> tuple[
            JudicialOpinion, JudgeUsage, str | None]:
        try:
            opinion, usage = backend.opine(request)
            return opinion, usage, None
        except JudgeError as exc:
            spent = exc.usage if isinstance(exc.usage, JudgeUsage) else JudgeUsage()
            error = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # a backend bug must not sink the whole audit
            spent, error = JudgeUsage(), f"unexpected {type(exc).__name__}"
        return JudicialOpinion.fallback_for(request.persona, request.criterion.id), spent, error

    def _route(self, request: JudgeRequest) -> tuple[Backend, float]:
        """Which backend judges this request, and the estimate held for it under the cap.

        The first request of a prompt prefix decides for all its personas (they run after
        it), so a criterion is judged by Claude or by the offline bench, never a mix.
        """
        group = prefix_key(request)
        if self._budget is None:
            return self.backend, 0.0
        with self._lock:
            known = self._routes.get(group)
            mean = self._usage.output_tokens // self._answered if self._answered else None
        if known is not None:
            return known
        size = self._sizes.get(group, 1)
        estimate = self.backend.estimate_usd(request, mean)
        if estimate is None:  # a free backend is never capped
            return self.backend, 0.0
        each = float(estimate)
        route: tuple[Backend, float] = (self.backend, each)
        if not self._budget.reserve(each * size):
            route = (self._offline, 0.0)
            self._over_budget(request, each * size)
        with self._lock:
            self._routes[group] = route
        return route

    def _over_budget(self, request: JudgeRequest, estimate: float) -> None:
        assert self._budget is not None
        cid = request.criterion.id
        line = (f"cost cap ${self._budget.cap:.2f} reached (spent ≈ ${self._budget.spent:.4f}, "
                f"next calls ≈ ${estimate:.4f}): {cid} round {request.round} judged by the "
                f"offline bench")
        with self._lock:
            self.notes.append(Problem(kind="cost_cap", criterion=cid, message=line))
            if cid not in self._usage.over_budget:
                self._usage.over_budget.append(cid)
        self.trace.event("judge", "over_budget", criterion_id=cid, round=request.round,
                         estimate_usd=round(estimate, 6))

    def _settle(self, held: float, usage: JudgeUsage, *, ran: bool) -> None:
        if self._budget is None:
            return
        self._budget.settle(held, estimate_usd(
            self._usage.model, input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens, cache_read=usage.cache_read_tokens,
            cache_write=usage.cache_write_tokens,
        ), ran=ran)

    def _account(self, usage: JudgeUsage) -> None:
        with self._lock:
            total = self._usage
            # Every request counts, retries and re-asks included; a rule-based opinion is one.
            total.calls += max(1, usage.requests)
            total.input_tokens += usage.input_tokens
            total.output_tokens += usage.output_tokens
            total.cache_read_tokens += usage.cache_read_tokens
            total.cache_write_tokens += usage.cache_write_tokens
            if usage.requests:
                self._answered += 1
            # A rule-based backend reports no tokens, so its estimate stays 0.
            total.estimated_cost_usd = estimate_usd(
                total.model,
                input_tokens=total.input_tokens,
                output_tokens=total.output_tokens,
                cache_read=total.cache_read_tokens,
                cache_write=total.cache_write_tokens,
            )
