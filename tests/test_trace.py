"""The trace: timed events in order, spans that record a failure and let it through, safe
from many threads, written as JSON lines."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from courtroom.trace import Trace


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_events_carry_time_since_start_stage_and_fields() -> None:
    clock = Clock()
    trace = Trace(clock=clock)
    clock.now = 101.23456
    trace.event("judge", "cached", score=4)
    assert trace.events == [{"t": 1.2346, "stage": "judge", "event": "cached", "score": 4}]


def test_a_span_times_its_work_and_says_how_it_ended() -> None:
    clock = Clock()
    trace = Trace(clock=clock)
    with trace.span("detect", "history", files=3):
        clock.now += 2.5
    with pytest.raises(KeyError), trace.span("detect", "graph"):
        clock.now += 1.0
        raise KeyError("missing")
    enter, done, _enter, failed = trace.events
    assert enter == {"t": 0.0, "stage": "detect", "event": "enter", "name": "history", "files": 3}
    assert (done["event"], done["seconds"], done["status"]) == ("exit", 2.5, "ok")
    assert (failed["seconds"], failed["status"]) == (1.0, "error: KeyError")


def test_many_threads_lose_no_event() -> None:
    trace = Trace()

    def work(n: int) -> None:
        for i in range(200):
            trace.event("judge", "exit", worker=n, i=i)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(trace.events) == 1600
    assert len({(e["worker"], e["i"]) for e in trace.events}) == 1600


def test_written_as_one_json_object_per_line(tmp_path: Path) -> None:
    trace = Trace(clock=Clock())
    trace.event("render", "wrote", path=tmp_path / "report.md")
    (line,) = trace.jsonl().splitlines()
    assert json.loads(line)["path"] == str(tmp_path / "report.md")
    assert trace.jsonl().endswith("\n")
    assert Trace().jsonl() == ""
