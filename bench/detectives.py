"""Benchmark the evidence phase: a 200-file, 100-commit repository and a 10-page PDF.

Run: .venv/bin/python bench/detectives.py [--files 200] [--commits 100] [--pages 10]

Prints the wall time of ``run_detectives`` (cold: first run in the process; warm: a
fresh workspace after warm-up), each detective's time, peak memory, and bandit alone on
the same files (bandit's own BanditManager, the usual way to run it). Goal: under 3 s
and under 2x bandit alone on 2 cores.

Growth: ``--growth 200,1000,5000 [--source real|generated]`` runs the evidence phase once
per size in a fresh interpreter (so each size's peak RSS is its own) on real library code
(the installed site-packages, files in sorted order) or on the generated look-alike code,
and prints seconds, CPU seconds, peak RSS and bandit alone side by side.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from builders import Commit, make_pdf, make_repo  # noqa: E402
from detectives.submissions import (  # noqa: E402
    DETECTIVES,
    GRAPH,
    JUDGES,
    JUDGES_WIRING,
    JUSTICE,
    NODES,
    STATE,
    TOOLS,
)

from courtroom.detectives import Case, open_workspace, run_detectives  # noqa: E402
from courtroom.detectives.report import pdf_read  # noqa: E402
from courtroom.problems import error_lines  # noqa: E402
from courtroom.trace import Trace  # noqa: E402

MODULE = '''"""Generated module {i}: a helper with typical audit-tool code."""
import json
import os
import subprocess
from pathlib import Path

from pydantic import BaseModel


class Record{i}(BaseModel):
    name: str
    score: int = 0
    notes: list[str] = []


def load_{i}(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def run_{i}(args: list[str], cwd: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return out.stdout


def summarise_{i}(records: list[Record{i}]) -> dict:
    total = sum(r.score for r in records)
    best = max(records, key=lambda r: r.score) if records else None
    result = {{"total": total, "best": best.name if best else None}}
    for r in records:
        if r.score > 3:
            result.setdefault("high", []).append(r.name)
        elif r.score < 2:
            result.setdefault("low", []).append(r.name)
        else:
            result.setdefault("mid", []).append(r.name)
    return result


def scratch_{i}() -> Path:
    base = Path(os.environ.get("TMPDIR", "/tmp"))
    return base / "scratch-{i}"
'''
RISKY = '''
def shell_{i}(cmd):
    os.system("echo " + cmd)


def evaluate_{i}(expr):
    return eval(expr)
'''

PAGES = [
    "Architecture report. Page {n}.\n"
    "Dialectical Synthesis is implemented by three judge nodes that read the same evidence and\n"
    "argue from opposed lenses; the chief justice node resolves their conflict with rules.\n"
    "Fan-Out: the START node fans out to three detective nodes that run in parallel, and the\n"
    "evidence_aggregator node is the fan-in join. State Synchronization relies on an\n"
    "operator.add reducer in the TypedDict state. Metacognition: the graph checks its own\n"
    "evidence citations. See src/graph.py, src/state.py and src/missing_{n}.py.\n"
]


def build(root: Path, files: int, commits: int, pages: int) -> tuple[Path, Path]:
    """Write the benchmark repository (files spread over commits) and PDF."""
    fixed = {"src/state.py": STATE, "src/nodes/names.py": NODES, "src/graph.py": GRAPH,
             "src/judges_wiring.py": JUDGES_WIRING, "src/nodes/judges.py": JUDGES,
             "src/justice.py": JUSTICE, "src/tools/repo_tools.py": TOOLS,
             "src/nodes/detectives.py": DETECTIVES}
    contents: dict[str, str] = dict(fixed)
    i = 0
    while len(contents) < files:
        body = MODULE.format(i=i) + (RISKY.format(i=i) if i % 10 == 0 else "")
        contents[f"src/pkg{i % 12}/mod_{i}.py"] = body
        i += 1
    items = sorted(contents.items())
    per = max(1, -(-len(items) // commits))
    stages = ["setup", "tools", "graph orchestration"]
    todo = []
    for c in range(commits):
        chunk = dict(items[c * per:(c + 1) * per]) or {"NOTES.md": f"note {c}\n"}
        todo.append(Commit(f"{stages[c * 3 // commits]}: step {c}", chunk))
    repo = make_repo(root / "repo", todo)
    pdf = make_pdf(root / "report.pdf", [PAGES[0].format(n=n) for n in range(pages)],
                   diagram_on=[2, 5], image_on=[0])
    return repo, pdf


def evidence_phase(repo: Path, pdf: Path | None) -> tuple[float, int, list[str]]:
    """One run of the evidence phase on a fresh workspace: (seconds, items, errors)."""
    pdf_read._cache.clear()  # an honest run reads the PDF again
    trace = Trace()
    start = time.perf_counter()
    with open_workspace(str(repo), timeout=60) as ws:
        found = run_detectives(Case(workspace=ws, pdf=pdf,
                                    pdf_display=pdf.name if pdf else None),
                               trace=trace)
        evidence, errors = found.evidence, found.problems
    seconds = time.perf_counter() - start
    LAST_TIMINGS.clear()
    LAST_TIMINGS.update({e["detective"]: e["seconds"] for e in trace.events
                         if e["stage"] == "detect" and e["event"] == "detective"})
    return seconds, len(evidence), error_lines(errors)


#: Seconds each detective took in the last evidence_phase run (from its trace).
LAST_TIMINGS: dict[str, float] = {}


def bandit_alone(repo: Path) -> tuple[float, int]:
    """Bandit's own manager over the same repository: (seconds, issues)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from bandit.core import config, manager

    logging.getLogger("bandit").setLevel(logging.CRITICAL)
    start = time.perf_counter()
    mgr = manager.BanditManager(config.BanditConfig(), "file", quiet=True)
    mgr.discover_files([str(repo)], recursive=True)
    mgr.run_tests()
    return time.perf_counter() - start, len(mgr.get_issue_list())


