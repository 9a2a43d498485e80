"""The tests detective: test functions, their ratio to modules, the mirrored test folder."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.generic.tests import suite
from detectives.conftest import OpenCase, by_goal
from detectives.service_builders import flask_service


def test_tests_are_located_and_untested_modules_named(tmp_path: Path,
                                                      open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={
        "pkg/__init__.py": "", "pkg/core.py": "X = 1\n", "pkg/extra.py": "Y = 2\n",
        "tests/test_core.py": "def test_x():\n    pass\n\n\ndef test_y():\n    pass\n",
        "tests/helpers.py": "def make():\n    pass\n"})
    facts = suite(open_case(repo))
    present = by_goal(facts, "Test functions present")[0]
    assert (present.location, present.direction) == ("tests/test_core.py:1", "supports")
    ratio = by_goal(facts, "Test functions per module")[0]
    assert ratio.content == "1.00 tests per module; 1/2 mirrored"
    [untested] = by_goal(facts, "Module without a test file")
    assert (untested.location, untested.direction) == ("pkg/extra.py", "adverse")


def test_no_tests_is_one_adverse_gap(tmp_path: Path, open_case: OpenCase) -> None:
    [fact] = suite(open_case(flask_service(tmp_path / "svc", tests=False)))
    assert (fact.found, fact.direction, fact.tags) == (False, "adverse", ["github_repo",
                                                                          "tests"])
