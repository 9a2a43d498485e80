"""Benchmark the taint engine alone on real library code: time, findings and its work budget.

Run: .venv/bin/python bench/taint.py [--files 1000,5000]

Takes the same files as ``bench/detectives.py --growth --source real`` (the installed
site-packages, sorted, under 600 KB each), parses them, releases their trees as an audit
does once the security detective is the last one running (a file read again is parsed
again, within ``parsing.KEPT_TREE_BYTES``), and runs the security detective's taint step
(every module-name layer) once per size, each in a fresh interpreter. Prints wall and CPU
seconds, the flows found (sinks reached, and calls cut at a bound: by depth or past the
work budget), the files whose analysis did not finish, the trees parsed again, and peak
RSS (the parse of every file, before the release, is part of it). A spent work
budget means the scan of that tree is incomplete (it fails closed), so a change that makes
the engine faster without lowering the cut count has only moved the cost.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from courtroom.detectives.parsing import SourceIndex, TreeCache, parse_bytes  # noqa: E402
from courtroom.detectives.security.detective import _taint  # noqa: E402
from courtroom.detectives.security.taint.program import BOUND_RULE  # noqa: E402


def one_size(files: int) -> None:
    """Child of main: one size, printed as one JSON line."""
    site = Path(sysconfig.get_paths()["purelib"])
    chosen = sorted(p for p in site.rglob("*.py") if p.stat().st_size < 600_000)[:files]
    parsed = [parse_bytes(str(p.relative_to(site)), p.read_bytes()) for p in chosen]
    cache = TreeCache()
    SourceIndex(parsed, [], len(parsed)).release(cache)
    start, cpu = time.perf_counter(), time.process_time()
    flows, unfinished = _taint(parsed, {})
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    cuts = [f for f in flows if f.rule == BOUND_RULE]
    print(json.dumps({
        "files": len(parsed), "seconds": seconds, "cpu": cpu,
        "sinks": len(flows) - len(cuts),
        "budget_cuts": sum("work budget" in f.steps[-1].note for f in cuts),
        "other_cuts": sum("work budget" not in f.steps[-1].note for f in cuts),
        "unfinished": len(unfinished), "reparsed": cache.parsed,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> None:
    """Each size in its own interpreter; one row each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", default="1000,5000", help="comma-separated sizes")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one_size(args.one)
        return
    print(f"{'files':>6} {'wall s':>7} {'cpu s':>7} {'sinks':>6} {'budget cuts':>11} "
          f"{'other cuts':>10} {'unfinished':>10} {'reparsed':>8} {'peak RSS MB':>11}")
    for n in (int(x) for x in args.files.split(",")):
        out = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True,
                             text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        print(f"{row['files']:>6} {row['seconds']:>7.1f} {row['cpu']:>7.1f} {row['sinks']:>6} "
              f"{row['budget_cuts']:>11} {row['other_cuts']:>10} {row['unfinished']:>10} "
              f"{row['reparsed']:>8} {row['rss_mb']:>11.0f}", flush=True)


if __name__ == "__main__":
    main()
