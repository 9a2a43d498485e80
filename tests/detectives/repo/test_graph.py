"""The graph detective: wiring split across modules, fan-out/fan-in, routers, Mermaid."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.repo.graph import END, START, graph_facts
from courtroom.detectives.repo.orchestration import orchestration
from detectives.conftest import OpenCase, by_goal
from detectives.submissions import exemplary_submission, flawed_submission


def test_graph_split_across_modules_is_one_graph(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(exemplary_submission(tmp_path / "r"))
    facts = graph_facts(case.workspace)
    assert facts.builders == [("src/graph.py:17", "AgentState")]
    # names resolved from module constants (n.REPO_INVESTIGATOR) and a module-level name
    assert {"repo_investigator", "doc_analyst", "vision_inspector", "judges_entry",
            "prosecutor", "defense", "tech_lead", "chief_justice"} <= set(facts.nodes)
    assert facts.fan_out[START] == ["doc_analyst", "repo_investigator", "vision_inspector"]
    assert facts.fan_out["judges_entry"] == ["defense", "prosecutor", "tech_lead"]
    assert facts.fan_in["evidence_aggregator"] == ["doc_analyst", "repo_investigator",
                                                   "vision_inspector"]
    assert facts.fan_in["chief_justice"] == ["defense", "prosecutor", "tech_lead"]
    assert any(e.source == "chief_justice" and e.target == END for e in facts.edges)


def test_graph_evidence_for_exemplary(tmp_path: Path, open_case: OpenCase) -> None:
    ev = orchestration(open_case(exemplary_submission(tmp_path / "r")))
    assert by_goal(ev, "Detectives run in parallel")[0].found
    judges = by_goal(ev, "Judges run in parallel")[0]
    assert judges.found and judges.location == "src/judges_wiring.py:18"
    assert "parallelism" in judges.tags
    errors = by_goal(ev, "Conditional edges route errors")[0]
    assert errors.found and "handle_missing" in errors.rationale
    assert "conditional" in errors.tags
    chart = by_goal(ev, "Extracted orchestration graph")[0].content or ""
    assert chart.startswith("flowchart TD")
    assert "evidence_aggregator -.->|missing_evidence| handle_missing" in chart
    assert "prosecutor --> chief_justice" in chart
    for e in ev:
        assert not e.location.startswith("/")


def test_linear_graph_has_no_parallelism(tmp_path: Path, open_case: OpenCase) -> None:
    ev = orchestration(open_case(flawed_submission(tmp_path / "r")))
    assert not by_goal(ev, "Fan-out to parallel branches")
    for goal in ("Detectives run in parallel", "Judges run in parallel",
                 "Fan-in join of parallel branches",
                 "Conditional edges route errors or missing evidence"):
        item = by_goal(ev, goal)[0]
        assert not item.found and item.direction == "adverse" and item.fix
    assert "__start__ --> detective" in (by_goal(ev, "Extracted")[0].content or "")


ROUTER = '''
from langgraph.graph import StateGraph, END

DONE = "done"

class Nodes:
    CHECK = "check"
    FIX = "fix_errors"

def route(state):
    if state["errors"]:
        return Nodes.FIX
    return DONE

g = StateGraph(dict)
g.add_node(Nodes.CHECK, lambda s: s)
g.add_node(Nodes.FIX, lambda s: s)
g.add_node(DONE, lambda s: s)
g.set_entry_point(Nodes.CHECK)
g.add_conditional_edges(Nodes.CHECK, route)
g.add_edge(DONE, END)
'''


def test_router_without_path_map_uses_its_returns(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"g.py": ROUTER}))
    facts = graph_facts(case.workspace)
    assert {(e.source, e.target) for e in facts.routers} == {("check", "fix_errors"),
                                                             ("check", "done")}
    assert facts.error_routes and facts.error_routes[0].target == "fix_errors"


def test_syntax_error_in_graph_file_keeps_going(tmp_path: Path, open_case: OpenCase) -> None:
    broken = ROUTER + "\ndef half(:\n    pass\ng.add_edge(Nodes.FIX, END)\n"
    case = open_case(make_repo(tmp_path / "r", files={"g.py": broken}))
    facts = graph_facts(case.workspace)
    assert "check" in facts.nodes and facts.routers


def test_no_graph_and_no_python(tmp_path: Path, open_case: OpenCase) -> None:
    ev = orchestration(open_case(make_repo(tmp_path / "a", files={"m.py": "x = 1\n"})))
    assert len(ev) == 1 and not ev[0].found and "missing" in ev[0].tags
    ev = orchestration(open_case(make_repo(tmp_path / "b", files={"README.md": "# hi\n"})))
    assert len(ev) == 1 and not ev[0].found and "0 Python files" in ev[0].rationale


LIST_ROUTER = """from langgraph.graph import END, START, StateGraph
from langgraph.types import Send


def fan_out(state):
    return ["repo_detective", "doc_detective"]


def to_judges(state):
    sends = []
    for judge in ("prosecutor", "defense"):
        sends.append(Send(judge, state))
    sends.append(Send("tech_lead", state))
    return sends


