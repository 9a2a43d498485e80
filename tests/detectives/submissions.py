"""Realistic Week-2 submissions to audit: exemplary, flawed and mixed (never executed)."""

from __future__ import annotations

from pathlib import Path

from builders import Commit, make_pdf, make_repo

STATE = '''"""Shared graph state."""
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
    score: int
    argument: str


class AgentState(TypedDict):
    repo_url: str
    evidences: Annotated[dict[str, list[Evidence]], operator.ior]
    opinions: Annotated[list[JudicialOpinion], operator.add]
    final_report: str
'''

NODES = '''"""Node names shared by the graph modules."""
REPO_INVESTIGATOR = "repo_investigator"
DOC_ANALYST = "doc_analyst"
VISION_INSPECTOR = "vision_inspector"
EVIDENCE_AGGREGATOR = "evidence_aggregator"
PROSECUTOR = "prosecutor"
DEFENSE = "defense"
TECH_LEAD = "tech_lead"
CHIEF_JUSTICE = "chief_justice"
'''

GRAPH = '''"""Build the auditor graph: detectives fan out, judges fan out, chief justice decides."""
from langgraph.graph import END, START, StateGraph

from src.nodes import names as n
from src.nodes.detectives import doc_analyst, repo_investigator, vision_inspector
from src.judges_wiring import add_judges
from src.state import AgentState


def route_after_evidence(state: AgentState) -> str:
    if not state["evidences"]:
        return "missing_evidence"
    return "judge"


def build_graph():
    builder = StateGraph(AgentState)
    builder.add_node(n.REPO_INVESTIGATOR, repo_investigator)
    builder.add_node(n.DOC_ANALYST, doc_analyst)
    builder.add_node(n.VISION_INSPECTOR, vision_inspector)
    builder.add_node(n.EVIDENCE_AGGREGATOR, lambda s: s)
    builder.add_node("handle_missing", lambda s: s)
    builder.add_edge(START, n.REPO_INVESTIGATOR)
    builder.add_edge(START, n.DOC_ANALYST)
    builder.add_edge(START, n.VISION_INSPECTOR)
    builder.add_edge(
        [n.REPO_INVESTIGATOR, n.DOC_ANALYST, n.VISION_INSPECTOR], n.EVIDENCE_AGGREGATOR
    )
    builder.add_conditional_edges(
        n.EVIDENCE_AGGREGATOR,
        route_after_evidence,
        {"judge": "judges_entry", "missing_evidence": "handle_missing"},
    )
    builder.add_edge("handle_missing", END)
    add_judges(builder)
    return builder.compile()
'''

JUDGES_WIRING = '''"""Judges are wired in their own module (graph split across files)."""
from langgraph.graph import END, StateGraph

from src.nodes.judges import defense, prosecutor, tech_lead
from src.justice import chief_justice

JUDGES_ENTRY = "judges_entry"


def add_judges(builder: StateGraph) -> None:
    builder.add_node(JUDGES_ENTRY, lambda s: s)
    builder.add_node("prosecutor", prosecutor)
    builder.add_node("defense", defense)
    builder.add_node("tech_lead", tech_lead)
    builder.add_node("chief_justice", chief_justice)
    for judge in ("prosecutor", "defense", "tech_lead"):
        pass
    builder.add_edge(JUDGES_ENTRY, "prosecutor")
    builder.add_edge(JUDGES_ENTRY, "defense")
    builder.add_edge(JUDGES_ENTRY, "tech_lead")
    builder.add_edge(["prosecutor", "defense", "tech_lead"], "chief_justice")
    builder.add_edge("chief_justice", END)
'''

