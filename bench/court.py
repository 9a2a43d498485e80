"""Benchmark: what the court phase costs on a 10-criterion audit with 2 contested criteria.

Runs the same audit twice — court on, court off — through the real bench, the offline
judges and the court, with a fixed per-call latency standing in for a model round trip
(``--latency``), and prints the judge calls and wall time of each. Plea cases must add
zero calls; only the contested criteria pay for their hearing.

    .venv/bin/python bench/court.py [--latency 0.25] [--contested 2] [--repeat 3]
    .venv/bin/python bench/court.py --target . # the whole pipeline on a real repository
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from dataclasses import dataclass

from courtroom import chief_justice
from courtroom.court.session import CourtOutcome, hold_court
from courtroom.detectives.base import Case
from courtroom.detectives.docket import evidence_for
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.bench import JudgeBench
from courtroom.judges.offline import OfflineBackend
from courtroom.models import JUDGES, Evidence, JudicialOpinion
from courtroom.rubric import Rubric, parse_rubric
from courtroom.trace import Trace

CRITERIA = 10


class SlowOffline:
    """The offline judges behind a fixed delay, counting calls (a stand-in for Claude)."""

    name = "offline+latency"
    model: str | None = None
    api_version: str | None = None
    cacheable = True  # a stand-in for Claude, cached as Claude is

    def estimate_usd(self, request: JudgeRequest, output_tokens: int | None = None) -> None:
        return None

    def __init__(self, latency: float) -> None:
        self.inner = OfflineBackend()
        self.latency = latency
        self.calls = 0
        self._lock = threading.Lock()

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        with self._lock:
            self.calls += 1
        time.sleep(self.latency)
        return self.inner.opine(request)


def fixture(contested: int) -> tuple[Rubric, dict[str, Evidence]]:
    """Ten criteria, each with its own evidence; the first ``contested`` are disputed."""
    criteria, evidence = [], []
    for n in range(CRITERIA):
        tag = f"topic{n}"
        criteria.append({"id": f"criterion_{n}", "name": f"Criterion {n}", "evidence_tags": [tag],
                     "target_artifact": "github_repo", "forensic_instruction": "Look."})
        if n < contested:
            # Partly-done work with a history: the Prosecutor sees 1, the Defense 5.
            facts = [(f"partly wired part {k}", 0.4, True) for k in range(3)]
            facts.append(("iterative commits", 0.95, True))
        else:
            facts = [(f"solid part {k}", 0.9, True) for k in range(3)]
        for k, (goal, confidence, found) in enumerate(facts):
            tags = [tag, "github_repo"] + (["git"] if "commits" in goal else [])
            evidence.append(Evidence.make(
                detective="bench", goal=goal, found=found, location=f"src/m{n}_{k}.py:1",
                rationale="bench fixture", confidence=confidence, tags=tags,
                direction="supports"))
    text = json.dumps({"rubric_metadata": {"rubric_name": "bench", "version": "1"},
                       "dimensions": criteria})
    return parse_rubric(text, "bench"), {e.id: e for e in evidence}


@dataclass
class Run:
    calls: int
    seconds: float
    paths: dict[str, str]
    scores: dict[str, int]


def audit(rubric: Rubric, pool: dict[str, Evidence], latency: float, court: bool) -> Run:
    """Judge, (hear), synthesise; return calls, wall time, court paths and scores."""
    backend = SlowOffline(latency)
    bench = JudgeBench(backend, max_workers=30)
    trace = Trace()
    started = time.perf_counter()
    shown = {d.id: evidence_for(d, pool.values()) for d in rubric.criteria}
    requests = [JudgeRequest(persona=j, criterion=d, evidence=shown[d.id])
                for d in rubric.criteria for j in JUDGES]
    opinions: dict[str, list[JudicialOpinion]] = {d.id: [] for d in rubric.criteria}
    for opinion, _usage in bench.judge(requests):
        opinions[opinion.criterion_id].append(opinion)
    outcome = CourtOutcome(opinions=opinions)
    if court:
        case = Case(workspace=None)  # type: ignore[arg-type]  # no remand in this fixture
        outcome = hold_court(rubric, case, pool, shown, opinions, bench=bench, trace=trace)
    results = [
        outcome.settle(chief_justice.rule(d.id, d.name, outcome.opinions[d.id], pool,
                                          rubric.parameters))
        for d in rubric.criteria
    ]
    seconds = time.perf_counter() - started
    return Run(
        calls=backend.calls,
        seconds=seconds,
        paths={r.criterion_id: (r.court.path if r.court else "off") for r in results},
        scores={r.criterion_id: r.final_score for r in results},
    )


def pipeline(target: str, latency: float, court: bool) -> Run:
    """The whole audit (detectives included) on a repository, judges behind the latency."""
    import tempfile
    from pathlib import Path

    from courtroom.pipeline import audit as run_audit
    from courtroom.settings.config import AuditConfig

    backend = SlowOffline(latency)
    with tempfile.TemporaryDirectory() as out:
        config = AuditConfig(target=target, out_dir=Path(out), court=court, use_cache=False)
        started = time.perf_counter()
        verdict = run_audit(config, backend=backend).verdict
        seconds = time.perf_counter() - started
    assert verdict is not None
    return Run(
        calls=backend.calls,
        seconds=seconds,
        paths={r.criterion_id: (r.court.path if r.court else "off") for r in verdict.criteria},
        scores={r.criterion_id: r.final_score for r in verdict.criteria},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.25, help="seconds per judge call")
    parser.add_argument("--contested", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--target", help="run the whole pipeline on this repository instead")
    args = parser.parse_args()
    rubric, pool = fixture(args.contested)
    what = f"pipeline on {args.target}" if args.target else f"{args.contested} contested"
    print(f"{CRITERIA} criteria, {what}, {args.latency:.2f}s per call, "
          f"best and median of {args.repeat} runs")
    for court in (False, True):
        runs = [
            pipeline(args.target, args.latency, court) if args.target
            else audit(rubric, pool, args.latency, court)
            for _ in range(args.repeat)
        ]
        times = [r.seconds for r in runs]
        last = runs[-1]
        label = "court on " if court else "court off"
        print(f"{label}: {last.calls:3d} calls, wall {min(times):.2f}s best, "
              f"{statistics.median(times):.2f}s median")
        if court:
            counted: dict[str, int] = {}
            for path in last.paths.values():
                counted[path] = counted.get(path, 0) + 1
            print("  paths: " + ", ".join(f"{k} {v}" for k, v in sorted(counted.items())))
            contested = [c for c, p in last.paths.items() if p not in ("plea", "skipped")]
            print(f"  extra calls: {last.calls - 3 * CRITERIA} "
                  f"(all from {', '.join(contested) or 'nothing'}); plea criteria add 0")
        print("  scores: " + " ".join(str(s) for s in last.scores.values()))


if __name__ == "__main__":
    main()
