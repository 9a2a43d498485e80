"""Reuse across audits of a PR: the previous comment's opinions seed the cache under their
keys, and this run's keys are read back for the next comment."""

from __future__ import annotations

from pathlib import Path

from verdict_builders import make_opinion

from courtroom.publish.github.reuse import opinion_keys, seed_cache


def test_seeds_land_where_the_cache_reads_them(tmp_path: Path) -> None:
    first, second = make_opinion("Defense", "c", 4), make_opinion("TechLead", "c", 3)
    written = seed_cache(tmp_path, {"ab" * 32: first, "cd" * 32: second})
    assert written == {"ab" * 32, "cd" * 32}
    assert (tmp_path / "ab" / f"{'ab' * 32}.json").is_file()
    assert seed_cache(tmp_path / "none", {}) == set()


def test_a_fallback_seed_is_not_written(tmp_path: Path) -> None:
    failed = make_opinion("Defense", "c", 3, fallback=True)
    assert seed_cache(tmp_path, {"ef" * 32: failed}) == set()


def test_every_key_of_an_opinion_is_read_back_in_a_stable_order(tmp_path: Path) -> None:
    kept = make_opinion("Prosecutor", "c", 2)
    seed_cache(tmp_path, {"bb" * 32: kept, "aa" * 32: kept,
                          "cc" * 32: make_opinion("Defense", "c", 5)})
    (tmp_path / "zz").mkdir()
    (tmp_path / "zz" / "junk.json").write_text("not json", encoding="utf-8")
    (tmp_path / "zz" / "other.json").write_text('{"score": 3}', encoding="utf-8")
    keys = opinion_keys(tmp_path)
    assert keys[kept.opinion_id] == ["aa" * 32, "bb" * 32]
    assert len(keys) == 2
    assert opinion_keys(tmp_path / "missing") == {}
