"""The opinion cache: a key that changes with every input that shapes an answer, and
stored opinions served only for the input and the judge they were given for."""

from __future__ import annotations

from pathlib import Path

from verdict_builders import make_opinion

from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.base import JudgeRequest
from courtroom.judges.bench import JudgeBench
from courtroom.judges.cache import OpinionCache
from courtroom.models import JUDGES, JudgeName

from .conftest import ev, make_criterion, mixed_evidence

CID = "safe_tool_engineering"


def request(persona: JudgeName = "Prosecutor", evidence: list | None = None,
            **kw: object) -> JudgeRequest:
    facts = mixed_evidence() if evidence is None else evidence
    return JudgeRequest(persona=persona, criterion=make_criterion(), evidence=facts, **kw)


def test_second_identical_audit_makes_zero_calls(fake, claude: AnthropicBackend,
                                                  tmp_path: Path) -> None:
    requests = [request(p) for p in JUDGES]
    first = JudgeBench(claude, cache=OpinionCache(tmp_path)).judge(requests)
    assert len(fake.requests) == 3
    bench = JudgeBench(claude, cache=OpinionCache(tmp_path))
    again = bench.judge(requests)
    assert len(fake.requests) == 3 and bench.usage.cached_opinions == 3
    assert bench.usage.calls == 0
    assert [o for o, _ in again] == [o for o, _ in first]
    # --no-cache asks again (and refreshes the stored opinions).
    JudgeBench(claude, cache=OpinionCache(tmp_path, read=False)).judge(requests)
    assert len(fake.requests) == 6


def test_cache_key_changes_with_evidence_and_model(tmp_path: Path) -> None:
    cache = OpinionCache(tmp_path)
    base = cache.key(request(), "anthropic:a")
    assert base == cache.key(request(), "anthropic:a")
    assert base != cache.key(request(), "anthropic:b")
    assert base != cache.key(request(evidence=mixed_evidence()[:3]), "anthropic:a")
    assert base != cache.key(request("Defense"), "anthropic:a")


def test_cache_key_changes_with_the_hearing_and_what_was_left_out(tmp_path: Path) -> None:
    cache = OpinionCache(tmp_path)
    base = cache.key(request(), "anthropic:a")
    heard = {
        "round": cache.key(request(round=1), "anthropic:a"),
        "peers": cache.key(request(peers=[make_opinion("Defense", CID, 4)]), "anthropic:a"),
        "previous": cache.key(request(previous=make_opinion("Prosecutor", CID, 4)), "anthropic:a"),
        "omitted": cache.key(request(omitted={"repo, supports": 2}), "anthropic:a"),
    }
    assert base not in heard.values() and len(set(heard.values())) == len(heard)


def test_cache_key_ignores_scan_timings_but_not_facts(tmp_path: Path) -> None:
    cache = OpinionCache(tmp_path)

    def keyed(rationale: str, content: str = "x") -> str:
        item = ev("Security scan", content=content).model_copy(update={"rationale": rationale})
        return cache.key(request(evidence=[item]), "anthropic:a")

    assert keyed("scanned 79 files in 1.47s") == keyed("scanned 79 files in 1.52s")
    assert keyed("scanned 79 files in 1.47s") != keyed("scanned 80 files in 1.47s")
    assert keyed("r", "a") != keyed("r", "b")


def test_a_stored_opinion_comes_back_only_for_its_own_judge(tmp_path: Path) -> None:
    cache = OpinionCache(tmp_path)
    key = cache.key(request(), "offline")
    cache.put(key, make_opinion("Prosecutor", CID, 4))
    assert cache.get(key, request()) == make_opinion("Prosecutor", CID, 4)
    assert cache.get(key, request("Defense")) is None


def test_a_fallback_is_never_stored_so_the_next_audit_asks_again(tmp_path: Path) -> None:
    cache = OpinionCache(tmp_path)
    key = cache.key(request(), "offline")
    cache.put(key, make_opinion("Prosecutor", CID, 3, fallback=True))
    assert cache.get(key, request()) is None
    assert not list(tmp_path.rglob("*.json"))


def test_a_damaged_entry_is_a_miss_not_an_error(tmp_path: Path) -> None:
    cache = OpinionCache(tmp_path)
    key = cache.key(request(), "offline")
    cache.put(key, make_opinion("Prosecutor", CID, 4))
    (stored,) = tmp_path.rglob("*.json")
    stored.write_text('{"score": 9', encoding="utf-8")
    assert cache.get(key, request()) is None


def test_no_cache_reads_nothing_but_still_refreshes(tmp_path: Path) -> None:
    key = OpinionCache(tmp_path).key(request(), "offline")
    OpinionCache(tmp_path).put(key, make_opinion("Prosecutor", CID, 2))
    fresh = OpinionCache(tmp_path, read=False)
    assert fresh.get(key, request()) is None
    fresh.put(key, make_opinion("Prosecutor", CID, 5))
    assert OpinionCache(tmp_path).get(key, request()) == make_opinion("Prosecutor", CID, 5)


def test_a_cache_folder_that_cannot_be_written_is_only_a_lost_saving(tmp_path: Path) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    cache = OpinionCache(blocked)
    key = cache.key(request(), "offline")
    cache.put(key, make_opinion("Prosecutor", CID, 4))
    assert cache.get(key, request()) is None
