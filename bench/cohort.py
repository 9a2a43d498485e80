"""Benchmark: a cohort of generated Week-2 submissions audited offline with `run_batch`.

Prints the wall time, the per-submission median and mean, peak memory, and peak memory
against the number of submissions (each size runs in a fresh interpreter, because a
process's peak RSS only ever grows). Goal: under 1 s per submission on average on 2 cores,
memory flat in the number of submissions.

    .venv/bin/python bench/cohort.py                 # 10, 25, 50 submissions, both modes
    .venv/bin/python bench/cohort.py --sizes 50 --modes process
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from builders import Commit, make_pdf, make_repo  # noqa: E402

STATE = """from __future__ import annotations
import operator
from typing import Annotated, TypedDict
from pydantic import BaseModel, Field

class Evidence(BaseModel):
    goal: str
    found: bool
    location: str
    confidence: float = Field(ge=0, le=1)

class JudicialOpinion(BaseModel):
    judge: str
    score: int = Field(ge=1, le=5)
    argument: str

class AgentState(TypedDict):
    repo_url: str
    evidences: {evidences}
    opinions: {opinions}
"""

GRAPH = """from langgraph.graph import END, START, StateGraph
from src.state import AgentState
from src.nodes.detectives import repo_investigator, doc_analyst, vision_inspector
from src.nodes.judges import prosecutor, defense, tech_lead
from src.nodes.justice import chief_justice

builder = StateGraph(AgentState)
for name, node in [("repo", repo_investigator), ("doc", doc_analyst), ("vision", vision_inspector),
                   ("prosecutor", prosecutor), ("defense", defense), ("tech_lead", tech_lead),
                   ("chief_justice", chief_justice)]:
    builder.add_node(name, node)
builder.add_node("aggregate", lambda state: state)
{edges}
builder.add_edge("chief_justice", END)
graph = builder.compile()
"""

TOOLS_SAFE = """import subprocess
import tempfile

def clone_repo(url: str) -> str:
    workdir = tempfile.mkdtemp()
    subprocess.run(["git", "clone", "--depth", "50", url, workdir], check=True, timeout=120)
    return workdir
"""

TOOLS_UNSAFE = """import os

def clone_repo(url: str) -> str:
    os.system("git clone " + url + " /tmp/repo")
    return "/tmp/repo"
"""

JUDGES = """from src.state import JudicialOpinion

PROSECUTOR = "You are the Prosecutor. Trust no claim; look for gaps and security flaws."
DEFENSE = "You are the Defense. Reward effort and intent visible in the history."
TECH_LEAD = "You are the Tech Lead. Judge maintainability and whether it actually works."

def _judge(llm, prompt, state):
    return llm.with_structured_output(JudicialOpinion).invoke([prompt, str(state)])

def prosecutor(state): return {"opinions": [_judge(state["llm"], PROSECUTOR, state)]}
def defense(state): return {"opinions": [_judge(state["llm"], DEFENSE, state)]}
def tech_lead(state): return {"opinions": [_judge(state["llm"], TECH_LEAD, state)]}
"""

JUSTICE_RULES = """def chief_justice(state):
    ops = state["opinions"]
    scores = {o.judge: o.score for o in ops}
    if any("security" in o.argument.lower() for o in ops):
        return {"final": min(3, scores.get("TechLead", 3))}
    if max(scores.values()) - min(scores.values()) > 2:
        return {"final": scores.get("TechLead", 3), "dissent": True}
    return {"final": round(sum(scores.values()) / len(scores))}
"""

JUSTICE_LLM = """def chief_justice(state):
    return {"final": state["llm"].invoke("Average these opinions: " + str(state["opinions"]))}
