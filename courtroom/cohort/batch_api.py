"""`courtroom batch --batch-api`: every Claude judge call of a cohort through Message Batches.

The pipeline is reused, not forked. A *collecting* pass audits the cohort with a backend
that only records what it is asked (under the real backend's name, so the opinion cache
keys match) and answers nothing. All recorded requests go out as one batch; its results
are written into the opinion cache. The next pass finds those opinions cached, and the
court may now ask hearing questions, which the pass collects in turn. When a pass
collects nothing, the ordinary batch runs with every opinion already cached. A result
that errored or did not validate is simply not cached: the last pass asks it directly.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from courtroom.cohort.batch import CohortSummary, run_batch
from courtroom.cohort.batch_client import MAX_REQUESTS, STATE_FILE, BatchClient, BatchState
from courtroom.cohort.keys import batch_key, can_resume, current_commit, prompts_digest
from courtroom.cohort.manifest import Row
from courtroom.cohort.settings import BatchSettings, default_audit
from courtroom.errors import ConfigError, JudgeError, JudgeOutputError
from courtroom.judges import claude_request
from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.cache import OpinionCache
from courtroom.models import JudgeName, JudicialOpinion
from courtroom.settings.config import AuditConfig

#: Hearing rounds make later passes; this bounds them (the court bounds rounds too).
MAX_PASSES = 6
Audit = Callable[..., Any]


class Collector:
    """A backend that records the requests of one audit and answers none of them."""

    #: Cacheable under the real backend's name, so what a batch already answered is served.
    cacheable = True
    model: str | None = None
    api_version: str | None = None

    def __init__(self, name: str, cache: OpinionCache) -> None:
        self.name = name
        self._cache = cache
        self._lock = threading.Lock()
        self.asked: dict[str, JudgeRequest] = {}

    def estimate_usd(self, request: JudgeRequest, output_tokens: int | None = None) -> None:
        """Free: nothing is sent while collecting."""
        return None

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """Record the request; raise so the bench falls back and caches nothing."""
        with self._lock:
            self.asked[self._cache.key(request, self.name)] = request
        raise JudgeError("deferred to the Message Batches API")

    def ready(self) -> dict[str, JudgeRequest]:
        """Only the earliest round asked: later rounds were built on placeholder opinions."""
        if not self.asked:
            return {}
        first = min(r.round for r in self.asked.values())
        return {k: r for k, r in self.asked.items() if r.round == first}


def params_for(request: JudgeRequest, model: str, max_tokens: int) -> dict[str, Any]:
    """The Messages API parameters of one judge call: the live backend's, exactly."""
    return claude_request.params(model, max_tokens, claude_request.first_messages(request))


def opinion_from(message: dict[str, Any], asked: dict[str, Any]) -> JudicialOpinion | None:
    """The opinion in a succeeded result, or None when it is cut off or does not validate."""
    try:
        draft = claude_request.parse(claude_request.answer_text(message), message)
    except JudgeOutputError:
        return None
    judge: JudgeName = asked["persona"]
    return claude_request.to_opinion(judge, str(asked["criterion_id"]), int(asked["round"]), draft)


def _wait(
    client: BatchClient, batch_id: str, poll: float, sleep: Callable[[float], None]
) -> dict[str, Any]:
    while True:
        batch = client.retrieve(batch_id)
        if batch.get("processing_status") == "ended":
            return batch
        counts = batch.get("request_counts") or {}
        print(
            f"courtroom: batch {batch_id}: {counts.get('processing', '?')} processing", flush=True
        )
        sleep(poll)


def import_results(
    client: BatchClient,
    state: BatchState,
    entry: dict[str, Any],
    cache: OpinionCache,
    *,
    poll: float,
    sleep: Callable[[float], None],
) -> dict[str, int]:
    """Wait for a batch to end and put every valid opinion into the cache."""
    batch = _wait(client, entry["id"], poll, sleep)
    counts = {"succeeded": 0, "invalid": 0, "errored": 0, "canceled": 0, "expired": 0}
    url = batch.get("results_url")
    for item in client.results(url) if url else iter(()):
        asked = entry["requests"].get(item.get("custom_id"))
        result = item.get("result") or {}
        kind = str(result.get("type", "errored"))
        if asked is None:
            continue
        opinion = opinion_from(result.get("message") or {}, asked) if kind == "succeeded" else None
        if opinion is not None:
            cache.put(str(item["custom_id"]), opinion)
            counts["succeeded"] += 1
        else:
            key = "invalid" if kind == "succeeded" else kind
            counts[key] = counts.get(key, 0) + 1
    state.mark_imported(entry["id"], counts)
    return counts


