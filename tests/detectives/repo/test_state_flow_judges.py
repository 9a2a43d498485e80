"""Judges and the chief justice written as nodes but never added to the graph."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.common import UNWORKABLE
from courtroom.detectives.repo.state_flow import state_flow
from detectives.conftest import OpenCase, by_goal

STATE = '''import operator
from typing import Annotated, TypedDict


class AgentState(TypedDict):
    evidences: Annotated[list[str], operator.add]
    opinions: Annotated[list[str], operator.add]
    final_report: str
'''

JUDGES = '''from src.state import AgentState


def prosecutor(state: AgentState) -> dict:
    return {"opinions": [f"guilty on {len(state['evidences'])} counts"]}


def defense(state: AgentState) -> dict:
    return {"opinions": ["acquit"]}


def chief_justice(state: AgentState) -> dict:
    return {"final_report": min(state["opinions"])}
'''

GRAPH = '''from langgraph.graph import END, START, StateGraph

from src.judges import chief_justice, defense, prosecutor
from src.state import AgentState


def collect(state: AgentState) -> dict:
    return {"evidences": ["clone ok"]}


def build():
    g = StateGraph(AgentState)
    g.add_node("collect", collect)
    g.add_node("prosecutor", prosecutor)
    g.add_node("defense", defense)
    g.add_node("chief_justice", chief_justice)
    g.add_edge(START, "collect")
    g.add_edge("collect", "prosecutor")
    g.add_edge("collect", "defense")
    g.add_edge(["prosecutor", "defense"], "chief_justice")
    g.add_edge("chief_justice", END)
    return g.compile()
'''

GOAL = "Judge or chief justice written but never added to the graph"
TECH_LEAD = '''
TECH_LEAD_PROMPT = "You are the Tech Lead: does it actually work?"


def tech_lead(state: AgentState) -> dict:
    return {"opinions": [TECH_LEAD_PROMPT]}
'''


def submission(root: Path, judges: str = JUDGES, graph: str = GRAPH) -> Path:
    return make_repo(root, files={"src/__init__.py": "", "src/state.py": STATE,
                                  "src/judges.py": judges, "src/graph.py": graph})


def test_wired_judges_are_not_charged(tmp_path: Path, open_case: OpenCase) -> None:
    assert state_flow(open_case(submission(tmp_path / "r"))) == []


def test_judge_written_but_never_wired(tmp_path: Path, open_case: OpenCase) -> None:
    judges = JUDGES + TECH_LEAD
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", judges))), GOAL)
    assert len(ev) == 1
    line = judges.splitlines().index("def tech_lead(state: AgentState) -> dict:") + 1
    where = f"src/judges.py:{line}"
    item = ev[0]
    assert item.found and item.direction == "adverse" and item.location == where
    assert {"github_repo", "graph", UNWORKABLE} <= set(item.tags)
    assert "tech lead" in item.rationale and item.fix
    assert "state" not in item.tags


def test_chief_justice_left_out_of_the_graph(tmp_path: Path, open_case: OpenCase) -> None:
    graph = GRAPH.replace("from src.judges import chief_justice, defense, prosecutor",
                          "from src.judges import defense, prosecutor")
    graph = graph.replace('    g.add_node("chief_justice", chief_justice)\n', "")
    graph = graph.replace('"chief_justice"', "END").replace('    g.add_edge(END, END)\n', "")
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", graph=graph))), GOAL)
    assert [e.location for e in ev] == ["src/judges.py:12"]


def test_judge_reached_another_way_is_not_charged(tmp_path: Path,
                                                  open_case: OpenCase) -> None:
    # Called from a wired node (or listed in a table): it runs, though no node is named so.
    judges = JUDGES + TECH_LEAD + '''

def bench(state: AgentState) -> dict:
    return tech_lead(state)
'''
    assert not by_goal(state_flow(open_case(submission(tmp_path / "a", judges))), GOAL)
    # A second tech lead function beside a wired tech-lead node is dead code, not a gap.
    graph = GRAPH.replace('g.add_node("defense", defense)',
                          'g.add_node("defense", defense)\n    g.add_node("tech_lead", defense)')
    ev = state_flow(open_case(submission(tmp_path / "b", JUDGES + TECH_LEAD, graph)))
    assert not by_goal(ev, GOAL)
    # Functions loaded by a name computed at run time may be any of them.
    loader = "import importlib\n\n\ndef load(name):\n" \
        "    return importlib.import_module(name)\n"
    repo = submission(tmp_path / "c", JUDGES + TECH_LEAD)
    (repo / "src/loader.py").write_text(loader, encoding="utf-8")
    assert not by_goal(state_flow(open_case(repo)), GOAL)
    # A role named anywhere else (a persona table a dispatching node reads) may well run.
    repo = submission(tmp_path / "d", JUDGES + TECH_LEAD)
    (repo / "src/personas.py").write_text('PERSONAS = {"Tech Lead": "pragmatic", '
                                          '"tech_lead": "weighs maintainability"}\n',
                                          encoding="utf-8")
    assert not by_goal(state_flow(open_case(repo)), GOAL)
    # A wired dispatcher beside it may run every persona of the module's table.
    judges = JUDGES + TECH_LEAD + '''

def bench(state: AgentState) -> dict:
    return {"opinions": [PROMPTS[name] for name in PROMPTS]}
'''
    graph = GRAPH.replace("chief_justice, defense, prosecutor",
                          "bench, chief_justice, defense, prosecutor")
    graph = graph.replace('g.add_node("defense", defense)',
                          'g.add_node("defense", defense)\n    g.add_node("bench", bench)')
    assert not by_goal(state_flow(open_case(submission(tmp_path / "e", judges, graph))), GOAL)
