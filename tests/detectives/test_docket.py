"""The docket: which facts each criterion is judged on. Topics come from the rubric's own
tags, else from the criterion's words within its artifact; the most decisive facts first."""

from __future__ import annotations

from verdict_builders import make_evidence

from courtroom.detectives.docket import MAX_ITEMS, evidence_for, topics
from courtroom.rubric import Dimension


def criterion(ident: str, name: str, artifact: str = "github_repo",
              tags: list[str] | None = None) -> Dimension:
    return Dimension.model_validate({"id": ident, "name": name, "target_artifact": artifact,
                                     "forensic_instruction": "Look.", "evidence_tags": tags})


def test_the_rubrics_own_tags_win_over_the_words() -> None:
    assert topics(criterion("state_management", "State", tags=["diagram"])) == {"diagram"}


def test_words_are_read_only_within_the_criterions_artifact() -> None:
    assert topics(criterion("state_rigor", "State Management")) == {"state"}
    # "state" in a report criterion is not the repository's state facts.
    assert topics(criterion("state_in_report", "State in the report", "pdf_report")) == {
        "pdf_report"}
    assert topics(criterion("swarm_visual", "Swarm Visual", "pdf_images")) == {"diagram"}
    tool = topics(criterion("safe_tool_engineering", "Safe Tool Engineering"))
    assert {"tools", "security", "security_unconfirmed"} <= tool


def test_security_findings_come_first_then_the_surest_facts() -> None:
    tool = criterion("safe_tool_engineering", "Safe Tool Engineering")
    pool = [
        make_evidence("sandbox used", location="src/b.py:1", tags=("sandbox",), confidence=0.6),
        make_evidence("unrelated", location="src/a.py:1", tags=("graph",), confidence=1.0),
        make_evidence("clone via argv", location="src/c.py:1", tags=("tools",), confidence=0.9),
        make_evidence("shell=True", location="src/z.py:9", tags=("security",), confidence=0.5),
        make_evidence("tie, earlier file", location="src/a.py:7", tags=("tools",),
                      confidence=0.9),
    ]
    assert [e.goal for e in evidence_for(tool, pool)] == [
        "shell=True", "tie, earlier file", "clone via argv", "sandbox used"]


def test_a_criterion_is_shown_at_most_max_items() -> None:
    graph = criterion("graph_orchestration", "Graph Orchestration")
    pool = [make_evidence(f"edge {i}", location=f"src/g{i:03d}.py:1", tags=("graph",),
                          confidence=i / 100) for i in range(MAX_ITEMS + 10)]
    shown = evidence_for(graph, pool)
    assert len(shown) == MAX_ITEMS
    assert shown[0].goal == f"edge {MAX_ITEMS + 9}"  # the least sure are the ones left out


def test_a_criterions_own_check_facts_reach_it_and_no_other() -> None:
    checks = [{"kind": "path", "meaning": "CI", "glob": ".github/workflows/*"}]
    gated = Dimension.model_validate({"id": "ci", "name": "CI", "target_artifact": "github_repo",
                                      "forensic_instruction": "Look.", "evidence_tags": ["lint"],
                                      "checks": checks})
    other = criterion("tested", "Tested", tags=["tests"])
    pool = [make_evidence("CI", location=".github/workflows/ci.yml",
                          tags=("check", "criterion:ci")),
            make_evidence("other's check", location="a.py:1",
                          tags=("check", "criterion:tested")),
            make_evidence("ruff configured", location="pyproject.toml:1", tags=("lint",))]
    assert [e.goal for e in evidence_for(gated, pool)] == ["CI", "ruff configured"]
    assert evidence_for(other, pool) == []
    # Checks alone: the criterion's own facts, never every fact of its artifact.
    only = Dimension.model_validate({**gated.model_dump(exclude={"checks"}),
                                     "evidence_tags": None, "checks": checks})
    assert [e.goal for e in evidence_for(only, pool)] == ["CI"]
