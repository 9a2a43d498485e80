"""The judge bench: every persona on every criterion at once, cached, with a fallback.

One backend call per persona per criterion, all submitted to a bounded thread pool. A
judge that fails after its retries (JudgeError) gets the fixed fallback opinion and the
audit goes on. Every call leaves entry and exit events in the trace: latency, retries,
tokens and the score — never prompt text, evidence content or secrets.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor

from courtroom.errors import JudgeError
from courtroom.judges.base import Backend, JudgeRequest, JudgeUsage
from courtroom.judges.cache import OpinionCache
from courtroom.judges.pricing import estimate_usd
from courtroom.models import JUDGES, Evidence, JudgeName, JudicialOpinion, Usage
from courtroom.rubric import Dimension
from courtroom.trace import Trace

#: Default pool: 10 criteria x 3 personas all in flight at once.
DEFAULT_WORKERS = 30

Answer = tuple[JudicialOpinion, JudgeUsage]


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
    ) -> None:
        self.backend = backend
        self.max_workers = max(1, max_workers)
        self.cache = cache
        self.trace = trace or Trace()
        self._clock = clock
        self._lock = threading.Lock()
        self._usage = Usage(
            model=getattr(backend, "model", None), api_version=getattr(backend, "api_version", None)
        )
        #: One line per judge that fell back, for the verdict's errors.
        self.failures: list[str] = []

    @property
    def usage(self) -> Usage:
        """Calls, cached opinions, tokens and estimated cost so far (a copy)."""
        with self._lock:
            return self._usage.model_copy()

    def judge(
        self,
        requests: list[JudgeRequest],
        on_done: Callable[[int], None] | None = None,
    ) -> list[Answer]:
        """Every request's opinion, in request order; never raises for a failed judge."""
        if not requests:
            return []
        done = 0

        def run(request: JudgeRequest) -> Answer:
            nonlocal done
            answer = self._one(request)
            if on_done is not None:
                with self._lock:
                    done += 1
                    count = done
                on_done(count)
            return answer

        workers = min(self.max_workers, len(requests))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge") as pool:
            return list(pool.map(run, requests))

    def judge_criteria(
        self,
        dimensions: Iterable[Dimension],
        evidence_by_criterion: Mapping[str, list[Evidence]],
        judges: Iterable[JudgeName] = JUDGES,
    ) -> dict[str, list[JudicialOpinion]]:
        """Three opinions per criterion (Prosecutor, Defense, TechLead order)."""
        dims = list(dimensions)
        requests = [
            JudgeRequest(persona=j, dimension=d, evidence=list(evidence_by_criterion.get(d.id, [])))
            for d in dims
            for j in judges
        ]
        result: dict[str, list[JudicialOpinion]] = {d.id: [] for d in dims}
        for opinion, _usage in self.judge(requests):
            result[opinion.criterion_id].append(opinion)
        return result

    def _one(self, request: JudgeRequest) -> Answer:
        who = {"criterion_id": request.dimension.id, "judge": request.persona,
               "round": request.round}
        # Rule-based backends (offline) recompute in microseconds; caching them would only
        # risk serving opinions from older rules, so only seeds apply to them.
        cacheable = getattr(self.backend, "cacheable", True)
        key = self.cache.key(request, self.backend.name) if self.cache and cacheable else None
        if self.cache is not None:
            cached = (self.cache.get(key, request) if key is not None
                      else self.cache.seeded_for(request))
            if cached is not None:
                with self._lock:
                    self._usage.cached_opinions += 1
                self.trace.event("judge", "cached", score=cached.score, **who)
                return cached, JudgeUsage()
        self.trace.event("judge", "enter", bench=self.backend.name, **who)
        started = self._clock()
        error: str | None = None
        try:
            opinion, usage = self.backend.opine(request)
        except JudgeError as exc:
            error = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # a backend bug must not sink the whole audit
            error = f"unexpected {type(exc).__name__}"
        if error is not None:
            opinion = JudicialOpinion.fallback_for(request.persona, request.dimension.id)
            usage = JudgeUsage()
        latency = round(self._clock() - started, 4)
        self._account(usage, failed=error is not None, request=request, error=error)
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

    def _account(
        self, usage: JudgeUsage, *, failed: bool, request: JudgeRequest, error: str | None
    ) -> None:
        with self._lock:
            total = self._usage
            total.calls += 1
            total.input_tokens += usage.input_tokens
            total.output_tokens += usage.output_tokens
            total.cache_read_tokens += usage.cache_read_tokens
            total.cache_write_tokens += usage.cache_write_tokens
            if getattr(self.backend, "name", "offline") != "offline":
                total.estimated_cost_usd = estimate_usd(
                    total.model,
                    input_tokens=total.input_tokens,
                    output_tokens=total.output_tokens,
                    cache_read=total.cache_read_tokens,
                    cache_write=total.cache_write_tokens,
                )
            if failed:
                self.failures.append(
                    f"judge {request.persona} fell back on {request.dimension.id} ({error})"
                )
