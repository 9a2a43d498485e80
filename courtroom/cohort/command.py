"""The `courtroom batch` command: manifest -> shard -> run_batch -> one summary line.

Also the pieces a batch needs from the outside world: the settings shared by every
submission (``BatchSettings``, picklable for process workers), the default audit runner,
and the progress display (rich on a terminal, plain log lines elsewhere).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from courtroom.cohort.batch import BatchStatus, CohortSummary, Mode, run_batch
from courtroom.cohort.manifest import Row, load_manifest, shard
from courtroom.cohort.settings import BatchSettings, default_audit
from courtroom.errors import (
    EXIT_CRITICAL,
    EXIT_FAILURE,
    EXIT_OK,
    UsageError,
)
from courtroom.rubric import default_rubric_path
from courtroom.settings.config import choose_judges, env_api_key, user_cache_dir
from courtroom.settings.effective import batch_fields
from courtroom.settings.schema import flag_values
from courtroom.untrusted import log_line


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def status_line(status: BatchStatus) -> str:
    """One plain progress line: done / failed / remaining, elapsed, ETA, last submission."""
    line = (
        f"courtroom batch: {status.done}/{status.total} done ({status.failed} failed, "
        f"{status.resumed} resumed), {status.remaining} remaining, "
        f"elapsed {_clock(status.elapsed)}, eta {_clock(status.eta)}"
    )
    last = status.last
    if last is not None:
        what = (
            last.failure
            if last.status == "failed"
            else ("resumed" if last.resumed else f"{last.overall_score:.2f} {last.conclusion}")
        )
        line += f" — {last.name}: {what}"
    return log_line(line)  # a failure quotes the submission: one line, no command in it


class _Display:
    """A rich bar on a terminal; plain lines on CI logs, where redraws would be noise."""

    def __init__(self, rich: bool) -> None:
        self.bar = None
        if rich:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeElapsedColumn(),
                TextColumn("{task.fields[extra]}"),
                transient=False,
            )
            self.task = self.bar.add_task("batch", total=None, extra="")
            self.bar.start()

    def __call__(self, status: BatchStatus) -> None:
        if self.bar is None:
            if status.last is not None or status.total == 0:
                print(status_line(status), file=sys.stderr, flush=True)
            return
        extra = f"{status.failed} failed · {status.remaining} left · eta {_clock(status.eta)}"
        self.bar.update(self.task, completed=status.done, total=status.total, extra=extra)
        if status.last is not None and status.last.status == "failed":
            from rich.markup import escape  # rich is loaded for the bar already

            said = escape(log_line(f"{status.last.name}: {status.last.failure}"))
            self.bar.console.print(f"[red]failed[/red] {said}")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def settings_from_args(args: argparse.Namespace, env: Mapping[str, str]) -> BatchSettings:
    """The shared settings of a batch: flags, then ``--config FILE``, then defaults.

    A batch never reads the submissions' own config files: the operator sets the rules.
    """
    flags = flag_values(args, "batch")
    use_cache, cache_dir = flags.pop("use_cache"), flags.pop("cache_dir")
    fields, sources = batch_fields(flags, args.config)
    return BatchSettings(
        rubric_path=Path(fields.pop("rubric_path", default_rubric_path())).resolve(),
        judges=fields.pop("judges", None) or choose_judges(None, env),
        model=fields.pop("model", None),
        api_key=env_api_key(env),
        base_url=env.get("ANTHROPIC_BASE_URL") or None,
        use_cache=use_cache is not False,
        cache_dir=(cache_dir or user_cache_dir(env)).expanduser().resolve(),
        shared={**fields, "sources": sources},
    )


def _run(
    rows: list[Row], out: Path, settings: BatchSettings, args: argparse.Namespace, display: _Display
) -> CohortSummary:
    # Offline audits are CPU-bound Python, so only processes use both cores (see
    # bench/cohort.py); Claude judging waits on the network, where threads suffice.
    mode: Mode = "process" if settings.judges == "offline" and args.workers > 1 else "thread"
    if getattr(args, "batch_api", False):
        from courtroom.cohort.batch_api import run_with_batch_api

        return run_with_batch_api(rows, out, settings, workers=args.workers, progress=display)
    return run_batch(
        rows, out, settings, default_audit, workers=args.workers, progress=display, mode=mode
    )


def batch_command(args: argparse.Namespace) -> int:
    """Run `courtroom batch`: exit 0 when every submission was audited, 1 when some failed.

    Interrupted (Ctrl-C, SIGINT), it exits 3 like any audit that could not complete: the
    submissions already written are kept and the same command resumes after them.
    """
    env = dict(os.environ)
    rows = load_manifest(args.manifest)
    if args.shard:
        rows = shard(rows, args.shard)
    settings = settings_from_args(args, env)
    out = Path(args.out).resolve()
    print(f"courtroom: judges: {settings.judges}; {len(rows)} submissions", file=sys.stderr)
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    display = _Display(sys.stderr.isatty())
    try:
        summary = _run(rows, out, settings, args, display)
    except KeyboardInterrupt:
        print(
            "courtroom: batch interrupted; finished submissions are kept in "
            f"{out}: run the same command again to resume",
            file=sys.stderr,
        )
        return EXIT_CRITICAL
    finally:
        display.stop()
    print(
        f"courtroom: {len(summary.results)} submissions, {summary.failed} failed, "
        f"{summary.resumed} resumed; summary {summary.paths['markdown']}",
        file=sys.stderr,
    )
    return EXIT_FAILURE if summary.failed else EXIT_OK
