"""Audit every submission of a cohort with bounded workers, resumably, and summarise them.

The audit itself is injected (``audit_fn``), so the batch logic is tested with fakes and
reused by the Message Batches path. A submission that fails in any way becomes an error
row; the rest of the cohort goes on.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from courtroom.child import start_forkserver
from courtroom.cohort.keys import (
    KEY_FILE,
    batch_key,
    can_resume,
    current_commit,
    prompts_digest,
    write_key,
)
from courtroom.cohort.manifest import Row
from courtroom.cohort.summary import SubmissionResult, write_summary
from courtroom.errors import CourtroomError
from courtroom.settings.config import AuditConfig

if TYPE_CHECKING:
    # Only for annotations: the batch logic runs (and is tested) without the whole court.
    from courtroom.pipeline import AuditOutcome

AuditFn = Callable[[AuditConfig], "AuditOutcome"]
MakeConfig = Callable[[Row, Path], AuditConfig]
Mode = Literal["thread", "process"]


@dataclass(frozen=True)
class BatchStatus:
    """Where a running batch stands; handed to the progress display after every result."""

    total: int
    done: int
    failed: int
    resumed: int
    elapsed: float
    last: SubmissionResult | None = None

    @property
    def remaining(self) -> int:
        """Submissions not finished yet."""
        return self.total - self.done

    @property
    def eta(self) -> float | None:
        """Seconds left at the pace of the submissions actually audited (not resumed)."""
        worked = self.done - self.resumed
        if worked <= 0 or self.remaining == 0:
            return None if self.remaining else 0.0
        return self.elapsed / worked * self.remaining


BatchProgress = Callable[[BatchStatus], None]


@dataclass
class CohortSummary:
    """What a batch produced: one result per submission and the summary files."""

    results: list[SubmissionResult]
    paths: dict[str, Path] = field(default_factory=dict)
    elapsed: float = 0.0

    @property
    def failed(self) -> int:
        """Submissions with an error row."""
        return sum(1 for r in self.results if r.status == "failed")

    @property
    def resumed(self) -> int:
        """Submissions whose stored verdict was reused."""
        return sum(1 for r in self.results if r.resumed)


def audit_submission(
    row: Row, folder: Path, config: AuditConfig, audit_fn: AuditFn, prompts: str
) -> SubmissionResult:
    """Audit one submission (or reuse its stored verdict); never raises.

    Module-level on purpose: a process pool pickles it by name.
    """
    started = time.perf_counter()
    result: SubmissionResult
    try:
        # Only a folder with a stored key can be resumed; skip the lookup (for a URL, a
        # network round trip) otherwise. The key written below takes the verdict's commit.
        commit = current_commit(row.repo) if (folder / KEY_FILE).is_file() else None
        key = batch_key(config, commit, prompts)
        prior = SubmissionResult.load(folder) if can_resume(folder, key) else None
        if prior is not None and prior.status == "ok":
            prior.index, prior.name, prior.repo, prior.resumed = row.index, row.name, row.repo, True
            return prior
        outcome = audit_fn(config)
        if outcome.verdict is None:
            result = _failed(row, outcome.error or "the audit could not complete", commit)
        else:
            result = SubmissionResult.from_verdict(row.index, row.name, row.repo, outcome.verdict)
            # The key describes the verdict actually made, so record the commit it audited.
            write_key(folder, {**key, "commit": outcome.verdict.target.commit or commit})
    except CourtroomError as exc:
        result = _failed(row, str(exc), None)
    except Exception as exc:
        # Deliberately broad: a bug tripped by one odd submission must not stop a cohort.
        result = _failed(row, f"internal error: {type(exc).__name__}: {exc}", None)
    if result.status == "failed":
        (folder / KEY_FILE).unlink(missing_ok=True)
    result.seconds = round(time.perf_counter() - started, 3)
    result.save(folder)
    return result


def _failed(row: Row, message: str, commit: str | None) -> SubmissionResult:
    return SubmissionResult(
        index=row.index,
        name=row.name,
        repo=row.repo,
        status="failed",
        commit=commit,
        failure=message.splitlines()[0] if message else "failed",
    )


def _executor(mode: Mode, workers: int) -> Executor:
    if mode == "thread":
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cohort")
    # forkserver: workers start clean (no copied locks or threads of this process).
    # No max_tasks_per_child: on Python 3.11 recycling workers can hang the pool for good
    # (observed here with 50 submissions: the pool never replaced its retired workers);
    # bench/cohort.py shows the workers' memory stays flat without it.
    start_forkserver()  # not from the caller's directory: it may hold a hostile package
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("forkserver")
    )


def _drain(
    pending: dict[Future[SubmissionResult], Row],
    out_dir: Path,
    results: list[SubmissionResult],
    report: Callable[[SubmissionResult | None], None],
) -> None:
    """Collect the submissions in the order they finish, reporting each."""
    while pending:
        done, _ = wait_futures(pending, return_when="FIRST_COMPLETED")
        for future in done:
            row = pending.pop(future)
            results.append(_collect(future, row, out_dir / row.name))
            report(results[-1])


def run_batch(
    rows: list[Row],
    out_dir: Path,
    make_config: MakeConfig,
    audit_fn: AuditFn,
    *,
    workers: int = 2,
    progress: BatchProgress | None = None,
    mode: Mode = "thread",
) -> CohortSummary:
    """Audit ``rows`` into ``out_dir/<name>/`` with ``workers`` at a time; write the summary."""
    out_dir.mkdir(parents=True, exist_ok=True)
    prompts = prompts_digest()
    started = time.perf_counter()
    results: list[SubmissionResult] = []

    def report(last: SubmissionResult | None) -> None:
        if progress is not None:
            failed = sum(1 for r in results if r.status == "failed")
            resumed = sum(1 for r in results if r.resumed)
            elapsed = time.perf_counter() - started
            progress(BatchStatus(len(rows), len(results), failed, resumed, elapsed, last))

    report(None)
    pool = _executor(mode, max(1, workers))
    try:
        pending: dict[Future[SubmissionResult], Row] = {}
        for row in rows:
            folder = out_dir / row.name
            try:
                config = make_config(row, folder)
            except (CourtroomError, ValueError) as exc:  # ValueError: pydantic validation
                results.append(_failed(row, str(exc), None))
                results[-1].save(folder)
                report(results[-1])
                continue
            future = pool.submit(audit_submission, row, folder, config, audit_fn, prompts)
            pending[future] = row
        _drain(pending, out_dir, results, report)
    finally:
        # On Ctrl-C, drop what has not started; finished submissions are saved and resume.
        pool.shutdown(wait=True, cancel_futures=True)
        paths = write_summary(out_dir, results)
    return CohortSummary(
        sorted(results, key=lambda r: r.index), paths, time.perf_counter() - started
    )


def _collect(future: Future[SubmissionResult], row: Row, folder: Path) -> SubmissionResult:
    """A worker's result; a crashed worker process becomes an error row too."""
    try:
        return future.result()
    except Exception as exc:
        # A worker process that died (BrokenProcessPool) or could not pickle its result.
        result = _failed(row, f"worker failed: {type(exc).__name__}: {exc}", None)
        result.save(folder)
        return result
