"""`courtroom merge`: join the outputs of sharded batches into one cohort folder and summary.

Each shard's submission folders carry a ``submission.json`` record with the submission's
manifest position, so the merged summary is ordered exactly as an unsharded run's would be.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from courtroom.cohort.summary import RECORD_FILE, SubmissionResult, write_summary
from courtroom.errors import EXIT_OK, UsageError

#: Folders a batch writes that are not submissions (the shared opinion cache).
NOT_SUBMISSIONS = frozenset({".courtroom-cache"})


def shard_records(shard_dir: Path) -> list[tuple[Path, SubmissionResult]]:
    """(folder, record) of every submission in a shard's output folder.

    Accepts the batch's ``--out`` folder itself or a folder of such folders (what
    ``actions/download-artifact`` produces when it fetches several artifacts).
    """
    if not shard_dir.is_dir():
        raise UsageError(f"{shard_dir}: not a folder")
    found: list[tuple[Path, SubmissionResult]] = []
    for record_path in sorted(shard_dir.glob(f"*/{RECORD_FILE}")) or sorted(
        shard_dir.glob(f"*/*/{RECORD_FILE}")
    ):
        folder = record_path.parent
        if folder.name in NOT_SUBMISSIONS:
            continue
        record = SubmissionResult.load(folder)
        if record is None:
            raise UsageError(f"{record_path}: unreadable submission record")
        found.append((folder, record))
    return found


def _better(new: SubmissionResult, old: SubmissionResult) -> bool:
    # A shard retried after a failure should win with its successful audit.
    return old.status == "failed" and new.status == "ok"


def merge_shards(shard_dirs: list[Path], out_dir: Path) -> list[SubmissionResult]:
    """Copy every submission folder into ``out_dir`` and write the merged summary there."""
    chosen: dict[str, tuple[Path, SubmissionResult]] = {}
    for shard_dir in shard_dirs:
        records = shard_records(shard_dir)
        if not records:
            raise UsageError(f"{shard_dir}: no submission folders (submission.json) found")
        for folder, record in records:
            old = chosen.get(record.name)
            if old is None or _better(record, old[1]):
                chosen[record.name] = (folder, record)
    out_dir.mkdir(parents=True, exist_ok=True)
    target_root = out_dir.resolve()
    for name, (folder, _record) in chosen.items():
        destination = target_root / name
        if folder.resolve() != destination:
            shutil.copytree(folder, destination, dirs_exist_ok=True)
    results = [record for _folder, record in chosen.values()]
    for record in results:
        # A resumed flag describes one shard's run, not the merged cohort.
        record.resumed = False
    write_summary(out_dir, results)
    return sorted(results, key=lambda r: r.index)


def merge_command(args: argparse.Namespace) -> int:
    """Run `courtroom merge SHARD_DIR... --out DIR`."""
    out = Path(args.out)
    results = merge_shards([Path(p) for p in args.shards], out)
    failed = sum(1 for r in results if r.status == "failed")
    print(
        f"courtroom: merged {len(results)} submissions from {len(args.shards)} folder(s), "
        f"{failed} failed; summary {out / 'cohort.md'}",
        file=sys.stderr,
    )
    return EXIT_OK
