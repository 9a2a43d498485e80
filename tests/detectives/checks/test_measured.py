"""Counts, git predicates and the security filter: a number against a bound, and the
confirmed findings of the CWEs a criterion names."""

from __future__ import annotations

from pathlib import Path

from builders import Commit, make_repo

from courtroom.detectives.checks.measured import (
    UNPROVEN,
    count_checks,
    git_checks,
    security_checks,
)
from detectives.checks.support import case_with
from detectives.conftest import OpenCase
from detectives.service_builders import flask_service

LONG = "def long():\n" + "    x = 1\n" * 60 + "    return x\n"


def test_counts_against_their_bound(tmp_path: Path, open_case: OpenCase) -> None:
    repo = flask_service(tmp_path / "svc")
    (repo / "service" / "big.py").write_text(LONG, encoding="utf-8")
    case = case_with(open_case, repo,
                     tests=[{"kind": "count", "meaning": "Two tests or more",
                             "measure": "test_functions", "at_least": 2}],
                     ratio=[{"kind": "count", "meaning": "Three tests per module",
                             "measure": "tests_per_module", "at_least": 3}],
                     short=[{"kind": "count", "meaning": "No function over 50 lines",
                             "measure": "long_functions", "lines": 50, "at_most": 0}],
                     workflows=[{"kind": "count", "meaning": "A workflow",
                                 "measure": "files", "glob": ".github/workflows/*",
                                 "at_least": 1}])
    facts = {e.tags[1].split(":")[1]: e for e in count_checks(case)}
    assert facts["tests"].direction == "supports"
    assert facts["tests"].location == "tests/test_app.py:4"
    assert "test_functions = 2" in (facts["tests"].content or "")
    # Two modules (app, big), two tests: one per module, under the three wanted.
    assert facts["ratio"].direction == "adverse" and "= 1 " in (facts["ratio"].content or "")
    assert (facts["short"].direction, facts["short"].location) == (
        "adverse", "service/big.py:1")
    assert facts["workflows"].direction == "supports"


def test_commits_touching_a_glob(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", [
        Commit("code", {"src/a.py": "x = 1\n"}),
        Commit("tests", {"tests/test_a.py": "def test_a():\n    pass\n"}),
        Commit("more code", {"src/a.py": "x = 2\n", "docs/a b.md": "notes\n"})])
    wanted = {"src": ("src/**", 2), "spaced": ("docs/a b.md", 1), "tests": ("tests/**", 2)}
    case = case_with(open_case, repo, **{
        name: [{"kind": "git", "meaning": f"{name} changed", "glob": glob, "at_least": least}]
        for name, (glob, least) in wanted.items()})
    facts = {e.tags[1].split(":")[1]: e for e in git_checks(case)}
    assert facts["src"].direction == "supports" and len(facts["src"].location) == 40
    assert facts["spaced"].direction == "supports"
    assert facts["tests"].direction == "adverse" and "1 commit(s)" in (
        facts["tests"].content or "")


def test_without_history_a_git_check_is_a_miss(tmp_path: Path, open_case: OpenCase) -> None:
    repo = tmp_path / "plain"
    repo.mkdir()
    (repo / "a.py").write_text("x = 1\n", encoding="utf-8")
    case = case_with(open_case, repo, src=[{"kind": "git", "meaning": "m", "glob": "*.py",
                                            "at_least": 1}])
    [fact] = git_checks(case)
    assert fact.direction == "adverse" and "no readable git history" in fact.rationale


def test_security_keeps_confirmed_findings_of_the_listed_cwes(tmp_path: Path,
                                                              open_case: OpenCase) -> None:
    repo = flask_service(tmp_path / "svc", xss=True)
    case = case_with(open_case, repo,
                     xss=[{"kind": "security", "meaning": "Reflected XSS", "cwe": [79]}],
                     sqli=[{"kind": "security", "meaning": "SQL injection", "cwe": [89]}])
    facts = {e.tags[-1]: e for e in security_checks(case) if "security" not in e.tags}
    [xss] = [e for e in security_checks(case) if "criterion:xss" in e.tags]
    assert xss.location == "service/app.py:22" and xss.direction == "adverse"
    assert "security" in xss.tags and "cross-site scripting" in (xss.content or "")
    sqli = facts["criterion:sqli"]
    assert (sqli.direction, sqli.found, sqli.goal) == ("supports", True,
                                                       "Not found: SQL injection")


def test_no_finding_is_unproven_when_the_scan_left_files_out(tmp_path: Path,
                                                             open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": "x = 1\n",
                                            "lib/cached.pyc": b"\x00\x01compiled"})
    case = case_with(open_case, repo, sqli=[{"kind": "security", "meaning": "SQL injection",
                                             "cwe": [89]}])
    [fact] = security_checks(case)
    assert fact.direction == "supports" and fact.confidence == UNPROVEN
    assert "1 file(s) not examined" in (fact.content or "")
