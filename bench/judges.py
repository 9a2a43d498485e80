"""Benchmark of the judicial phase: 10 criteria x 3 personas against the local fake Messages API.

The fake answers every call after a fixed latency L. The calls must overlap, so the whole
phase should take under 1.5 x L + 0.5 s; a slow fake checks that p95 per-call latency stays
under 15 s. A second run over the same opinion cache must make zero calls.

    .venv/bin/python bench/judges.py [--latency 0.5] [--slow 6.0] [--faults 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakes.anthropic_server import FakeAnthropic, error  # noqa: E402

from courtroom.judges import JudgeBench, OpinionCache, make_backend  # noqa: E402
from courtroom.judges.base import JudgeRequest  # noqa: E402
from courtroom.models import JUDGES, Evidence  # noqa: E402
from courtroom.rubric import default_rubric_path, load_rubric  # noqa: E402
from courtroom.trace import Trace  # noqa: E402


def requests() -> list[JudgeRequest]:
    """Three personas on each of the 10 rubric criteria, eight facts per criterion."""
    rubric = load_rubric(default_rubric_path())
    out: list[JudgeRequest] = []
    for dim in rubric.dimensions:
        evidence = [
            Evidence.make(detective="bench", goal=f"{dim.id} fact {i}", found=i % 3 != 0,
                          location=f"src/{dim.id}_{i}.py:{10 + i}", rationale="bench fixture",
                          confidence=0.5 + i / 20, content="def node(state):\n    ...\n" * 20,
                          tags=[dim.target_artifact])
            for i in range(8)
        ]
        out += [JudgeRequest(persona=p, dimension=dim, evidence=evidence) for p in JUDGES]
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def run(latency: float, cache_dir: Path, label: str, faults: int = 0) -> None:
    fake = FakeAnthropic(latency=latency).start()
    # The first calls meet a rate limit (retry-after 1 s) and must still finish in time.
    fake.enqueue(*[error(429, "rate_limit_error", "bench", {"retry-after": "1"})] * faults)
    try:
        backend = make_backend("anthropic", model=None, api_key="sk-ant-bench-not-a-key",
                               base_url=fake.url, timeout=max(30.0, latency * 3))
        batch = requests()
        trace = Trace()
        bench = JudgeBench(backend, max_workers=30, cache=OpinionCache(cache_dir), trace=trace)
        started = time.perf_counter()
        answers = bench.judge(batch)
        wall = time.perf_counter() - started
        per_call = [e["seconds"] for e in trace.events if e["event"] == "exit"]
        usage = bench.usage
        bound = 1.5 * latency + 0.5
        print(f"[{label}] L={latency:.2f}s  calls={usage.calls}  opinions={len(answers)}  "
              f"fallbacks={sum(o.fallback for o, _ in answers)}  "
              f"max in flight={fake.max_in_flight}  injected 429s={faults}")
        print(f"  judicial phase wall time {wall:.3f}s  (bound 1.5xL+0.5 = {bound:.2f}s: "
              f"{'PASS' if wall < bound else 'FAIL'})")
        print(f"  per-call latency p50 {statistics.median(per_call):.3f}s  "
              f"p95 {percentile(per_call, 0.95):.3f}s  (goal p95 < 15s: "
              f"{'PASS' if percentile(per_call, 0.95) < 15 else 'FAIL'})")
        print(f"  tokens in={usage.input_tokens} out={usage.output_tokens} "
              f"cache write={usage.cache_write_tokens} cache read={usage.cache_read_tokens}  "
              f"est. cost ${usage.estimated_cost_usd:.4f} ({usage.model}, API {usage.api_version})")

        before = len(fake.requests)
        again = JudgeBench(backend, max_workers=30, cache=OpinionCache(cache_dir))
        started = time.perf_counter()
        again.judge(batch)
        print(f"  second identical run: {len(fake.requests) - before} calls, "
              f"{again.usage.cached_opinions} cached opinions, "
              f"{time.perf_counter() - started:.3f}s")
    finally:
        fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="fake latency L (s)")
    parser.add_argument("--slow", type=float, default=6.0, help="latency of the slow case (s)")
    parser.add_argument("--faults", type=int, default=3, help="429s injected in the last case")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(args.latency, Path(tmp) / "fast", "fast")
        run(args.slow, Path(tmp) / "slow", "slow")
        run(args.slow, Path(tmp) / "slow+429", "slow+429", faults=args.faults)


if __name__ == "__main__":
    main()
