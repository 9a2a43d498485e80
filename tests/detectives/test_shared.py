"""Analyses shared between detectives: built once per workspace, typed, never a blackboard."""

from __future__ import annotations

import gc
import threading
import weakref
from pathlib import Path

from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.shared import per_workspace


def test_a_shared_analysis_is_built_once_per_workspace_even_when_callers_race(
    tmp_path: Path,
) -> None:
    builds: list[str] = []
    started = threading.Barrier(8)

    @per_workspace
    def files_seen(ws: Workspace) -> tuple[str, ...]:
        builds.append(ws.display)
        return tuple(ws.files())

    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    ws = Workspace(tmp_path, "one")
    seen: list[tuple[str, ...]] = []

    def call() -> None:
        started.wait()
        seen.append(files_seen(ws))

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == ["one"] and seen == [("a.py",)] * 8
    assert all(value is seen[0] for value in seen)  # the one value, shared
    other = Workspace(tmp_path, "two")
    assert files_seen(other) == ("a.py",) and builds == ["one", "two"]


def test_a_shared_analysis_goes_with_its_workspace(tmp_path: Path) -> None:
    @per_workspace
    def words(ws: Workspace) -> list[str]:
        return [ws.display]

    ws = Workspace(tmp_path, "gone")
    gone = weakref.ref(ws)
    assert words(ws) == ["gone"]
    del ws
    gc.collect()
    assert gone() is None  # the cache held no strong reference to the audit's tree