def after_aggregate(state):
    if state.get("errors"):
        return "degraded_report"
    return "judges"


def check_input(state):
    if not state.get("repo_url"):
        return END
    return "dispatch"


g = StateGraph(dict)
g.add_conditional_edges(START, check_input)
g.add_conditional_edges("dispatch", fan_out)
g.add_edge(["repo_detective", "doc_detective"], "aggregator")
g.add_conditional_edges("aggregator", after_aggregate)
g.add_conditional_edges("judges", to_judges)
g.add_edge(["prosecutor", "defense", "tech_lead"], "chief_justice")
"""


def test_routers_returning_lists_or_sends_fan_out(tmp_path: Path, open_case: OpenCase) -> None:
    facts = graph_facts(open_case(
        make_repo(tmp_path / "r", files={"src/graph.py": LIST_ROUTER})).workspace)
    assert facts.fan_out["dispatch"] == ["doc_detective", "repo_detective"]
    assert facts.fan_out["judges"] == ["defense", "prosecutor", "tech_lead"]
    assert "aggregator" in facts.fan_in


def test_error_routes_by_role_not_by_name(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"src/graph.py": LIST_ROUTER}))
    routes = {(e.source, e.target) for e in graph_facts(case.workspace).error_routes}
    # A degraded-report node and an early END are error routes, whatever they are called.
    assert routes == {("aggregator", "degraded_report"), (START, END)}
    ev = orchestration(case)
    assert by_goal(ev, "Conditional edges route errors")[0].direction == "supports"
    assert by_goal(ev, "Detectives run in parallel")[0].direction == "supports"
    assert by_goal(ev, "Judges run in parallel")[0].direction == "supports"


ROUTED_JOIN = """from langgraph.graph import END, StateGraph


def build():
    g = StateGraph(dict)
    for name in ("start", "repo", "docs", "aggregate", "error_node"):
        g.add_node(name, lambda s: s)
    g.set_entry_point("start")
    g.add_edge("start", "repo")
    g.add_edge("start", "docs")

    def after_repo(state):
        if state.get("failed"):
            return "error_node"
        return "aggregate"

    def after_docs(state):
        if state.get("failed"):
            return "error_node"
        return "aggregate"

    g.add_conditional_edges("repo", after_repo)
    g.add_conditional_edges("docs", after_docs)
    g.add_edge("aggregate", END)
"""


def test_branches_routing_to_one_node_join_there(tmp_path: Path, open_case: OpenCase) -> None:
    facts = graph_facts(open_case(
        make_repo(tmp_path / "r", files={"src/graph.py": ROUTED_JOIN})).workspace)
    assert facts.fan_in == {"aggregate": ["docs", "repo"]}  # the error node is no join


LOOPED = """from langgraph.graph import END, StateGraph
from src.nodes import repo_node, vision_node


def build(with_vision: bool):
    g = StateGraph(dict)
    detectives = ["repo", "docs"]
    if with_vision:
        detectives.append("vision")
    for name in ("start", "repo", "docs", "vision", "aggregate", "error_node"):
        g.add_node(name, lambda s: s)
    g.set_entry_point("start")
    for node in detectives:
        g.add_edge("start", node)
    for node in detectives:
        g.add_edge(node, "aggregate")
    g.add_conditional_edges("aggregate", lambda s: "error_node" if s else END,
                            {"error_node": "error_node", END: END})
"""
NODES_MODULE = "def repo_node(state):\n    return state\n"


def test_loop_edges_dead_ends_and_broken_imports(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"src/graph.py": LOOPED, "src/nodes.py": NODES_MODULE, "src/__init__.py": ""}
    case = open_case(make_repo(tmp_path / "r", files=files))
    facts = graph_facts(case.workspace)
    assert facts.fan_out["start"] == ["docs", "repo", "vision"]
    assert facts.fan_in["aggregate"] == ["docs", "repo", "vision"]
    ev = orchestration(case)
    stuck = by_goal(ev, "Nodes with no way on")[0]
    assert stuck.direction == "adverse" and stuck.content == "error_node"
    broken = by_goal(ev, "Graph module imports a name")[0]
    assert broken.direction == "adverse" and broken.location == "src/graph.py:2"
    assert "vision_node" in broken.rationale and "repo_node" not in (broken.content or "")


def test_a_clean_graph_has_no_runnability_charges(tmp_path: Path, open_case: OpenCase) -> None:
    ev = orchestration(open_case(exemplary_submission(tmp_path / "r")))
    assert not by_goal(ev, "Nodes with no way on")
    assert not by_goal(ev, "Graph module imports a name")


UNEVEN = """from langgraph.graph import END, START, StateGraph
from langgraph.types import Send


def detectives(state):
    sends = [Send("repo", state)]
    if state.get("pdf"):
        sends.append(Send("pdf_prep", state))
    return sends


def start_route(state):
    if not state.get("url"):
        return "no_input"
    out = detectives(state)
    return out


