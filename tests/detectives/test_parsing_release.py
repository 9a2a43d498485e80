"""A released index: trees parsed again on demand, within a budget of source bytes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from courtroom.detectives import REGISTRY, run_detectives
from courtroom.detectives.base import Case
from courtroom.detectives.parsing import (
    REPARSE_FACTOR,
    SourceFile,
    SourceIndex,
    TreeCache,
    parse_bytes,
    release_trees,
    source_index,
)
from courtroom.models import Evidence
from detectives.conftest import OpenCase
from detectives.submissions import flawed_submission


def _index(sizes: list[int]) -> SourceIndex:
    """Files of the given sizes (each a run of assignments), in path order."""
    files = [parse_bytes(f"m{i}.py", b"x = 1\n" * (size // 6)) for i, size in enumerate(sizes)]
    return SourceIndex(files, [], len(files))


def _text(sf: SourceFile) -> bytes:
    return sf.source[sf.root.start_byte:sf.root.end_byte]


def test_a_repository_within_the_budget_is_never_parsed_twice() -> None:
    index = _index([600, 600, 600])
    cache = TreeCache(budget=10_000)
    index.release(cache)
    for sf in index.files * 2:
        assert isinstance(sf.tree, TreeCache) and _text(sf) == sf.source
    assert cache.parsed == 0


def test_scans_in_order_past_the_budget_parse_only_what_is_not_kept() -> None:
    index = _index([600] * 10)
    cache = TreeCache(budget=4_000)  # three quarters keep the last five released trees
    index.release(cache)
    for scan in range(1, 4):
        for sf in index.files:
            assert _text(sf) == sf.source
        # A least-recently-used cache would miss at every read of such a scan (10, 20, 30).
        assert cache.parsed == 5 * scan


def test_a_tree_parsed_again_is_kept_while_it_is_read_and_the_oldest_goes() -> None:
    index = _index([600] * 6)
    cache = TreeCache(budget=3_000)  # last three released kept; room for one parsed again
    index.release(cache)
    first, second = index.files[:2]
    assert _text(first) and _text(first) and cache.parsed == 1
    assert _text(second) and cache.parsed == 2  # drops first
    assert _text(second) and _text(first) and cache.parsed == 3
    assert all(_text(sf) for sf in index.files[3:]) and cache.parsed == 3


def test_files_made_to_miss_at_every_read_cost_memory_not_endless_parsing() -> None:
    index = _index([600] * 4)
    cache = TreeCache(budget=1)  # one tree kept: reading round and round misses every time
    index.release(cache)
    for _ in range(100):
        for sf in index.files:
            assert _text(sf) == sf.source
    # Past REPARSE_FACTOR times the source every tree is kept: each dropped one is parsed
    # once more, then never again (400 reads would otherwise have parsed 400 times).
    assert cache.parsed <= (REPARSE_FACTOR + 1) * len(index.files) + 1


def test_releasing_twice_or_before_the_index_exists_changes_nothing(
        tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(flawed_submission(tmp_path / "r"))
    release_trees(case.workspace)  # nothing built yet: nothing to release, nothing built
    assert source_index.peek(case.workspace) is None
    index = source_index(case.workspace)
    release_trees(case.workspace)
    caches = {id(sf.tree) for sf in index.files}
    release_trees(case.workspace)
    assert {id(sf.tree) for sf in index.files} == caches and len(caches) == 1


def test_the_runner_releases_the_trees_when_one_detective_is_left(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    first_done = threading.Event()

    def quick(case: Case) -> list[Evidence]:
        source_index(case.workspace)
        first_done.set()
        return []

    def last(case: Case) -> list[Evidence]:
        index = source_index(case.workspace)
        first_done.wait(5)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not isinstance(index.files[-1].tree, TreeCache):
            time.sleep(0.01)
        seen.append(all(isinstance(sf.tree, TreeCache) for sf in index.files))
        return []

    monkeypatch.setitem(REGISTRY, "zz_quick", quick)
    monkeypatch.setitem(REGISTRY, "zz_last", last)
    run_detectives(open_case(flawed_submission(tmp_path / "r")), only=["zz_quick", "zz_last"])
    assert seen == [True]
