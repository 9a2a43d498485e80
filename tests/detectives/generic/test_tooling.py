"""CI configuration and linter / type-checker configuration, located where they are set."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.generic.tooling import ci, linters
from detectives.conftest import OpenCase, by_goal
from detectives.service_builders import flask_service


def test_ci_files_and_the_tools_their_steps_run(tmp_path: Path, open_case: OpenCase) -> None:
    facts = ci(open_case(flask_service(tmp_path / "svc")))
    assert by_goal(facts, "CI configuration present")[0].location == ".github/workflows/ci.yml"
    step = by_goal(facts, "CI runs pytest")[0]
    assert (step.location, step.direction) == (".github/workflows/ci.yml:8", "supports")


def test_no_ci_is_adverse_and_a_nested_file_of_that_name_is_not_ci(
        tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"vendor/x/.travis.yml": "language: python\n",
                                            "a.py": "x = 1\n"})
    [fact] = ci(open_case(repo))
    assert (fact.found, fact.direction) == (False, "adverse")


def test_tools_configured_in_each_kind_of_file(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={
        "setup.cfg": "[metadata]\nname = x\n\n[flake8]\nmax-line-length = 100\n",
        "mypy.ini": "[mypy]\nstrict = True\n",
        ".pre-commit-config.yaml": "repos:\n  - repo: x\n    hooks:\n      - id: black\n",
        "pyproject.toml": "[tool.blacklist]\nx = 1\n"})
    found = {e.content: e.location for e in linters(open_case(repo)) if e.found}
    assert found == {"flake8": "setup.cfg:4", "mypy": "mypy.ini:1",
                     "black": ".pre-commit-config.yaml:4"}


def test_a_missing_type_checker_is_adverse(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"ruff.toml": "line-length = 100\n"})
    facts = linters(open_case(repo))
    assert [(e.goal, e.direction) for e in facts] == [
        ("ruff configured", "supports"), ("A type checker configured", "adverse")]
    assert facts[1].tags == ["github_repo", "types"]
