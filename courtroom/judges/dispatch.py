"""One bounded queue for every judge request of an audit, so the bound holds everywhere.

The first round and every court session submit here; only ``limit`` worker threads ever
call the backend, so at most ``limit`` requests are in flight over the whole audit however
many sessions are open. Requests wait in a priority queue:

- the three personas of a criterion share one cacheable prompt prefix (the criterion and
  its evidence). The first persona goes alone; the other two are queued only once its
  answer is back, so the prefix is written to the prompt cache once and read twice;
- work that finishes a criterion already under way (those two, hearing rounds) goes
  before a new criterion is opened, so a prefix is read while it is still cached.

The cost cap (``Budget``): no judge call starts unless the spend so far plus its estimate
fits. "Spend so far" is what answered calls cost plus the estimates held for calls not yet
answered, so concurrent calls cannot overrun the cap together. A call that does not fit
while others are running waits for them to settle (their real cost is usually below the
estimate) before it is refused; refused work goes to the offline bench. It never waits on
calls that are only queued: they may need the very thread that is waiting.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Queue tiers: work that finishes an open criterion first, then new criteria.
CONTINUE, OPEN = 0, 1


class Dispatcher(Generic[T, R]):
    """Runs ``work(item)`` on at most ``limit`` threads, best priority first."""

    def __init__(self, work: Callable[[T], R], limit: int) -> None:
        self._work = work
        self.limit = max(1, limit)
        self._pool = ThreadPoolExecutor(max_workers=self.limit, thread_name_prefix="judge")
        self._heap: list[tuple[int, int, T, Future[R]]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()

    def submit(self, item: T, tier: int = OPEN) -> Future[R]:
        """Queue one item; its future holds the result (or the exception)."""
        future: Future[R] = Future()
        with self._lock:
            heapq.heappush(self._heap, (tier, next(self._order), item, future))
        # One pool task per queued item; each takes whatever is best when a thread frees.
        self._pool.submit(self._run_best)
        return future

    def submit_grouped(
        self, items: Sequence[T], group: Callable[[T], Hashable], tier: int = OPEN
    ) -> list[Future[R]]:
        """Queue items so each group's first item runs alone and the rest follow it."""
        futures: list[Future[R] | None] = [None] * len(items)
        members: dict[Hashable, list[int]] = {}
        for index, item in enumerate(items):
            members.setdefault(group(item), []).append(index)
        for indices in members.values():
            lead, rest = indices[0], indices[1:]
            futures[lead] = leader = self.submit(items[lead], tier)
            waiting: list[tuple[int, Future[R]]] = [(i, Future()) for i in rest]
            for i, placeholder in waiting:
                futures[i] = placeholder
            if waiting:
                leader.add_done_callback(self._release(items, waiting))
        return [f for f in futures if f is not None]

    def _release(
        self, items: Sequence[T], waiting: list[tuple[int, Future[R]]]
    ) -> Callable[[Future[R]], None]:
        def go(_leader: Future[R]) -> None:
            for index, placeholder in waiting:
                self.submit(items[index], CONTINUE).add_done_callback(_chain(placeholder))

        return go

    def _run_best(self) -> None:
        with self._lock:
            _tier, _seq, item, future = heapq.heappop(self._heap)
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(self._work(item))
        except BaseException as exc:  # handed to whoever waits on the future
            future.set_exception(exc)

    def close(self) -> None:
        """Stop the worker threads. Work still queued is dropped (an audit that failed
        midway must not keep sending paid requests); calls already running finish."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def _chain(target: Future[R]) -> Callable[[Future[R]], None]:
    def copy(source: Future[R]) -> None:
        error = source.exception()
        if error is not None:
            target.set_exception(error)
        else:
            target.set_result(source.result())

    return copy


class Budget:
    """A spending cap in USD, shared by every judge call of an audit."""

    def __init__(self, cap_usd: float) -> None:
        self.cap = cap_usd
        self.spent = 0.0
        self.reserved = 0.0
        self.running = 0
        self._changed = threading.Condition()

    def reserve(self, estimate: float) -> bool:
        """Hold ``estimate`` for a call about to start; False when it cannot fit."""
        with self._changed:
            while self.spent + self.reserved + estimate > self.cap:
                if self.running <= 0:
                    return False
                self._changed.wait()
            self.reserved += estimate
            return True

    def start(self) -> None:
        """A call holding a reservation is being sent now."""
        with self._changed:
            self.running += 1

    def settle(self, estimate: float, actual: float, *, ran: bool) -> None:
        """Replace a held estimate by what the call really cost (``ran``: it was started)."""
        with self._changed:
            self.reserved = max(0.0, self.reserved - estimate)
            self.spent += actual
            self.running -= int(ran)
            self._changed.notify_all()
