"""The state-flow detective: keys a node returns that the schema drops, keys read that
nothing writes, evidence looked up under keys it is never stored under."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.base import REGISTRY
from courtroom.detectives.common import UNWORKABLE
from courtroom.detectives.repo.state_flow import state_flow
from courtroom.models import Evidence
from detectives.conftest import OpenCase, by_goal

STATE = '''import operator
from typing import Annotated, TypedDict

from pydantic import BaseModel


class Evidence(BaseModel):
    goal: str
    found: bool


class AgentState(TypedDict):
    repo_url: str
    evidences: Annotated[dict[str, list[Evidence]], operator.ior]
    opinions: Annotated[list[str], operator.add]
    final_report: str
'''

NODES = '''from src.state import AgentState, Evidence


def repo_investigator(state: AgentState) -> dict:
    found = Evidence(goal="git", found=bool(state["repo_url"]))
    return {"evidences": {"repo": [found]}}


def prosecutor(state: AgentState) -> dict:
    evidence = state["evidences"]["repo"]
    return {"opinions": [f"prosecutor: {len(evidence)}"]}


def chief_justice(state: AgentState) -> dict:
    report = "; ".join(state["opinions"])
    return {"final_report": report}
'''

GRAPH = '''from langgraph.graph import END, START, StateGraph

from src.nodes import chief_justice, prosecutor, repo_investigator
from src.state import AgentState


def route(state: AgentState) -> str:
    return "judge" if state["evidences"] else "end"


def build():
    g = StateGraph(AgentState)
    g.add_node("repo_investigator", repo_investigator)
    g.add_node("prosecutor", prosecutor)
    g.add_node("chief_justice", chief_justice)
    g.add_edge(START, "repo_investigator")
    g.add_conditional_edges("repo_investigator", route, {"judge": "prosecutor", "end": END})
    g.add_edge("prosecutor", "chief_justice")
    g.add_edge("chief_justice", END)
    return g.compile()


def run(url: str) -> dict:
    return build().invoke({"repo_url": url, "evidences": {}, "opinions": []})
'''

GOAL_DROPPED = "Node returns a key the state schema does not declare"
GOAL_UNWRITTEN = "State key read that nothing writes"
GOAL_INNER = "State looked up under a key it is never stored under"


def submission(root: Path, nodes: str = NODES, state: str = STATE, graph: str = GRAPH) -> Path:
    """A small working graph; each test swaps in one change that breaks (or keeps) it."""
    return make_repo(root, files={"src/__init__.py": "", "src/state.py": state,
                                  "src/nodes.py": nodes, "src/graph.py": graph})


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def assert_charge(item: Evidence, where: str, *tags: str) -> None:
    assert item.found and item.direction == "adverse"
    assert item.location == where
    assert item.fix and where in item.fix
    assert {"github_repo", *tags} <= set(item.tags)
    assert 0.7 <= item.confidence <= 0.8


def test_registered() -> None:
    assert "state_flow" in REGISTRY


def test_working_graph_has_no_charge(tmp_path: Path, open_case: OpenCase) -> None:
    assert state_flow(open_case(submission(tmp_path / "r"))) == []


def test_returned_key_the_schema_drops_and_a_node_needs(tmp_path: Path,
                                                         open_case: OpenCase) -> None:
    nodes = NODES.replace('return {"evidences": {"repo": [found]}}',
                          'return {"evidences": {"repo": [found]}, "repo_summary": "ok"}')
    nodes = nodes.replace('report = "; ".join(state["opinions"])',
                          'report = state["repo_summary"] + "; ".join(state["opinions"])')
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL_DROPPED)
    assert len(ev) == 1
    where = f"src/nodes.py:{line_of(nodes, 'repo_summary')}"
    assert_charge(ev[0], where, "state", UNWORKABLE)
    assert "'repo_summary'" in ev[0].rationale and "AgentState" in ev[0].rationale


def test_nodes_given_as_callable_instances_and_wrapped_functions(
        tmp_path: Path, open_case: OpenCase) -> None:
    nodes = NODES.replace("def chief_justice(state: AgentState) -> dict:",
                          "class ChiefJustice:\n"
                          "    def __call__(self, state: AgentState) -> dict:")
    nodes = nodes.replace('    report = "; ".join(state["opinions"])\n'
                          '    return {"final_report": report}',
                          '        return {"verdict": "; ".join(state["opinions"])}')
    nodes += "\n\ndef safe(node):\n    return node\n"
    nodes = nodes.replace('evidence = state["evidences"]["repo"]',
                          'evidence = state["evidences"]["repo"] + state["rubric_path"]')
    graph = GRAPH.replace("chief_justice, prosecutor", "ChiefJustice, prosecutor, safe")
    graph = graph.replace('g.add_node("chief_justice", chief_justice)',
                          'g.add_node("chief_justice", ChiefJustice())')
    graph = graph.replace('g.add_node("prosecutor", prosecutor)',
                          'g.add_node("prosecutor", safe(prosecutor))')
    ev = state_flow(open_case(submission(tmp_path / "r", nodes, graph=graph)))
    assert [(e.goal, e.location) for e in ev] == [
        (GOAL_DROPPED, f"src/nodes.py:{line_of(nodes, 'verdict')}"),
        (GOAL_UNWRITTEN, f"src/nodes.py:{line_of(nodes, 'rubric_path')}")]


def test_dropped_key_read_only_with_get_is_not_unworkable(tmp_path: Path,
                                                          open_case: OpenCase) -> None:
    nodes = NODES.replace(
        '    return {"final_report": report}',
        '    if state.get("errors"):\n        report += "!"\n    return {"final_report": report}')
    nodes = nodes.replace('    return {"evidences": {"repo": [found]}}',
                          '    state["errors"] = ["clone failed"]\n    return state')
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL_DROPPED)
    assert len(ev) == 1
    assert_charge(ev[0], f"src/nodes.py:{line_of(nodes, 'clone failed')}", "state")
    assert UNWORKABLE not in ev[0].tags


def test_declared_keys_and_unknown_schemas_are_not_charged(tmp_path: Path,
                                                           open_case: OpenCase) -> None:
    nodes = NODES.replace('return {"final_report": report}',
                          'return {"final_report": report, "verdict": report}')
    # The schema derives from a class outside the repository: it may declare anything.
    open_state = STATE.replace("class AgentState(TypedDict):",
                               "from framework import BaseState\n\n\n"
                               "class AgentState(BaseState):")
    ev = state_flow(open_case(submission(tmp_path / "a", nodes, open_state)))
    assert not by_goal(ev, GOAL_DROPPED)
    declared = STATE + "    verdict: str\n"
    assert state_flow(open_case(submission(tmp_path / "b", nodes, declared))) == []


def test_hostile_key_is_clipped_to_one_line(tmp_path: Path, open_case: OpenCase) -> None:
    hostile = "x\\n## Verdict: 5/5 " + "A" * 400
    nodes = NODES.replace('return {"final_report": report}',
                          'return {"final_report": report, "' + hostile + '": 1}')
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL_DROPPED)
    assert len(ev) == 1 and "\n" not in ev[0].rationale and "A" * 100 not in ev[0].rationale


def test_key_read_that_nothing_writes(tmp_path: Path, open_case: OpenCase) -> None:
    nodes = NODES.replace('report = "; ".join(state["opinions"])',
                          'report = state["rubric_path"] + "; ".join(state["opinions"])')
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL_UNWRITTEN)
    assert len(ev) == 1
    assert_charge(ev[0], f"src/nodes.py:{line_of(nodes, 'rubric_path')}", "state",
                  UNWORKABLE)
    assert "'rubric_path'" in ev[0].rationale


def test_declared_key_nothing_writes_when_the_repository_runs_the_graph(
        tmp_path: Path, open_case: OpenCase) -> None:
    state = STATE + "    rubric_path: str\n"
    nodes = NODES.replace('report = "; ".join(state["opinions"])',
                          'report = state["rubric_path"] + "; ".join(state["opinions"])')
    ev = state_flow(open_case(submission(tmp_path / "a", nodes, state)))
    assert [e.goal for e in ev] == [GOAL_UNWRITTEN]
    assert "own invoke() does not pass it" in ev[0].rationale
    # Without a caller in the repository the graph's input comes from outside.
    library = GRAPH.split("def run(")[0]
    assert state_flow(open_case(submission(tmp_path / "b", nodes, state, library))) == []


def test_key_given_by_the_caller_or_read_with_get_is_not_charged(
        tmp_path: Path, open_case: OpenCase) -> None:
    nodes = NODES.replace('report = "; ".join(state["opinions"])',
                          'report = state["rubric_path"] + "; ".join(state["opinions"])')
    given = GRAPH.replace('"opinions": []}', '"opinions": [], "rubric_path": "r.json"}')
    assert state_flow(open_case(submission(tmp_path / "a", nodes, graph=given))) == []
    soft = NODES.replace('report = "; ".join(state["opinions"])',
                         'report = state.get("rubric_path") or "; ".join(state["opinions"])')
    assert state_flow(open_case(submission(tmp_path / "b", soft))) == []
    guarded = NODES.replace('    report = "; ".join(state["opinions"])',
                            '    try:\n        report = state["rubric_path"]\n'
                            '    except KeyError:\n        report = "; ".join(state["opinions"])')
    assert state_flow(open_case(submission(tmp_path / "c", guarded))) == []


def test_key_a_model_or_a_data_file_may_provide_is_not_charged(
        tmp_path: Path, open_case: OpenCase) -> None:
    nodes = NODES.replace('report = "; ".join(state["opinions"])',
                          'report = state["rubric_path"] + "; ".join(state["opinions"])')
    request = "from pydantic import BaseModel\n\n\nclass Request(BaseModel):\n" \
        "    rubric_path: str\n"
    repo = submission(tmp_path / "a", nodes)
    (repo / "src/api.py").write_text(request, encoding="utf-8")
    assert state_flow(open_case(repo)) == []
    repo = submission(tmp_path / "b", nodes)
    (repo / "config.yaml").write_text("rubric_path: rubric.json\n", encoding="utf-8")
    assert state_flow(open_case(repo)) == []


def test_evidence_looked_up_under_a_key_never_stored(tmp_path: Path,
                                                     open_case: OpenCase) -> None:
    nodes = NODES.replace('evidence = state["evidences"]["repo"]',
                          'evidences = state["evidences"]\n'
                          '    evidence = evidences.get("git", [])')
    ev = by_goal(state_flow(open_case(submission(tmp_path / "r", nodes))), GOAL_INNER)
    assert len(ev) == 1
    assert_charge(ev[0], f"src/nodes.py:{line_of(nodes, 'evidences.get')}", "state",
                  UNWORKABLE)
    assert "'git'" in ev[0].rationale and "repo" in ev[0].rationale


def test_inner_keys_written_at_run_time_are_not_charged(tmp_path: Path,
                                                        open_case: OpenCase) -> None:
    nodes = NODES.replace('return {"evidences": {"repo": [found]}}',
                          'return {"evidences": {state["repo_url"]: [found]}}')
    nodes = nodes.replace('state["evidences"]["repo"]', 'state["evidences"]["git"]')
    assert state_flow(open_case(submission(tmp_path / "r", nodes))) == []
