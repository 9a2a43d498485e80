"""Cohorts: batch audits of many submissions, shard merging, and comparing audits.

The command handlers are imported lazily so `courtroom compare` does not load the
pipeline, and the batch pieces stay importable without the whole court.
"""

from __future__ import annotations

import argparse


def batch_command(args: argparse.Namespace) -> int:
    """`courtroom batch MANIFEST --out DIR` (see courtroom.cohort.command)."""
    from courtroom.cohort.command import batch_command as run

    return run(args)


def merge_command(args: argparse.Namespace) -> int:
    """`courtroom merge SHARD_DIR... --out DIR` (see courtroom.cohort.merge)."""
    from courtroom.cohort.merge import merge_command as run

    return run(args)


def compare_command(args: argparse.Namespace) -> int:
    """`courtroom compare A B` (see courtroom.cohort.compare)."""
    from courtroom.cohort.compare import compare_command as run

    return run(args)


__all__ = ["batch_command", "compare_command", "merge_command"]
