"""Benchmark of the judicial phase against the local fake Messages API (no network).

1. 10 criteria x 3 personas at the default bound (8 in flight): wall time, what the prompt
   cache really holds (writes, reads, the system block and each criterion's prefix against
   the model's minimum cacheable length), and a second run over the opinion cache.
2. The same with the first calls rate-limited (429 + retry-after): waited out, no fallback.
3. Prompt sizes for a 1,000-file repository: the real detectives over 1,000 files of an
   installed library, the docket's cut, and what each criterion's prompt holds and leaves out.
4. What building the Claude backend costs, and that the detectives no longer wait for it.

    .venv/bin/python bench/judges.py [--latency 0.5] [--faults 3] [--files 1000]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakes.anthropic_server import FakeAnthropic, error, min_cacheable, tokens  # noqa: E402

from courtroom.detectives import open_workspace, run_detectives  # noqa: E402
from courtroom.detectives.base import Case  # noqa: E402
from courtroom.detectives.docket import evidence_for  # noqa: E402
from courtroom.judges import envelope  # noqa: E402
from courtroom.judges.backends import make_backend  # noqa: E402
from courtroom.judges.base import JudgeRequest, left_out  # noqa: E402
from courtroom.judges.bench import JudgeBench  # noqa: E402
from courtroom.judges.cache import OpinionCache  # noqa: E402
from courtroom.models import JUDGES, Evidence  # noqa: E402
from courtroom.pipeline import audit  # noqa: E402
from courtroom.rubric import default_rubric_path, load_rubric  # noqa: E402
from courtroom.settings.config import AuditConfig  # noqa: E402
from courtroom.trace import Trace  # noqa: E402

MODEL = "claude-sonnet-5-5"


def requests() -> list[JudgeRequest]:
    """Three personas on each of the 10 rubric criteria, eight facts per criterion."""
    rubric = load_rubric(default_rubric_path())
    out: list[JudgeRequest] = []
    for criterion in rubric.criteria:
        evidence = [
            Evidence.make(detective="bench", goal=f"{criterion.id} fact {i}", found=i % 3 != 0,
                          location=f"src/{criterion.id}_{i}.py:{10 + i}", rationale="bench fixture",
                          confidence=0.5 + i / 20, content="def node(state):\n    ...\n" * 20,
                          tags=[criterion.target_artifact])
            for i in range(8)
        ]
        out += [JudgeRequest(persona=p, criterion=criterion, evidence=evidence) for p in JUDGES]
    return out


def prompt_tokens(request: JudgeRequest) -> tuple[int, int, int]:
    """Tokens (fake's count) of the system block, the shared prefix and the whole prompt."""
    system = sum(tokens(b["text"]) for b in envelope.system_blocks())
    blocks = envelope.user_content(request)
    prefix = system + tokens(blocks[0]["text"])
    return system, prefix, prefix + sum(tokens(b["text"]) for b in blocks[1:])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run(latency: float, cache_dir: Path, label: str, faults: int = 0) -> None:
    fake = FakeAnthropic(latency=latency).start()
    fake.enqueue(*[error(429, "rate_limit_error", "bench", {"retry-after": "1"})] * faults)
    try:
        backend = make_backend("anthropic", api_key="sk-ant-bench-not-a-key",
                               base_url=fake.url, timeout=600.0)
        batch, trace = requests(), Trace()
        bench = JudgeBench(backend, cache=OpinionCache(cache_dir), trace=trace)
        started = time.perf_counter()
        answers = bench.judge(batch)
        wall = time.perf_counter() - started
        bench.close()
        per_call = [e["seconds"] for e in trace.events if e["event"] == "exit"]
        usage = bench.usage
        # Two waves per criterion (first persona, then the other two) at 8 in flight.
        bound = 2 * latency * -(-len(batch) // (3 * bench.max_workers)) * 1.5 + 0.5 + faults
        print(f"[{label}] L={latency:.2f}s  requests={usage.calls}  opinions={len(answers)}  "
              f"fallbacks={sum(o.fallback for o, _ in answers)}  max in flight="
              f"{fake.max_in_flight} (bound {bench.max_workers})  injected 429s={faults}")
        print(f"  wall time {wall:.3f}s (goal < {bound:.2f}s: {'PASS' if wall < bound else 'FAIL'})"
              f"  per-call p50 {statistics.median(per_call):.3f}s "
              f"p95 {percentile(per_call, 0.95):.3f}s")
        print(f"  prompt cache: {fake.cache.writes} writes, {fake.cache.reads} reads; tokens "
              f"in={usage.input_tokens} write={usage.cache_write_tokens} "
              f"read={usage.cache_read_tokens} out={usage.output_tokens}; "
              f"est. ${usage.estimated_cost_usd:.4f}")
        before = len(fake.requests)
        again = JudgeBench(backend, cache=OpinionCache(cache_dir))
        again.judge(batch)
        again.close()
        print(f"  second identical run: {len(fake.requests) - before} requests, "
              f"{again.usage.cached_opinions} cached opinions")
    finally:
        fake.stop()


def cache_facts() -> None:
    system, prefix, whole = prompt_tokens(requests()[0])
    least = min_cacheable(MODEL)
    print(f"[cache] {MODEL}: minimum cacheable prefix {least} tokens. System block {system} "
          f"tokens: {'cached' if system >= least else 'NOT cacheable alone'}; criterion prefix "
          f"{prefix} tokens: {'cached' if prefix >= least else 'not cached'}; whole prompt "
          f"{whole} tokens")


def large_repository(files: int) -> None:
    import anthropic

    source = Path(anthropic.__file__).parent
    picked = sorted(source.rglob("*.py"))[:files]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        for path in picked:
            target = root / path.relative_to(source.parent)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for args in (["init", "-q"], ["add", "-A"],
                     ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "import"]):
            subprocess.run(["git", *args], cwd=root, check=True)
        started = time.perf_counter()
        with open_workspace(str(root)) as workspace:
            pool = run_detectives(Case(workspace=workspace)).evidence
        took = time.perf_counter() - started
    rubric = load_rubric(default_rubric_path())
    print(f"[1,000-file repository] {len(picked)} files of an installed library: "
          f"{len(pool)} facts in {took:.1f}s")
    for criterion in rubric.criteria:
        shown = evidence_for(criterion, pool)
        cut = left_out(criterion, pool, shown)
        request = JudgeRequest(persona="TechLead", criterion=criterion, evidence=shown, omitted=cut)
        _system, prefix, whole = prompt_tokens(request)
        kinds = ", ".join(f"{k}: {n}" for k, n in cut.items()) or "none"
        print(f"  {criterion.id:32} shown {len(shown):2}  prompt ~{whole:6} tokens "
              f"(prefix {prefix})  left out {sum(cut.values()):4} ({kinds})")


def backend_build() -> None:
    code = ("import time; t=time.perf_counter(); "
            "from courtroom.judges.backends import make_backend; "
            "make_backend('anthropic', api_key='sk-ant-x', base_url='http://127.0.0.1:9'); "
            "print(round(time.perf_counter()-t, 3))")
    cold = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()
    fake = FakeAnthropic().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            repo = Path(tmp) / "r"
            (repo / "src").mkdir(parents=True)
            (repo / "src" / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
            trace = Trace()
            audit(AuditConfig(target=str(repo), out_dir=Path(tmp) / "out", judges="anthropic",
                              api_key="sk-ant-bench", base_url=fake.url, court=False,
                              cache_dir=Path(tmp) / "cache"), trace=trace)
            start = next(e["t"] for e in trace.events if e["stage"] == "detect")
    finally:
        fake.stop()
    print(f"[backend] importing anthropic + building the client: {cold}s (fresh process); "
          f"the detectives started {start * 1000:.0f} ms into the audit (built on its own thread)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="fake latency L (s)")
    parser.add_argument("--faults", type=int, default=3, help="429s injected in the last case")
    parser.add_argument("--files", type=int, default=1000, help="files of the large repo (0: skip)")
    args = parser.parse_args()
    cache_facts()
    with tempfile.TemporaryDirectory() as tmp:
        run(args.latency, Path(tmp) / "fast", "10x3")
        run(args.latency, Path(tmp) / "429", "10x3+429", faults=args.faults)
    backend_build()
    if args.files:
        large_repository(args.files)


if __name__ == "__main__":
    main()
