"""The checks that read files: query captures, path globs and substrings become located,
directed facts of their criterion alone."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.checks.facts import MAX_FACTS
from courtroom.detectives.checks.files import path_checks, query_checks, text_checks
from detectives.checks.support import case_with
from detectives.conftest import OpenCase
from detectives.service_builders import flask_service

EVAL = '(call function: (identifier) @f (#eq? @f "eval")) @call'


def test_query_captures_are_located_facts_of_their_criterion(tmp_path: Path,
                                                             open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\ny = eval(input())\n",
                                            "tests/test_a.py": "eval('1')\n"})
    case = case_with(open_case, repo, no_eval=[
        {"kind": "query", "meaning": "eval of text", "hit": "adverse", "query": EVAL,
         "capture": "call", "glob": "tests/**"}])
    facts = query_checks(case)
    assert [(e.location, e.direction, e.found) for e in facts] == [
        ("tests/test_a.py:1", "adverse", True)]
    assert facts[0].tags == ["check", "criterion:no_eval"]
    assert "eval('1')" in (facts[0].content or "")


def test_a_query_without_matches_is_one_miss(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\n"})
    case = case_with(open_case, repo, no_eval=[
        {"kind": "query", "meaning": "eval of text", "hit": "adverse", "query": EVAL}])
    [fact] = query_checks(case)
    assert fact.goal == "Not found: eval of text"
    assert (fact.direction, fact.found, fact.location) == ("supports", True, ".")


def test_must_and_must_not_paths(tmp_path: Path, open_case: OpenCase) -> None:
    repo = flask_service(tmp_path / "svc")
    case = case_with(open_case, repo,
                     ci=[{"kind": "path", "meaning": "CI workflow",
                          "glob": ".github/workflows/*.yml"}],
                     no_env=[{"kind": "path", "meaning": "committed .env file", "glob": ".env",
                              "hit": "adverse"}],
                     docs=[{"kind": "path", "meaning": "a docs folder", "glob": "docs/**"}])
    facts = {e.tags[1]: e for e in path_checks(case)}
    assert facts["criterion:ci"].location == ".github/workflows/ci.yml"
    assert facts["criterion:ci"].direction == "supports"
    assert (facts["criterion:no_env"].direction, facts["criterion:no_env"].found) == (
        "supports", True)
    # A wanted file that is absent is a gap: adverse, and not a found fact to cite.
    assert (facts["criterion:docs"].direction, facts["criterion:docs"].found) == (
        "adverse", False)


def test_text_hits_each_line_and_ignores_case_when_told(tmp_path: Path,
                                                        open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={
        "app.py": "import subprocess\nsubprocess.run(cmd, SHELL=True)\nprint('ok')\n",
        "notes.md": "shell=True is mentioned here\n"})
    case = case_with(open_case, repo, shell=[
        {"kind": "text", "meaning": "shell=True", "glob": "*.py", "hit": "adverse",
         "contains": ["shell=true"], "ignore_case": True}])
    [fact] = text_checks(case)
    assert (fact.location, fact.direction) == ("app.py:2", "adverse")


def test_two_criteria_with_the_same_check_get_a_fact_each(tmp_path: Path,
                                                          open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\n"})
    same = [{"kind": "path", "meaning": "a module", "glob": "*.py"}]
    facts = path_checks(case_with(open_case, repo, one=same, two=same))
    assert len({e.id for e in facts}) == 2


def test_many_hits_are_capped_with_a_note(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={f"m{i:02d}.py": "" for i in range(MAX_FACTS + 5)})
    case = case_with(open_case, repo, many=[{"kind": "path", "meaning": "m", "glob": "*.py"}])
    facts = path_checks(case)
    assert len(facts) == MAX_FACTS + 1 and "more than" in (facts[-1].content or "")


def test_checks_never_read_outside_the_tree(tmp_path: Path, open_case: OpenCase) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("TOKEN\n", encoding="utf-8")
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\n"})
    (repo / "link.txt").symlink_to(outside)
    case = case_with(open_case, repo, leak=[
        {"kind": "text", "meaning": "token", "glob": "*.txt", "contains": ["TOKEN"]}])
    [fact] = text_checks(case)
    assert fact.goal.startswith("Not found")
