"""Rubric loading: the bundled rubric, real-world shapes, and one-line errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from verdict_builders import make_evidence

from courtroom.detectives.docket import evidence_for, is_covered
from courtroom.errors import RubricError
from courtroom.rubric import default_rubric_path, load_rubric, parse_rubric

ROOT = Path(__file__).resolve().parent.parent


def minimal(**overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "rubric_metadata": {"rubric_name": "PR security gate", "version": "1"},
        "dimensions": [
            {
                "id": "no_shell",
                "name": "No shell strings",
                "target_artifact": "github_repo",
                "forensic_instruction": "Look for shell=True.",
            }
        ],
    }
    data.update(overrides)
    return data


def test_bundled_rubric_has_ten_dimensions_and_parameters() -> None:
    rubric = load_rubric(default_rubric_path())
    assert default_rubric_path().resolve() == (ROOT / "rubric.json").resolve()
    ids = [d.id for d in rubric.criteria]
    assert ids == [
        "git_forensic_analysis",
        "state_management_rigor",
        "graph_orchestration",
        "safe_tool_engineering",
        "structured_output_enforcement",
        "judicial_nuance",
        "chief_justice_synthesis",
        "theoretical_depth",
        "report_accuracy",
        "swarm_visual",
    ]
    artifacts = {d.id: d.target_artifact for d in rubric.criteria}
    assert artifacts["theoretical_depth"] == artifacts["report_accuracy"] == "pdf_report"
    assert artifacts["swarm_visual"] == "pdf_images"
    assert all(
        d.success_pattern and d.failure_pattern and d.judicial_logic for d in rubric.criteria
    )
    assert rubric.parameters.weights == {"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 2.0}
    assert set(rubric.rules_prose) >= {"security_override", "fact_supremacy", "dissent_requirement"}
    assert len(rubric.sha256) == 64


def test_prose_only_rules_and_no_judicial_logic_load_with_defaults() -> None:
    text = json.dumps(minimal(synthesis_rules={"security_override": "Cap at 3."}))
    rubric = parse_rubric(text, "gate.json")
    assert rubric.parameters.security_cap == 3.0
    assert rubric.criteria[0].judicial_logic is None
    assert rubric.court.max_rounds == 2


def test_parameters_change_without_code() -> None:
    text = json.dumps(
        minimal(synthesis_rules={"parameters": {"weights": {"TechLead": 3}, "security_cap": 2}})
    )
    params = parse_rubric(text).parameters
    assert params.weights == {"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 3.0}
    assert params.security_cap == 2.0


def test_the_security_cap_is_for_criteria_about_security() -> None:
    # Tagged with a security tag, or listed by the rubric: nothing else may be capped.
    criteria = [{"id": ident, "name": ident, "target_artifact": "github_repo",
             "forensic_instruction": "Look.", "evidence_tags": tags}
            for ident, tags in (("pinned", ["git"]), ("injection", ["security"]),
                                ("advisories", ["security_unconfirmed"]), ("secrets", None))]
    criteria.append({"id": "xss", "name": "XSS", "target_artifact": "github_repo",
                 "forensic_instruction": "Look.",
                 "checks": [{"kind": "security", "meaning": "XSS", "cwe": [79]}]})
    listed = {"parameters": {"security_criteria": ["secrets"]}}
    rubric = parse_rubric(json.dumps(minimal(dimensions=criteria, synthesis_rules=listed)))
    assert rubric.parameters.security_criteria == ["advisories", "injection", "secrets", "xss"]
    assert parse_rubric(json.dumps(minimal())).parameters.security_criteria == []


def test_the_bundled_rubric_selects_its_profile_by_name() -> None:
    rubric = load_rubric(default_rubric_path())
    assert rubric.rubric_metadata.profile == "automaton-auditor"
    assert rubric.parameters.security_criteria == ["safe_tool_engineering"]
    assert parse_rubric(json.dumps(minimal())).rubric_metadata.profile is None


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: "{not json", "r.json: invalid JSON at line 1"),
        (lambda d: json.dumps([1]), "r.json: top level must be a JSON object"),
        (lambda d: json.dumps({**d, "dimensions": []}), "r.json: dimensions:"),
        (
            lambda d: json.dumps(
                {**d, "dimensions": [{**d["dimensions"][0], "target_artifact": "zip"}]}
            ),
            "r.json: dimensions[0](no_shell).target_artifact: 'zip' is not one of",
        ),
        (
            lambda d: json.dumps(
                {**d, "dimensions": [{k: v for k, v in d["dimensions"][0].items() if k != "name"}]}
            ),
            "r.json: dimensions[0](no_shell).name: required field is missing",
        ),
        (
            lambda d: json.dumps({**d, "dimensions": d["dimensions"] * 2}),
            "duplicate dimension id 'no_shell'",
        ),
        (
            lambda d: json.dumps({**d, "synthesis_rules": {"parameters": {"security_cap": 9}}}),
            "r.json: synthesis_rules.parameters.security_cap:",
        ),
        (
            lambda d: json.dumps({"dimensions": d["dimensions"]}),
            "r.json: rubric_metadata: required",
        ),
        (
            lambda d: json.dumps({**d, "synthesis_rules": {
                "parameters": {"security_criteria": ["no_shell", "ghost"]}}}),
            "r.json: synthesis_rules.parameters.security_criteria: unknown criterion 'ghost'",
        ),
    ],
)
def test_invalid_rubrics_name_file_field_and_problem(mutate, expected) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RubricError) as info:
        parse_rubric(mutate(minimal()), "r.json")
    message = str(info.value)
    assert expected in message
    assert "\n" not in message


def test_missing_rubric_file(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="rubric file not found"):
        load_rubric(tmp_path / "nope.json")


def test_user_layouts_without_tags_load_and_are_not_judged_on_words() -> None:
    # Real users' layouts: prose-only synthesis rules, judicial_logic, no evidence_tags.
    logic = {"prosecutor": "Charge gaps.", "defense": "Credit effort.", "tech_lead": "Ask."}
    criteria = [
        {"id": "langgraph_architecture", "name": "LangGraph Orchestration Rigor",
         "target_artifact": "github_repo", "forensic_instruction": "Check the edges.",
         "judicial_logic": logic},
        {"id": "forensic_accuracy_docs", "name": "Forensic Accuracy (Documentation)",
         "target_artifact": "pdf_report", "forensic_instruction": "Cross-check claims."},
    ]
    rules = {"security_override": "Confirmed flaws cap the score at 3.",
             "fact_supremacy": "Facts overrule opinions."}
    rubric = parse_rubric(json.dumps(minimal(dimensions=criteria, synthesis_rules=rules)))
    graph, docs = rubric.criteria
    pool = [make_evidence("Fan-in", location="src/graph.py:3", tags=("github_repo", "graph"),
                          detective="graph", direction="supports"),
            make_evidence("Single commit", location="abc1234", tags=("github_repo", "git"),
                          detective="history", direction="adverse")]
    # "graph" in the name does not fetch the graph's facts: only general ones, as context.
    assert not is_covered(graph)
    assert [(e.goal, e.direction) for e in evidence_for(graph, pool)] == [
        ("Single commit", "context")]
    assert evidence_for(docs, pool) == []
