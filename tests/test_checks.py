"""Declarative checks: typed by kind, directed, and refused at load when hostile or wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest
from detectives.service_builders import flask_service

from courtroom.checks import (
    Check,
    CountCheck,
    PathCheck,
    QueryCheck,
    SecurityCheck,
    criterion_tag,
)
from courtroom.detectives import REGISTRY, Case, open_workspace
from courtroom.errors import RubricError
from courtroom.rubric import parse_rubric


def rubric_with(*checks: dict[str, object]) -> str:
    return json.dumps({"rubric_metadata": {"rubric_name": "gate"}, "dimensions": [
        {"id": "tested", "name": "Tested", "target_artifact": "github_repo",
         "forensic_instruction": "Look.", "checks": list(checks)}]})


def test_each_kind_loads_as_its_own_model() -> None:
    rubric = parse_rubric(rubric_with(
        {"kind": "path", "meaning": "A test folder", "glob": "tests/**"},
        {"kind": "query", "meaning": "eval call", "hit": "adverse",
         "query": '(call function: (identifier) @f (#eq? @f "eval"))'},
        {"kind": "count", "meaning": "Tests", "measure": "test_functions", "at_least": 3},
        {"kind": "security", "meaning": "XSS", "cwe": [79]}))
    kinds = [type(c) for c in rubric.criteria[0].checks]
    assert kinds == [PathCheck, QueryCheck, CountCheck, SecurityCheck]


def test_a_miss_points_against_a_hit_unless_the_rubric_says_otherwise() -> None:
    must = PathCheck(kind="path", meaning="CI", glob=".github/workflows/*")
    must_not = PathCheck(kind="path", meaning="env file", glob=".env", hit="adverse")
    told = PathCheck(kind="path", meaning="docs", glob="docs/**", miss="context")
    assert (must.direction(True), must.direction(False)) == ("supports", "adverse")
    assert (must_not.direction(True), must_not.direction(False)) == ("adverse", "supports")
    assert told.direction(False) == "context"
    # A finding is bad news unless the rubric says it is what it wants.
    assert SecurityCheck(kind="security", meaning="x").direction(True) == "adverse"


def test_a_threshold_needs_exactly_one_bound() -> None:
    check = CountCheck(kind="count", meaning="m", measure="long_functions", at_most=0)
    assert check.holds(0) and not check.holds(1) and check.bound == "at most 0"
    with pytest.raises(RubricError, match="exactly one of at_least, at_most"):
        parse_rubric(rubric_with({"kind": "git", "meaning": "m", "glob": "x"}))


@pytest.mark.parametrize(("check", "problem"), [
    ({"kind": "query", "meaning": "m", "query": "(call"}, "invalid tree-sitter query"),
    ({"kind": "query", "meaning": "m", "query": "(no_such_node) @x"}, "Invalid node type"),
    ({"kind": "query", "meaning": "m", "query": '((identifier) @x (#match? @x "(a+)+$"))'},
     "predicate #match? is not allowed"),
    ({"kind": "query", "meaning": "m", "query": "(call)"}, "captures nothing"),
    ({"kind": "query", "meaning": "m", "query": "(call) @c", "capture": "d"},
     "capture 'd' is not in the query"),
    ({"kind": "path", "meaning": "m", "glob": "../../etc/passwd"}, "must not contain '..'"),
    ({"kind": "text", "meaning": "m", "glob": "/etc/*", "contains": ["root"]},
     "relative to the repository root"),
    ({"kind": "text", "meaning": "m", "glob": "*.py", "contains": []}, "at least 1 item"),
    ({"kind": "count", "meaning": "m", "measure": "files", "at_least": 1}, "needs a glob"),
    ({"kind": "shell", "meaning": "m"}, "does not match any of the expected tags"),
    ({"kind": "path", "meaning": "m", "glob": "x", "run": "rm -rf /"}, "Extra inputs"),
])
def test_a_bad_check_is_one_line_naming_the_criterion(check: dict[str, object],
                                                       problem: str) -> None:
    with pytest.raises(RubricError) as raised:
        parse_rubric(rubric_with(check), "team.json")
    line = str(raised.value)
    assert line.startswith("team.json: dimensions[0](tested).checks[0]") and problem in line
    assert "\n" not in line


def test_the_criterion_tag_names_the_criterion() -> None:
    assert criterion_tag("deps_pinned") == "criterion:deps_pinned"


DOC = Path(__file__).resolve().parents[1] / "docs" / "rubrics.md"


def test_every_check_example_in_the_docs_loads_and_runs(tmp_path: Path) -> None:
    examples = [json.loads(block) for block in
                re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)]
    members = get_args(get_args(Check)[0])  # the union inside the Annotated
    kinds = {get_args(member.model_fields["kind"].annotation)[0] for member in members}
    assert {e["kind"] for e in examples} == kinds
    repo = flask_service(tmp_path / "svc", xss=True)
    (repo / ".env").write_text("TOKEN=x\n", encoding="utf-8")
    with open_workspace(str(repo), timeout=30) as ws:
        for example in examples:
            rubric = parse_rubric(rubric_with(example), "docs/rubrics.md")
            case = Case(workspace=ws, criteria=tuple(rubric.criteria))
            facts = REGISTRY[f"check_{example['kind']}"](case)
            assert facts and all("criterion:tested" in e.tags for e in facts), example
