"""The docket: a criterion sees the facts of its own evidence_tags and of its own checks;
one nothing covers sees only the general facts of its artifact, as context. Words in its
id or name never choose its evidence."""

from __future__ import annotations

from verdict_builders import make_evidence

from courtroom.detectives.docket import MAX_ITEMS, evidence_for, is_covered
from courtroom.judges.base import left_out
from courtroom.rubric import Criterion


def criterion(ident: str, name: str, artifact: str = "github_repo",
              tags: list[str] | None = None, checks: list[dict[str, str]] | None = None
              ) -> Criterion:
    return Criterion.model_validate({"id": ident, "name": name, "target_artifact": artifact,
                                     "forensic_instruction": "Look.", "evidence_tags": tags,
                                     "checks": checks or []})


PINNED = [{"kind": "path", "meaning": "A lock file", "glob": "requirements.txt"}]


POOL = [
    make_evidence("StateGraph built", location="src/graph.py:3", detective="graph",
                  tags=("github_repo", "graph"), direction="supports"),
    make_evidence("Single commit", location="abc1234", detective="history",
                  tags=("github_repo", "git", "history"), direction="adverse"),
    make_evidence("shell=True", location="src/run.py:9", detective="security",
                  tags=("github_repo", "tools", "security"), direction="adverse"),
    make_evidence("Concept explained", location="pdf:page 2", detective="report",
                  tags=("pdf_report", "concepts"), direction="supports"),
    make_evidence("requirements pinned", location="requirements.txt:1", detective="checks",
                  tags=("github_repo", "check", "criterion:pinned"), direction="supports"),
]


def goals(items: list) -> list[str]:  # type: ignore[type-arg]
    return [e.goal for e in items]


def test_a_tagged_criterion_sees_its_tags_whatever_its_words_say() -> None:
    # Once the words chose: "Error handling statement" got the graph, "Build" the findings.
    errors = criterion("error_handling_statement", "Error handling statement", tags=["git"])
    assert goals(evidence_for(errors, POOL)) == ["Single commit"]
    graph = criterion("build_tooling", "Build tooling", tags=["graph"])
    assert goals(evidence_for(graph, POOL)) == ["StateGraph built"]
    assert is_covered(errors) and is_covered(graph)


def test_a_criterion_with_checks_sees_their_facts_and_is_covered() -> None:
    pinned = criterion("pinned", "Dependencies pinned", checks=PINNED)
    assert is_covered(pinned)
    assert goals(evidence_for(pinned, POOL)) == ["requirements pinned"]
    assert evidence_for(pinned, POOL)[0].direction == "supports"


def test_a_criterion_nothing_covers_sees_general_facts_of_its_artifact_as_context() -> None:
    graph = criterion("graph_orchestration", "Graph Orchestration")
    assert not is_covered(graph)
    shown = evidence_for(graph, POOL)
    # No profile fact (the graph detective's), no other artifact's, none pointing anywhere.
    assert goals(shown) == ["shell=True", "Single commit"]
    assert {e.direction for e in shown} == {"context"}
    report = criterion("report_depth", "Report depth", "pdf_report")
    assert goals(evidence_for(report, POOL)) == ["Concept explained"]


def test_security_findings_come_first_then_the_surest_facts() -> None:
    tool = criterion("safe_tool_engineering", "Safe Tool Engineering",
                     tags=["tools", "sandbox", "security"])
    pool = [
        make_evidence("sandbox used", location="src/b.py:1", tags=("sandbox",), confidence=0.6),
        make_evidence("unrelated", location="src/a.py:1", tags=("graph",), confidence=1.0),
        make_evidence("clone via argv", location="src/c.py:1", tags=("tools",), confidence=0.9),
        make_evidence("shell=True", location="src/z.py:9", tags=("security",), confidence=0.5),
        make_evidence("tie, earlier file", location="src/a.py:7", tags=("tools",),
                      confidence=0.9),
    ]
    assert goals(evidence_for(tool, pool)) == [
        "shell=True", "tie, earlier file", "clone via argv", "sandbox used"]


def test_a_criterion_is_shown_at_most_max_items_and_told_what_was_left_out() -> None:
    graph = criterion("graph_orchestration", "Graph Orchestration", tags=["graph"])
    pool = [make_evidence(f"edge {i}", location=f"src/g{i:03d}.py:1", tags=("graph",),
                          detective="graph", confidence=i / 100) for i in range(MAX_ITEMS + 10)]
    shown = evidence_for(graph, pool)
    assert len(shown) == MAX_ITEMS
    assert shown[0].goal == f"edge {MAX_ITEMS + 9}"  # the least sure are the ones left out
    assert left_out(graph, pool, shown) == {"graph, context": 10}
    uncovered = criterion("pinned_deps", "Pinned")
    assert left_out(uncovered, POOL, []) == {"history, context": 1, "security, context": 1}


def test_a_criterions_own_check_facts_reach_it_and_no_other() -> None:
    checks = [{"kind": "path", "meaning": "CI", "glob": ".github/workflows/*"}]
    gated = criterion("ci", "CI", tags=["lint"], checks=checks)
    other = criterion("tested", "Tested", tags=["tests"])
    pool = [make_evidence("CI", location=".github/workflows/ci.yml",
                          tags=("check", "criterion:ci")),
            make_evidence("other's check", location="a.py:1",
                          tags=("check", "criterion:tested")),
            make_evidence("ruff configured", location="pyproject.toml:1", tags=("lint",))]
    assert [e.goal for e in evidence_for(gated, pool)] == ["CI", "ruff configured"]
    assert evidence_for(other, pool) == []
    # Checks alone: the criterion's own facts, never every fact of its artifact.
    only = Criterion.model_validate({**gated.model_dump(exclude={"checks"}),
                                     "evidence_tags": None, "checks": checks})
    assert [e.goal for e in evidence_for(only, pool)] == ["CI"]
