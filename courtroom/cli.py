"""The `courtroom` command: audit, verify, batch, merge and compare (DESIGN §5).

Exit status: 0 audit done (success or neutral), 1 conclusion failure (or a tampered
verdict), 2 bad input or usage, 3 the audit could not complete (partial state saved).
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


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _score(text: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
    if not 0 <= value <= 5:
        raise argparse.ArgumentTypeError("must be between 0 and 5")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = _Parser(prog="courtroom", description="Audit a repository like a court.")
    parser.add_argument("--version", action="version", version=f"courtroom {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("audit", help="audit one repository (and its PDF report)")
    run.add_argument("target", help="local path or git URL")
    run.add_argument("--pdf", type=Path, help="PDF report about the repository")
    run.add_argument("--rubric", type=Path, help="rubric JSON (default: the bundled rubric)")
    run.add_argument("--out", type=Path, help="output folder")
    run.add_argument("--judges", choices=["offline", "anthropic"], help="judge bench")
    run.add_argument("--model", help="Claude model for --judges anthropic")
    run.add_argument("--fail-below", type=_score, help="conclusion failure under this score")
    run.add_argument("--no-cache", action="store_true", help="ignore cached opinions")
    run.add_argument("--no-court", action="store_true", help="skip the court phase")
    run.add_argument("--name", help="name shown for the target")
    run.add_argument("--quiet", action="store_true", help="no progress display")

    ver = sub.add_parser("verify", help="check a verdict's integrity chain")
    ver.add_argument("verdict", type=Path)

    bat = sub.add_parser("batch", help="audit every submission of a manifest")
    bat.add_argument("manifest", type=Path, help="CSV (repo,pdf,name) or JSON list")
    bat.add_argument("--out", type=Path, required=True)
    bat.add_argument("--rubric", type=Path)
    bat.add_argument("--judges", choices=["offline", "anthropic"])
    bat.add_argument("--model")
    bat.add_argument("--fail-below", type=_score)
    bat.add_argument("--workers", type=int, default=2)
    bat.add_argument("--shard", help="i/n: audit only this shard of the manifest")
    bat.add_argument("--batch-api", action="store_true", help="Claude Message Batches API")
    bat.add_argument("--no-cache", action="store_true")

    mer = sub.add_parser("merge", help="merge shard outputs into one cohort summary")
    mer.add_argument("shards", type=Path, nargs="+")
    mer.add_argument("--out", type=Path, required=True)

    cmp_ = sub.add_parser("compare", help="compare two verdicts or a peer's Markdown report")
    cmp_.add_argument("a", type=Path)
    cmp_.add_argument("b", type=Path)
    return parser


#: sub-command -> "module:function"; imported on use so `courtroom verify` stays light.
HANDLERS = {
    "audit": "courtroom.commands:audit_command",
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
    """Entry point of the console script; the only broad catch of the command line."""
    try:
        args = build_parser().parse_args(argv)
        return _handler(args.command)(args)
    except CourtroomError as exc:
        print(f"courtroom: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("courtroom: interrupted", file=sys.stderr)
        return EXIT_CRITICAL
    except Exception as exc:
        if os.environ.get("COURTROOM_DEBUG"):
            raise
        print(f"courtroom: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_CRITICAL


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["EXIT_USAGE", "build_parser", "main"]