def real_repo(root: Path, files: int) -> Path:
    """A repository of ``files`` real library modules copied from site-packages."""
    site = Path(sysconfig.get_paths()["purelib"])
    chosen = sorted(p for p in site.rglob("*.py") if p.stat().st_size < 600_000)[:files]
    for path in chosen:
        target = root / "repo" / path.relative_to(site)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    subprocess.run(["git", "init", "-q", str(root / "repo")], check=True)
    subprocess.run(["git", "-C", str(root / "repo"), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root / "repo"), "-c", "user.name=b", "-c",
                    "user.email=b@b", "commit", "-qm", "library code"], check=True)
    return root / "repo"


def one_size(files: int, source: str) -> None:
    """Child of --growth: one size, printed as one JSON line."""
    with tempfile.TemporaryDirectory(prefix="courtroom-bench-") as tmp:
        if source == "real":
            repo, pdf = real_repo(Path(tmp), files), None
        else:
            repo, pdf = build(Path(tmp), files, 20, 2)
        cpu = time.process_time()
        seconds, _, errors = evidence_phase(repo, pdf)
        cpu = time.process_time() - cpu
        timings = dict(LAST_TIMINGS)
        # The audit's own high-water mark, taken before bandit alone runs in this process.
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        bandit = bandit_alone(repo)[0]
    print(json.dumps({"files": files, "seconds": seconds, "cpu": cpu + children.ru_utime,
                      "security": timings.get("security", 0.0), "rss_mb": rss,
                      "bandit": bandit, "errors": errors}))


def growth(sizes: list[int], source: str) -> None:
    """Each size in its own interpreter; a table of the growth."""
    print(f"growth on {source} code (evidence phase vs bandit alone, same files):")
    print(f"{'files':>6} {'audit s':>8} {'cpu s':>7} {'security s':>10} {'bandit s':>9} "
          f"{'ratio':>6} {'peak RSS MB':>11}")
    for n in sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(n), "--source", source],
                             capture_output=True, text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        print(f"{n:>6} {row['seconds']:>8.1f} {row['cpu']:>7.1f} {row['security']:>10.1f} "
              f"{row['bandit']:>9.1f} {row['seconds'] / row['bandit']:>6.2f} "
              f"{row['rss_mb']:>11.0f}", flush=True)


def main() -> None:
    """Build the fixtures, time everything, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--commits", type=int, default=100)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--growth", help="comma-separated sizes, e.g. 200,1000,5000")
    parser.add_argument("--source", choices=("real", "generated"), default="real")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))[:2]
        os.sched_setaffinity(0, cpus)
    if args.one:
        one_size(args.one, args.source)
        return
    if args.growth:
        growth([int(n) for n in args.growth.split(",")], args.source)
        return
    with tempfile.TemporaryDirectory(prefix="courtroom-bench-") as tmp:
        t0 = time.perf_counter()
        repo, pdf = build(Path(tmp), args.files, args.commits, args.pages)
        py_files = len(list(repo.rglob("*.py")))
        print(f"fixture: {py_files} Python files, {args.commits} commits, {args.pages}-page PDF "
              f"(built in {time.perf_counter() - t0:.1f}s) on {len(os.sched_getaffinity(0))} "
              "cores")
        cold, items, errors = evidence_phase(repo, pdf)
        cold_timings = dict(LAST_TIMINGS)
        warm_runs = [evidence_phase(repo, pdf)[0] for _ in range(3)]
        warm = min(warm_runs)
        warm_timings = dict(LAST_TIMINGS)
        bandit_runs = [bandit_alone(repo) for _ in range(3)]
        bandit = min(b[0] for b in bandit_runs)
        tracemalloc.start()
        evidence_phase(repo, pdf)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"evidence items: {items}; errors: {errors or 'none'}")
        print(f"evidence phase wall time: cold {cold:.2f}s, warm {warm:.2f}s "
              f"(best of 3: {', '.join(f'{w:.2f}' for w in warm_runs)})")
        print("per-detective seconds (cold / warm, run concurrently):")
        for name in sorted(warm_timings, key=lambda n: -cold_timings.get(n, 0)):
            print(f"  {name:<18} {cold_timings.get(name, 0):6.3f} / {warm_timings[name]:6.3f}")
        print(f"bandit alone (BanditManager, same files): {bandit:.2f}s, "
              f"{bandit_runs[0][1]} issues")
        print(f"ratio evidence phase / bandit alone: cold {cold / bandit:.2f}x, "
              f"warm {warm / bandit:.2f}x")
        print(f"peak traced Python memory during one run: {peak / 1e6:.1f} MB; "
              f"process max RSS: {rss:.0f} MB")
        verdict = "MET" if cold < 3 and warm / bandit < 2 else "NOT MET"
        print(f"goal (< 3 s, < 2x bandit alone): {verdict}")


if __name__ == "__main__":
    main()