def _todo(rows: list[Row], out: Path, settings: BatchSettings) -> list[Row]:
    """Rows without a verdict for these exact inputs yet (the batch would resume the rest)."""
    prompts = prompts_digest()
    return [
        row
        for row in rows
        if not can_resume(
            out / row.name,
            batch_key(settings(row, out / row.name), current_commit(row.repo), prompts),
        )
    ]


def collect(
    rows: list[Row], settings: BatchSettings, name: str, audit_fn: Audit, workers: int
) -> dict[str, JudgeRequest]:
    """Audit ``rows`` with collecting backends into a scratch folder; the requests asked."""
    assert settings.cache_dir is not None
    cache = OpinionCache(settings.cache_dir)
    found: dict[str, JudgeRequest] = {}
    lock = threading.Lock()

    def one(config: AuditConfig) -> Any:
        collector = Collector(name, cache)
        outcome = audit_fn(config, backend=collector)
        with lock:
            found.update(collector.ready())
        return outcome

    with tempfile.TemporaryDirectory(prefix="courtroom-collect-") as scratch:
        run_batch(rows, Path(scratch), settings, one, workers=workers, mode="thread")
    return found


def _submit(
    client: BatchClient,
    state: BatchState,
    chunk: list[tuple[str, JudgeRequest]],
    model: str,
    max_tokens: int,
) -> dict[str, Any]:
    """Create one batch of judge calls and record it before anything else can fail."""
    batch = client.create(
        [{"custom_id": k, "params": params_for(r, model, max_tokens)} for k, r in chunk]
    )
    asked_by = {
        k: {"persona": r.persona, "criterion_id": r.criterion.id, "round": r.round}
        for k, r in chunk
    }
    state.add(str(batch["id"]), asked_by)
    print(f"courtroom: submitted batch {batch['id']} ({len(chunk)} judge calls)", flush=True)
    return state.batches[-1]


def run_with_batch_api(
    rows: list[Row],
    out: Path,
    settings: BatchSettings,
    *,
    workers: int = 2,
    audit_fn: Audit = default_audit,
    poll: float = 30.0,
    sleep: Callable[[float], None] = time.sleep,
    progress: Any = None,
) -> CohortSummary:
    """Judge the cohort through Message Batches, then write it as an ordinary batch would."""
    if settings.judges != "anthropic" or settings.api_key is None:
        raise ConfigError("--batch-api needs Claude judges: set ANTHROPIC_API_KEY")
    if not settings.use_cache or settings.cache_dir is None:
        raise ConfigError("--batch-api delivers opinions through the cache: drop --no-cache")
    key = settings.api_key.get_secret_value()
    backend = AnthropicBackend(model=settings.model, api_key=key, base_url=settings.base_url)
    version = backend.api_version or "2023-06-01"
    model, max_tokens = backend.model, backend.max_tokens
    client = BatchClient(api_key=key, version=version, base_url=settings.base_url)
    state = BatchState(out / STATE_FILE)
    cache = OpinionCache(settings.cache_dir)
    for entry in state.pending():
        # An earlier run was interrupted after submitting: collect what it paid for.
        counts = import_results(client, state, entry, cache, poll=poll, sleep=sleep)
        print(f"courtroom: resumed batch {entry['id']}: {counts}", flush=True)
    for _ in range(MAX_PASSES):
        submitted = {cid for b in state.batches for cid in b["requests"]}
        asked = collect(_todo(rows, out, settings), settings, backend.name, audit_fn, workers)
        fresh = {k: r for k, r in sorted(asked.items()) if k not in submitted}
        if not fresh:
            break
        items = list(fresh.items())
        for start in range(0, len(items), MAX_REQUESTS):
            entry = _submit(client, state, items[start : start + MAX_REQUESTS], model, max_tokens)
            counts = import_results(client, state, entry, cache, poll=poll, sleep=sleep)
            print(f"courtroom: batch {entry['id']} ended: {counts}", flush=True)
    # Every opinion the batches delivered is cached now; anything missing is asked directly.
    return run_batch(
        rows, out, settings, audit_fn, workers=workers, mode="thread", progress=progress
    )