"""


def submission(root: Path, n: int) -> tuple[Path, Path | None]:
    """One plausible submission; features vary with ``n`` so evidence differs."""
    reducers = n % 2 == 0
    state = STATE.format(
        evidences="Annotated[dict[str, list[Evidence]], operator.ior]" if reducers else "dict",
        opinions="Annotated[list[JudicialOpinion], operator.add]" if reducers else "list",
    )
    parallel = n % 3 != 1
    edges = "\n".join(
        [f'builder.add_edge(START, "{d}")' for d in ("repo", "doc", "vision")]
        + [f'builder.add_edge("{d}", "aggregate")' for d in ("repo", "doc", "vision")]
        + [f'builder.add_edge("aggregate", "{j}")' for j in ("prosecutor", "defense", "tech_lead")]
        + [
            f'builder.add_edge("{j}", "chief_justice")'
            for j in ("prosecutor", "defense", "tech_lead")
        ]
        if parallel
        else ['builder.add_edge(START, "repo")', 'builder.add_edge("repo", "chief_justice")']
    )
    steps = [
        Commit(
            "Set up the project with uv",
            {
                "pyproject.toml": f'[project]\nname = "auditor{n}"\n',
                "README.md": f"# Auditor {n}\n",
            },
        ),
        Commit("Add typed state", {"src/state.py": state}),
        Commit(
            "Add repository tools",
            {"src/tools/repo_tools.py": TOOLS_UNSAFE if n % 5 == 0 else TOOLS_SAFE},
        ),
        Commit(
            "Wire the graph",
            {
                "src/graph.py": GRAPH.format(edges=edges),
                "src/nodes/detectives.py": "def repo_investigator(s): return s\n"
                "def doc_analyst(s): return s\ndef vision_inspector(s): return s\n",
            },
        ),
        Commit("Add judges", {"src/nodes/judges.py": JUDGES}),
        Commit("Chief justice", {"src/nodes/justice.py": JUSTICE_RULES if n % 4 else JUSTICE_LLM}),
    ]
    repo = make_repo(root / f"student{n:02d}", steps[: 2 + n % 5] if n % 7 == 0 else steps)
    pdf = None
    if n % 4 != 3:
        pdf = make_pdf(
            root / f"student{n:02d}.pdf",
            [
                f"Automaton Auditor {n}\n\nDialectical synthesis: three judges argue.\n"
                "Fan-out / fan-in: detectives run in parallel into src/graph.py.",
                "Metacognition: the system evaluates its own evaluation.\n"
                "State reducers in src/state.py keep parallel writes safe.",
            ],
            diagram_on=[1] if n % 2 else [],
        )
    return repo, pdf


def make_manifest(root: Path, count: int) -> Path:
    """Generate ``count`` submissions and their CSV manifest."""
    lines = ["repo,pdf,name"]
    for n in range(count):
        repo, pdf = submission(root, n)
        lines.append(f"{repo},{pdf or ''},")
    manifest = root / "manifest.csv"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return manifest


def measured_audit(config: object) -> object:
    """The real audit, then note this worker's peak RSS (forkserver workers are not our
    children, so RUSAGE_CHILDREN cannot see them)."""
    import os

    from courtroom.cohort.settings import default_audit

    outcome = default_audit(config)  # type: ignore[arg-type]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    marks = Path(config.out_dir).parent / ".rss"  # type: ignore[attr-defined]
    marks.mkdir(exist_ok=True)
    (marks / str(os.getpid())).write_text(str(peak), encoding="utf-8")
    return outcome


def run_once(manifest: Path, size: int, mode: str, workers: int) -> dict[str, object]:
    """Audit the first ``size`` rows in this process; report timings and peak memory."""
    from courtroom.cohort.batch import run_batch
    from courtroom.cohort.manifest import load_manifest
    from courtroom.cohort.settings import BatchSettings
    from courtroom.rubric import default_rubric_path

    rows = load_manifest(manifest)[:size]
    with tempfile.TemporaryDirectory(prefix="cohort-bench-") as out:
        settings = BatchSettings(rubric_path=default_rubric_path(), cache_dir=Path(out) / ".cache")
        started = time.perf_counter()
        summary = run_batch(
            rows,
            Path(out),
            settings,
            measured_audit,
            workers=workers,
            mode=mode,  # type: ignore[arg-type]
        )
        wall = time.perf_counter() - started
        marks = [int(p.read_text()) for p in (Path(out) / ".rss").iterdir()]
    per = [r.seconds for r in summary.results]
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = max(marks) / 1024 if mode == "process" else 0.0
    return {
        "size": size,
        "mode": mode,
        "wall": wall,
        "failed": summary.failed,
        "median": statistics.median(per),
        "mean_wall": wall / size,
        "rss_parent_mb": own,
        "rss_child_mb": child,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,25,50")
    parser.add_argument("--modes", default="thread,process")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--run", nargs=3, metavar=("MANIFEST", "SIZE", "MODE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.run:
        print(json.dumps(run_once(Path(args.run[0]), int(args.run[1]), args.run[2], args.workers)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="cohort-src-") as src:
        t0 = time.perf_counter()
        manifest = make_manifest(Path(src), max(sizes))
        print(f"generated {max(sizes)} submissions in {time.perf_counter() - t0:.1f} s")
        print(
            f"{'mode':8} {'n':>3} {'wall s':>7} {'s/sub':>6} {'median':>7} "
            f"{'parent MB':>9} {'worker MB':>9} failed"
        )
        for mode in args.modes.split(","):
            for size in sizes:
                # A fresh interpreter per size: peak RSS is a high-water mark.
                out = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--workers",
                        str(args.workers),
                        "--run",
                        str(manifest),
                        str(size),
                        mode,
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                r = json.loads(out.stdout.strip().splitlines()[-1])
                print(
                    f"{r['mode']:8} {r['size']:>3} {r['wall']:>7.1f} {r['mean_wall']:>6.2f} "
                    f"{r['median']:>7.2f} {r['rss_parent_mb']:>9.0f} {r['rss_child_mb']:>9.0f} "
                    f"{r['failed']}"
                )


if __name__ == "__main__":
    main()
