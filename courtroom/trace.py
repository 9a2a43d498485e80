"""A structured trace of every stage (JSONL), safe to write from many threads."""

from __future__ import annotations

import json
import threading
import time
from typing import Any


class Trace:
    """Collects trace events in memory; ``write`` puts them in a JSONL file.

    Events are plain JSON objects: ``{"t": seconds since start, "stage": ..., "event": ...}``
    plus whatever fields the caller adds. Never put secrets or raw prompts in a field.
    """

    def __init__(self, clock: Any = time.perf_counter) -> None:
        self._clock = clock
        self._start = clock()
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []

    def event(self, stage: str, event: str, **fields: Any) -> None:
        """Record one event."""
        record = {"t": round(self._clock() - self._start, 4), "stage": stage, "event": event}
        record.update(fields)
        with self._lock:
            self.events.append(record)

    def span(self, stage: str, name: str, **fields: Any) -> _Span:
        """Context manager recording entry, exit and elapsed time of a piece of work."""
        return _Span(self, stage, name, fields)

    def jsonl(self) -> str:
        """All events as JSON lines (``render.files`` writes them, never through a link)."""
        with self._lock:
            lines = [json.dumps(e, sort_keys=True, default=str) for e in self.events]
        return "\n".join(lines) + ("\n" if lines else "")


class _Span:
    def __init__(self, trace: Trace, stage: str, name: str, fields: dict[str, Any]) -> None:
        self.trace, self.stage, self.name, self.fields = trace, stage, name, fields
        self.started = 0.0

    def __enter__(self) -> _Span:
        self.started = self.trace._clock()
        self.trace.event(self.stage, "enter", name=self.name, **self.fields)
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        elapsed = round(self.trace._clock() - self.started, 4)
        status = "ok" if exc is None else f"error: {type(exc).__name__}"
        self.trace.event(self.stage, "exit", name=self.name, seconds=elapsed, status=status)
