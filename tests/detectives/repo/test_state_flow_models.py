"""Models the state holds, used with fields they do not define."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.common import UNWORKABLE
from courtroom.detectives.repo.state_flow import state_flow
from detectives.conftest import OpenCase, by_goal

STATE = '''import operator
from dataclasses import dataclass
from typing import Annotated, TypedDict

from pydantic import BaseModel, Field


class Evidence(BaseModel):
    goal: str
    found: bool
    confidence: float = Field(ge=0, le=1)


class JudicialOpinion(BaseModel):
    judge: str
    score: int

    @property
    def passed(self) -> bool:
        return self.score >= 3


@dataclass
class Citation:
    path: str
    line: int


class AgentState(TypedDict):
    evidences: Annotated[list[Evidence], operator.add]
    opinions: Annotated[list[JudicialOpinion], operator.add]
    citations: list[Citation]
'''

NODES = '''from src.state import AgentState, Citation, Evidence, JudicialOpinion


def investigate(state: AgentState) -> dict:
    found = Evidence(goal="git", found=True, confidence=0.9)
    cite = Citation(path="src/graph.py", line=1)
    return {"evidences": [found], "citations": [cite]}


def describe(opinion: JudicialOpinion) -> str:
    return f"{opinion.judge}: {opinion.score} {opinion.passed} {opinion.model_dump()}"


def judge(state: AgentState) -> dict:
    opinion = JudicialOpinion(judge="prosecutor", score=len(state["evidences"]))
    print(describe(opinion))
    return {"opinions": [opinion]}
'''

GRAPH = '''from langgraph.graph import END, START, StateGraph

from src.nodes import investigate, judge
from src.state import AgentState


def build():
    g = StateGraph(AgentState)
    g.add_node("investigate", investigate)
    g.add_node("judge", judge)
    g.add_edge(START, "investigate")
    g.add_edge("investigate", "judge")
    g.add_edge("judge", END)
    return g.compile()
'''

GOAL = "Model used with a field it does not define"


def submission(root: Path, nodes: str = NODES, extra: str = "") -> Path:
    files = {"src/__init__.py": "", "src/state.py": STATE, "src/nodes.py": nodes,
             "src/graph.py": GRAPH}
    if extra:
        files["src/other.py"] = extra
    return make_repo(root, files=files)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_fields_properties_and_model_api_are_not_charged(tmp_path: Path,
                                                         open_case: OpenCase) -> None:
    assert state_flow(open_case(submission(tmp_path / "r"))) == []


def test_attribute_the_model_does_not_define(tmp_path: Path, open_case: OpenCase) -> None:
    nodes = NODES.replace("{opinion.passed}", "{opinion.verdict}")
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL)
    where = f"src/nodes.py:{line_of(nodes, 'opinion.verdict')}"
    assert [e.location for e in ev] == [where]
    item = ev[0]
    assert item.found and item.direction == "adverse"
    assert {"github_repo", "state", UNWORKABLE} <= set(item.tags)
    assert "JudicialOpinion.verdict is read" in item.rationale
    assert item.fix and "judge, score" in item.fix


def test_constructor_keyword_that_is_no_field(tmp_path: Path, open_case: OpenCase) -> None:
    nodes = NODES.replace("confidence=0.9", "confidance=0.9").replace("line=1", "lineno=1")
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL)
    assert [e.location for e in ev] == [f"src/nodes.py:{line_of(nodes, 'confidance')}",
                                        f"src/nodes.py:{line_of(nodes, 'lineno')}"]
    assert "pydantic drops the value" in ev[0].rationale
    assert "dataclass raises TypeError" in ev[1].rationale


def test_uncertain_types_are_not_charged(tmp_path: Path, open_case: OpenCase) -> None:
    # An untyped loop variable, a reassigned name, a same-named class from elsewhere and
    # a model the state does not hold are never guessed at.
    nodes = NODES + '''

def tally(state: AgentState, opinion: JudicialOpinion) -> int:
    opinion = state["opinions"][0]
    return sum(o.verdict for o in state["opinions"]) + opinion.verdict
'''
    other = '''from framework import JudicialOpinion
from pydantic import BaseModel


class Request(BaseModel):
    url: str


def show(opinion: JudicialOpinion, request: Request) -> str:
    return f"{opinion.verdict} {request.branch} {Request(branch='main')}"
'''
    ev = state_flow(open_case(submission(tmp_path / "r", nodes, other)))
    assert not by_goal(ev, GOAL)