JUDGES = '''"""The three judges, each with its own lens, bound to a structured output schema."""
from tenacity import retry, stop_after_attempt

from src.state import AgentState, JudicialOpinion

PROSECUTOR_PROMPT = (
    "You are the Prosecutor. Trust nothing and assume vibe coding. Hunt for missing "
    "reducers, linear pipelines posing as parallel ones, shell injection and hallucinated "
    "files. Charge every gap you can prove with cited evidence and argue for the lowest score."
)
DEFENSE_PROMPT = (
    "You are the Defense attorney. Reward effort, intent and the engineering spirit. Look at "
    "the commit history for struggle and iteration, credit partial implementations and "
    "explain mitigating circumstances so the team gets fair credit for what works."
)
TECH_LEAD_PROMPT = (
    "You are the Tech Lead. Ask only whether it actually works and can be maintained. Weigh "
    "architecture soundness, error handling, typing and technical debt; break ties "
    "pragmatically and give a concrete remediation a junior engineer could follow."
)


@retry(stop=stop_after_attempt(3))
def _opine(llm, prompt: str, state: AgentState) -> JudicialOpinion:
    judge = llm.with_structured_output(JudicialOpinion)
    return judge.invoke([("system", prompt), ("user", str(state["evidences"]))])


def prosecutor(state: AgentState):
    return {"opinions": [_opine(None, PROSECUTOR_PROMPT, state)]}


def defense(state: AgentState):
    return {"opinions": [_opine(None, DEFENSE_PROMPT, state)]}


def tech_lead(state: AgentState):
    return {"opinions": [_opine(None, TECH_LEAD_PROMPT, state)]}
'''

JUSTICE = '''"""Chief justice: deterministic rules, no LLM."""
from src.state import AgentState

WEIGHTS = {"prosecutor": 1, "defense": 1, "tech_lead": 2}


def chief_justice(state: AgentState) -> dict:
    known = set(state["evidences"])
    scores = {}
    for o in state["opinions"]:
        # Fact supremacy: an opinion citing evidence nobody found loses two points.
        penalty = 2 if any(c not in known for c in o.cited_evidence) else 0
        scores[o.judge] = max(1, o.score - penalty)
    total = sum(WEIGHTS[j] * s for j, s in scores.items())
    final = total / sum(WEIGHTS[j] for j in scores)
    if any("security" in o.argument.lower() for o in state["opinions"]):
        final = min(final, 3)  # security override caps the score
    variance = max(scores.values()) - min(scores.values())
    if variance > 2:
        dissent = "judges disagree"
        re_evaluation = True
    else:
        dissent, re_evaluation = None, False
    return {"final_report": f"{final} {dissent} {re_evaluation}"}
'''

TOOLS = '''"""Sandboxed repository tools."""
import subprocess
import tempfile
from urllib.parse import urlparse


def clone_repo(url: str, dest: str) -> None:
    if urlparse(url).scheme != "https":
        raise ValueError("only https URLs")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            subprocess.run(["git", "clone", "--", url, tmp], check=True, timeout=60,
                           capture_output=True)
        except subprocess.CalledProcessError as exc:
            if "Authentication failed" in exc.stderr.decode():
                raise PermissionError("authentication failed") from exc
            raise RuntimeError("clone failed") from exc
'''

DETECTIVES = '''"""Detective nodes."""
from src.state import AgentState


def repo_investigator(state: AgentState):
    return {"evidences": {"repo": []}}


def doc_analyst(state: AgentState):
    return {"evidences": {"doc": []}}


def vision_inspector(state: AgentState):
    return {"evidences": {"vision": []}}
'''

FLAWED_GRAPH = '''"""A linear pipeline."""
from langgraph.graph import StateGraph
import os
import pickle


class State(dict):
    pass


def run_tool(cmd):
    os.system(cmd)


def load_cache(blob):
    return pickle.loads(blob)


def listing():
    os.system("ls -la")


def clone(repo_url):
    os.system("git clone " + repo_url)


API_KEY = "sk-live-9f8a7b6c5d4e3f2a1b0c"

g = StateGraph(State)
g.add_node("detective", lambda s: s)
g.add_node("judge", lambda s: s)
g.add_node("justice", lambda s: s)
g.add_edge("detective", "judge")
g.add_edge("judge", "justice")
g.set_entry_point("detective")
'''

FLAWED_JUSTICE = '''"""Chief justice asks the LLM to average."""


def chief_justice(state, llm):
    return llm.invoke("Average these scores: " + str(state["opinions"]))
'''

