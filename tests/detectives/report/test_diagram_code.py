"""A diagram held against the code's graph: named nodes, joins the code lacks, loops."""

from __future__ import annotations

from courtroom.detectives.repo.graph import GraphFacts
from courtroom.detectives.report.diagram_code import hold_against_code, loops
from courtroom.detectives.report.diagram_graph import Drawing


def _code(joins: int, *, sent: bool = False) -> GraphFacts:
    nodes = {name: "graph.py:1" for name in ("start", "repo_investigator", "doc_analyst",
                                             "evidence_aggregator", "chief_justice")}
    facts = GraphFacts(nodes=nodes, fan_out={"start": ["repo_investigator", "doc_analyst"]},
                       fan_in={f"join{i}": ["a", "b"] for i in range(joins)})
    facts.dynamic_fan_out = ["graph.py:9"] if sent else []
    return facts


#: START -> two detectives -> aggregator -> two judges -> chief justice: two joins.
TWO_JOINS = Drawing(["START", "RepoInvestigator", "Doc Analyst", "Evidence Aggregator",
                     "Prosecutor", "Defense", "Chief Justice"],
                    {(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (3, 5), (4, 6), (5, 6)})


def test_labels_name_the_code_nodes_whatever_their_spelling() -> None:
    held = hold_against_code(_code(2), TWO_JOINS)
    assert set(held.named) == {"start", "repo_investigator", "doc_analyst",
                               "evidence_aggregator", "chief_justice"}
    assert not held.generic and not held.contradicts and not held.overstates
    generic = Drawing(["Input", "Step A", "Step B", "Output"], {(0, 1), (0, 2), (1, 3), (2, 3)})
    assert hold_against_code(_code(2), generic).generic


def test_more_joins_than_the_code_overstate_its_parallelism() -> None:
    assert hold_against_code(_code(1), TWO_JOINS).overstates
    assert not hold_against_code(_code(1, sent=True), TWO_JOINS).overstates
    linear_code = GraphFacts(nodes={"a": "", "b": "", "c": ""})
    held = hold_against_code(linear_code, TWO_JOINS)
    assert held.contradicts and not held.overstates
    assert "the code's graph does not fan out" in held.said


def test_a_review_loop_is_found_and_a_diamond_is_not_a_loop() -> None:
    assert not loops(TWO_JOINS)
    assert loops(Drawing(["judge", "justice", "debate"], {(0, 1), (1, 2), (2, 1)}))
