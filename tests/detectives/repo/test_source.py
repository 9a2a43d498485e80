"""Source detectives: the Python overview and the graph state (state types, reducers)."""

from __future__ import annotations

from pathlib import Path

from builders import Commit, make_repo

from courtroom.detectives.repo.judge_code import justice_rules, structured_output
from courtroom.detectives.repo.source import python_overview, state_facts
from detectives.conftest import OpenCase, by_goal
from detectives.submissions import JUDGES, exemplary_submission, flawed_submission


def test_state_types_and_reducers(tmp_path: Path, open_case: OpenCase) -> None:
    ev = state_facts(open_case(exemplary_submission(tmp_path / "r")))
    state = by_goal(ev, "Typed graph state")[0]
    assert state.location == "src/state.py:21" and state.direction == "supports"
    reducers = by_goal(ev, "State field with a reducer")
    assert {e.content for e in reducers} == {"AgentState.evidences: operator.ior",
                                            "AgentState.opinions: operator.add"}
    assert all(e.direction == "supports" for e in reducers)
    assert by_goal(ev, "Judicial opinion is a typed model")[0].direction == "supports"
    assert by_goal(ev, "Evidence is a typed model")[0].direction == "supports"


GRAPH_OVER = """from langgraph.graph import StateGraph
from src.models import AuditState
builder = StateGraph(AuditState)
"""
MODELS = """from typing import Annotated, TypedDict
from pydantic import BaseModel


def keep_latest(old, new):
    return new or old


class JudicialOpinion(BaseModel):
    judge: str
    cited_evidence: list[str]


class AuditState(TypedDict):
    evidence_log: Annotated[list[str], keep_latest]
    rulings: Annotated[list[JudicialOpinion], lambda a, b: a + b]
    opinion_count: int
"""


def test_graph_state_is_the_state_graph_type_not_the_opinion_model(
        tmp_path: Path, open_case: OpenCase) -> None:
    # The opinion model mentions evidence too; the state that holds the collections is
    # the type the StateGraph is built over.
    files = {"src/models.py": MODELS, "src/graph.py": GRAPH_OVER}
    ev = state_facts(open_case(make_repo(tmp_path / "r", files=files)))
    holder = by_goal(ev, "Graph state holds evidence and opinions")[0]
    assert holder.location == "src/models.py:14" and holder.direction == "supports"
    assert by_goal(ev, "Typed graph state")[0].location == "src/models.py:14"


def test_reducers_given_as_named_functions_or_lambdas(tmp_path: Path,
                                                       open_case: OpenCase) -> None:
    files = {"src/models.py": MODELS, "src/graph.py": GRAPH_OVER}
    ev = state_facts(open_case(make_repo(tmp_path / "r", files=files)))
    reducers = {e.content for e in by_goal(ev, "State field with a reducer")}
    assert reducers == {"AuditState.evidence_log: keep_latest",
                        "AuditState.rulings: lambda a, b: a + b"}


def test_no_state_types(tmp_path: Path, open_case: OpenCase) -> None:
    ev = state_facts(open_case(flawed_submission(tmp_path / "r")))
    assert len(ev) == 1 and not ev[0].found and ev[0].direction == "adverse"


def test_plain_state_without_reducers(tmp_path: Path, open_case: OpenCase) -> None:
    code = "from typing import TypedDict\n\nclass S(TypedDict):\n    opinions: list[str]\n"
    ev = state_facts(open_case(make_repo(tmp_path / "r", [Commit("state", {"s.py": code})])))
    missing = by_goal(ev, "State field with a reducer")[0]
    assert not missing.found and missing.location == "s.py:3"
    assert missing.direction == "adverse" and missing.fix


def test_syntax_errors_are_reported_and_parsing_goes_on(tmp_path: Path,
                                                        open_case: OpenCase) -> None:
    files = {"ok.py": JUDGES, "bad.py": "def broken(:\n    return 1\nclass X(BaseModel):\n"
             "    a: int\n", "latin.py": "s = 'caf\xe9'\n".encode("latin-1"),
             "blob.py": b"\x00\x00\x00binary"}
    case = open_case(make_repo(tmp_path / "r", files=files))
    ev = python_overview(case)
    errors = by_goal(ev, "Python file with syntax errors")
    assert [e.location for e in errors] == ["bad.py:1"]
    assert "parse_error" in errors[0].tags
    assert "3 Python files" in by_goal(ev, "Python sources present")[0].rationale
    # the class after the syntax error is still seen
    assert "X(BaseModel)" in (by_goal(state_facts(case), "Typed models")[0].content or "")


def test_no_python_files(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"README.md": "# docs only\n"}))
    for fn in (python_overview, state_facts, structured_output, justice_rules):
        ev = fn(case)
        assert len(ev) == 1 and not ev[0].found and "missing" in ev[0].tags


def test_huge_python_file_is_skipped(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"big.py": "x = 1\n" * 150_000, "small.py": "y = 2\n"}
    ev = python_overview(open_case(make_repo(tmp_path / "r", files=files)))
    assert "1 skipped" in ev[0].rationale




def test_an_evidence_collection_left_without_a_reducer_beside_reduced_ones(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("import operator\nfrom typing import Annotated\nfrom pydantic import BaseModel\n\n\n"
            "class Evidence(BaseModel):\n    goal: str\n\n\n"
            "class AgentState(BaseModel):\n"
            "    repo_url: str\n"
            "    evidences: dict[str, list[Evidence]] = {}\n"
            "    opinions: Annotated[list[str], operator.add] = []\n"
            "    evidence_registry: EvidenceRegistry | None = None\n")
    ev = state_facts(open_case(make_repo(tmp_path / "r", [Commit("state", {"s.py": code})])))
    bare = by_goal(ev, "Evidence or opinion collection without a reducer")
    assert len(bare) == 1  # the registry is one object, not a collection parallel nodes fill
    assert bare[0].direction == "adverse" and bare[0].location == "s.py:12"
    assert "`s.py:12`" in (bare[0].fix or "") and "AgentState.evidences" in bare[0].rationale
    ok = code.replace("evidences: dict[str, list[Evidence]] = {}",
                      "evidences: Annotated[dict[str, list[Evidence]], operator.ior] = {}")
    ev = state_facts(open_case(make_repo(tmp_path / "s", [Commit("state", {"s.py": ok})])))
    assert not by_goal(ev, "Evidence or opinion collection without a reducer")
