"""The `courtroom` command: audit, verify, batch, merge and compare (DESIGN §5).

Exit status: 0 audit done (success or neutral), 1 conclusion failure (or a tampered
verdict, or a batch with failed submissions), 2 bad input or usage, 3 the audit could not
complete (partial state saved) or was interrupted (a batch resumes where it stopped).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path

from courtroom import __version__
from courtroom.errors import EXIT_CRITICAL, EXIT_USAGE, CourtroomError, UsageError
from courtroom.settings.schema import add_flags
from courtroom.untrusted import inert_output, log_line


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # main() adds "courtroom: "; name only the sub-command, so no prefix is doubled.
        sub = self.prog.removeprefix("courtroom").strip()
        raise UsageError(f"{sub}: {message}" if sub else message)


def _settings(p: argparse.ArgumentParser, command: str) -> None:
    """The operator's config file, then one flag per setting (courtroom.settings.schema)."""
    p.add_argument("--config", type=Path, metavar="FILE",
                   help="settings file to use instead of the target's .github/courtroom.yml; "
                        "'none': ignore that file (grading someone else's repository)")
    add_flags(p, command)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = _Parser(prog="courtroom", description="Audit a repository like a court.")
    parser.add_argument("--version", action="version", version=f"courtroom {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND", help="what to do"
    )

    run = sub.add_parser("audit", help="audit one repository (and its PDF report)")
    run.add_argument("target", help="local path or git URL")
    run.add_argument("--out", type=Path, metavar="DIR", help="output folder")
    _settings(run, "audit")
    run.add_argument("--name", help="name shown for the target")
    run.add_argument("--quiet", action="store_true", help="no progress display")

    ver = sub.add_parser("verify", help="check a verdict's integrity chain")
    ver.add_argument("verdict", type=Path, help="the verdict.json to check")

    bat = sub.add_parser("batch", help="audit every submission of a manifest")
    bat.add_argument("manifest", type=Path, help="CSV (repo,pdf,name) or JSON list")
    bat.add_argument("--out", type=Path, required=True, metavar="DIR",
                     help="output folder: one sub-folder per submission, and the summary")
    _settings(bat, "batch")
    bat.add_argument("--workers", type=int, default=2, metavar="N",
                     help="submissions audited at once (default: 2)")
    bat.add_argument("--shard", metavar="i/n", help="audit only this shard of the manifest")
    bat.add_argument("--batch-api", action="store_true",
                     help="judge through Claude's Message Batches API (half price, slower)")

    mer = sub.add_parser("merge", help="merge shard outputs into one cohort summary")
    mer.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR",
                     help="output folders of `courtroom batch --shard` runs")
    mer.add_argument("--out", type=Path, required=True, metavar="DIR",
                     help="folder for the merged summary")

    cmp_ = sub.add_parser("compare", help="compare two verdicts or a peer's Markdown report")
    cmp_.add_argument("a", type=Path, help="first verdict.json")
    cmp_.add_argument("b", type=Path, help="second verdict.json, or a peer's report.md")
    return parser


#: sub-command -> "module:function"; imported on use so `courtroom verify` stays light.
HANDLERS = {
    "audit": "courtroom.cli.audit:audit_command",
    "verify": "courtroom.integrity:verify_command",
    "batch": "courtroom.cohort:batch_command",
    "merge": "courtroom.cohort:merge_command",
    "compare": "courtroom.cohort:compare_command",
}


def _handler(command: str) -> Callable[[argparse.Namespace], int]:
    module, _, name = HANDLERS[command].partition(":")
    fn: Callable[[argparse.Namespace], int] = getattr(import_module(module), name)
    return fn


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; the only broad catch of the command line.

    Whatever is printed quotes the audited repository (its file names, its config, its
    PDF): every line goes out defused, so a CI job running this command on someone else's
    repository never takes a line of it for a workflow command (``courtroom.untrusted``).
    """
    with inert_output():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return _handler(args.command)(args)
    except CourtroomError as exc:
        print(f"courtroom: {log_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("courtroom: interrupted", file=sys.stderr)
        return EXIT_CRITICAL
    except Exception as exc:
        if os.environ.get("COURTROOM_DEBUG"):
            raise
        print(f"courtroom: internal error: {type(exc).__name__}: {log_line(str(exc))}",
              file=sys.stderr)
        return EXIT_CRITICAL


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["EXIT_USAGE", "build_parser", "main"]