GOOD_PAGES = [
    "Automaton Auditor: architecture report\n\n"
    "This report explains how our auditor works and which files implement it.\n"
    "The graph is built in src/graph.py and the state lives in src/state.py.",
    "Dialectical Synthesis is implemented by three judge nodes that read the same evidence "
    "and argue from opposed lenses.\nThe prosecutor node charges gaps, the defense node credits "
    "effort and the tech lead node weighs maintainability.\nTheir opinions merge into the state "
    "through an operator.add reducer, and the chief justice node resolves the conflict with "
    "deterministic rules instead of averaging.",
    "Fan-Out and Fan-In: the START node fans out to three detective nodes that run in "
    "parallel in one superstep.\nEach detective writes evidence to the state, and the "
    "evidence_aggregator node is the fan-in join that waits for every branch before the "
    "judges run.\nThe judges run in parallel in the same way from the judges_entry node.",
    "Metacognition means the system evaluates its own evaluation: the chief justice node "
    "checks the judges' evidence citations against the state and flags a hallucinated "
    "file.\nWhen the judges' scores diverge, the graph records a dissent and routes the "
    "criterion back through a conditional edge for re-evaluation.",
    "State Synchronization: parallel branches never overwrite each other, because every "
    "list field of the TypedDict state is Annotated with operator.add and every dict field "
    "with operator.ior, so the reducer merges concurrent writes at the join node.\n"
    "We also cite src/ghost_module.py which was planned but never written.",
]

BUZZWORD_PAGES = [
    "Executive summary\n\nOur system uses Dialectical Synthesis, Fan-In/Fan-Out, "
    "Metacognition and State Synchronization.\nIt is very robust. We used parallel judges.\n"
    "See src/agents/brain.py and src/graph.py for details.",
]


def exemplary_submission(root: Path) -> Path:
    """A submission that does everything right, built over a realistic history."""
    return make_repo(root, [
        Commit("Initial project setup with pyproject and README",
               {"pyproject.toml": "[project]\nname='auditor'\n", "README.md": "# Auditor\n"}),
        Commit("Add state models with reducers", {"src/state.py": STATE}),
        Commit("Add repo tools: sandboxed git clone and detective nodes",
               {"src/tools/repo_tools.py": TOOLS, "src/nodes/detectives.py": DETECTIVES,
                "src/nodes/names.py": NODES, "src/nodes/__init__.py": ""}),
        Commit("Add judges with structured output and personas",
               {"src/nodes/judges.py": JUDGES, "src/justice.py": JUSTICE}),
        Commit("Wire the StateGraph: parallel detectives and judges",
               {"src/graph.py": GRAPH, "src/judges_wiring.py": JUDGES_WIRING}),
    ])


def flawed_submission(root: Path) -> Path:
    """A one-commit submission: linear graph, shell injection, LLM averaging."""
    return make_repo(root, files={"main.py": FLAWED_GRAPH, "justice.py": FLAWED_JUSTICE,
                                  "README.md": "# quick upload\n"})


def mixed_submission(root: Path) -> Path:
    """Good graph, but a constant-argument os.system and a syntax error in one file."""
    return make_repo(root, [
        Commit("setup project", {"README.md": "# Mixed\n"}),
        Commit("add tools", {"src/state.py": STATE, "src/tools.py":
                             "import os\n\n\ndef cleanup():\n    os.system('rm -rf build')\n"}),
        Commit("graph orchestration", {"src/graph.py": GRAPH, "src/judges_wiring.py": JUDGES_WIRING,
                                       "src/nodes/names.py": NODES,
                                       "src/broken.py": "def oops(:\n    return 1\n"}),
    ])


def good_pdf(path: Path) -> Path:
    """A report that explains all four concepts, with a fan-out diagram and one ghost path."""
    return make_pdf(path, GOOD_PAGES, diagram_on=[2],
                    diagram_labels=("prosecutor", "defense", "tech_lead"), image_on=[0])


def buzzword_pdf(path: Path) -> Path:
    """A one-page report that only name-drops the concepts."""
    return make_pdf(path, BUZZWORD_PAGES)
