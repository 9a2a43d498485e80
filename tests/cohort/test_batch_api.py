"""--batch-api against a local fake of the Message Batches endpoints, with the real pipeline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from cohort.batch_server import FakeBatches
from cohort.fakes import make_cohort, write_csv
from courtroom.cohort.batch_api import run_with_batch_api
from courtroom.cohort.batch_client import STATE_FILE
from courtroom.cohort.manifest import Row, load_manifest
from courtroom.cohort.settings import BatchSettings
from courtroom.errors import ConfigError
from courtroom.rubric import default_rubric_path, load_rubric

CALLS_PER_AUDIT = 3 * len(load_rubric(default_rubric_path()).criteria)


@pytest.fixture
def fake() -> Iterator[FakeBatches]:
    server = FakeBatches(polls_before_end=2)
    yield server
    server.stop()


def _setup(tmp_path: Path, fake: FakeBatches, count: int = 3) -> tuple[list[Row], BatchSettings]:
    repos = make_cohort(tmp_path / "repos", count)
    rows = load_manifest(write_csv(tmp_path / "m.csv", [str(r) for r in repos]))
    settings = BatchSettings(
        rubric_path=default_rubric_path(),
        judges="anthropic",
        api_key=SecretStr("sk-test-key"),
        base_url=fake.url,
        cache_dir=tmp_path / "out" / ".courtroom-cache",
    )
    return rows, settings


def _no_sleep(seconds: float) -> None:
    return None


def test_one_batch_for_the_whole_cohort(tmp_path: Path, fake: FakeBatches) -> None:
    rows, settings = _setup(tmp_path, fake)
    out = tmp_path / "out"
    summary = run_with_batch_api(rows, out, settings, workers=2, poll=0, sleep=_no_sleep)
    assert fake.counts["create"] == 1  # every judge call of every submission, one batch
    ids = [r["custom_id"] for r in fake.batches["msgbatch_0001"]["requests"]]
    # Identical judge calls (same criterion, evidence and persona) are asked once.
    assert len(ids) == len(set(ids)) and CALLS_PER_AUDIT <= len(ids) <= 3 * CALLS_PER_AUDIT
    assert fake.counts["direct"] == 0  # nothing was asked outside the batch
    assert fake.counts["retrieve"] == 3 and fake.counts["results"] == 1  # polled to the end
    assert all(h.get("x-api-key") == "sk-test-key" for h in fake.headers)
    assert all(h.get("anthropic-version") for h in fake.headers)
    assert [r.status for r in summary.results] == ["ok"] * 3
    verdict = json.loads((out / "sub00" / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["bench"].startswith("anthropic:")
    assert verdict["usage"]["cached_opinions"] == CALLS_PER_AUDIT
    assert all(o["score"] == 3 for c in verdict["criteria"] for o in c["opinions"])
    state = json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
    assert state["batches"][0]["imported"] is True
    assert state["batches"][0]["counts"]["succeeded"] == len(ids)
    # A rerun resumes every stored verdict: no new batch, no call.
    again = run_with_batch_api(rows, out, settings, workers=2, poll=0, sleep=_no_sleep)
    assert again.resumed == 3 and fake.counts["create"] == 1 and fake.counts["direct"] == 0


def test_errored_results_are_asked_directly(tmp_path: Path) -> None:
    fake = FakeBatches(polls_before_end=0, fail=2)
    try:
        rows, settings = _setup(tmp_path, fake, count=2)
        summary = run_with_batch_api(rows, tmp_path / "out", settings, poll=0, sleep=_no_sleep)
    finally:
        fake.stop()
    assert fake.counts["create"] == 1
    # Errored results are not resubmitted in a new batch: the last pass asks them directly
    # (once per submission that shares the identical call).
    assert 2 <= fake.counts["direct"] <= 4
    assert summary.failed == 0


def test_an_interrupted_run_resumes_its_saved_batch(tmp_path: Path, fake: FakeBatches) -> None:
    rows, settings = _setup(tmp_path, fake, count=2)
    out = tmp_path / "out"

    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_with_batch_api(rows, out, settings, poll=0, sleep=interrupt)
    state = json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
    assert [b["imported"] for b in state["batches"]] == [False]
    summary = run_with_batch_api(rows, out, settings, poll=0, sleep=_no_sleep)
    assert fake.counts["create"] == 1  # the saved batch id was picked up, not paid twice
    assert fake.counts["direct"] == 0
    assert [r.status for r in summary.results] == ["ok", "ok"]


def test_batch_api_needs_claude_and_the_cache(tmp_path: Path, fake: FakeBatches) -> None:
    rows, settings = _setup(tmp_path, fake, count=1)
    offline = BatchSettings(rubric_path=default_rubric_path())
    with pytest.raises(ConfigError, match="needs Claude"):
        run_with_batch_api(rows, tmp_path / "o", offline)
    uncached = BatchSettings(**{**settings.__dict__, "use_cache": False})
    with pytest.raises(ConfigError, match="no-cache"):
        run_with_batch_api(rows, tmp_path / "o", uncached)


def test_court_hearings_go_out_as_a_second_batch(tmp_path: Path) -> None:
    fake = FakeBatches(polls_before_end=0, split=True)
    try:
        rows, settings = _setup(tmp_path, fake, count=2)
        summary = run_with_batch_api(rows, tmp_path / "out", settings, poll=0, sleep=_no_sleep)
    finally:
        fake.stop()
    assert fake.counts["create"] >= 2  # first opinions, then the hearing rounds they caused
    assert fake.counts["direct"] == 0  # every hearing call went through a batch too
    first, *later = fake.batches.values()
    assert all(len(r["params"]["messages"][0]["content"]) == 2 for r in first["requests"])
    assert all(
        len(r["params"]["messages"][0]["content"]) == 3 for b in later for r in b["requests"]
    )
    verdict = json.loads((tmp_path / "out" / "sub00" / "verdict.json").read_text(encoding="utf-8"))
    paths = {c["court"]["path"] for c in verdict["criteria"] if c.get("court")}
    assert paths - {"skipped"}, paths  # the court did hear contested criteria
    assert summary.failed == 0