g = StateGraph(dict)
g.add_edge(START, "context")
g.add_conditional_edges("context", start_route)
g.add_edge("pdf_prep", "doc")
g.add_edge("pdf_prep", "vision")
g.add_edge("repo", "aggregate")
g.add_edge("doc", "aggregate")
g.add_edge("vision", "aggregate")
g.add_edge("no_input", "aggregate")
g.add_edge("aggregate", END)
"""


def test_delegating_router_and_uneven_join(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"src/graph.py": UNEVEN}))
    facts = graph_facts(case.workspace)
    # The router hands on what another router returns: a Send fan-out.
    assert facts.fan_out["context"] == ["pdf_prep", "repo"]
    uneven = by_goal(orchestration(case), "Join reached by separate edges")[0]
    assert uneven.direction == "adverse" and "repo (2 hops)" in uneven.rationale
    assert "vision (3 hops)" in uneven.rationale and "no_input" not in uneven.rationale


def test_list_join_waits_for_all_branches(tmp_path: Path, open_case: OpenCase) -> None:
    joined = UNEVEN.replace('g.add_edge("repo", "aggregate")\ng.add_edge("doc", "aggregate")\n'
                            'g.add_edge("vision", "aggregate")',
                            'g.add_edge(["repo", "doc", "vision"], "aggregate")')
    case = open_case(make_repo(tmp_path / "r", files={"src/graph.py": joined}))
    assert not by_goal(orchestration(case), "Join reached by separate edges")


UNRUN = '''
from langgraph.graph import StateGraph, START, END

def route(state):
    if state.get("variance"):
        return "retry_judges"
    return "chief_justice"

g = StateGraph(dict)
g.add_node("judges", lambda s: s)
g.add_node("chief_justice", lambda s: s)
g.add_node("audit_self", lambda s: s)
g.add_edge(START, "judges")
g.add_conditional_edges("judges", route)
g.add_edge("audit_self", END)
g.add_edge("chief_justice", END)
'''


def test_unreached_nodes_and_unknown_routes_cannot_work(tmp_path: Path,
                                                       open_case: OpenCase) -> None:
    known = UNRUN.replace('"retry_judges"', '"judges"')
    ev = orchestration(open_case(make_repo(tmp_path / "a", files={"g.py": known})))
    lost = by_goal(ev, "Nodes no run reaches")[0]
    assert lost.direction == "adverse" and lost.content == "audit_self"
    assert lost.location == "g.py:12" and "unworkable" in lost.tags
    assert not by_goal(ev, "Conditional route to a node that does not exist")
    ev = orchestration(open_case(make_repo(tmp_path / "b", files={"g.py": UNRUN})))
    wrong = by_goal(ev, "Conditional route to a node that does not exist")[0]
    assert wrong.direction == "adverse" and wrong.content == "judges -> retry_judges"
    assert "unworkable" in wrong.tags


def test_a_clean_graph_has_no_unreached_nodes(tmp_path: Path, open_case: OpenCase) -> None:
    ev = orchestration(open_case(exemplary_submission(tmp_path / "r")))
    assert not by_goal(ev, "Nodes no run reaches")
    assert not by_goal(ev, "Conditional route to a node that does not exist")


def test_unread_routes_claim_no_unreached_node(tmp_path: Path, open_case: OpenCase) -> None:
    unread = UNRUN.replace("g.add_conditional_edges(\"judges\", route)",
                           "g.add_conditional_edges(\"judges\", ROUTES[0])")
    ev = orchestration(open_case(make_repo(tmp_path / "r", files={"g.py": unread})))
    assert not by_goal(ev, "Nodes no run reaches")


ONE_DETECTIVE_NODE = '''import asyncio
from langgraph.graph import StateGraph, START, END


async def run_detectives(state):
    return await asyncio.gather(repo(state), doc(state), vision(state))


builder = StateGraph(dict)
builder.add_node("Detectives", run_detectives)
builder.add_node("EvidenceAggregator", lambda s: s)
for judge in ("Prosecutor", "Defense", "TechLead"):
    builder.add_node(judge, lambda s: s)
    builder.add_edge("EvidenceAggregator", judge)
    builder.add_edge(judge, "ChiefJustice")
builder.add_node("ChiefJustice", lambda s: s)
builder.add_edge(START, "Detectives")
builder.add_edge("Detectives", "EvidenceAggregator")
builder.add_edge("ChiefJustice", END)
'''


def test_a_stage_run_inside_one_node_has_no_fan_out_or_fan_in(tmp_path: Path,
                                                                open_case: OpenCase) -> None:
    ev = orchestration(open_case(make_repo(tmp_path / "r",
                                           files={"src/graph.py": ONE_DETECTIVE_NODE})))
    one = by_goal(ev, "Detectives are separate graph nodes")[0]
    assert one.found and one.direction == "adverse" and one.location == "src/graph.py:10"
    assert "Detectives" in one.rationale and "`src/graph.py:10`" in (one.fix or "")
    assert by_goal(ev, "Judges run in parallel")[0].direction == "supports"
    assert not by_goal(ev, "Judges are separate graph nodes")
    # Detectives wired as nodes of their own carry no such charge.
    ev = orchestration(open_case(exemplary_submission(tmp_path / "s")))
    assert not by_goal(ev, "are separate graph nodes")
