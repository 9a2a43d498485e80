"""Functions over a size or branch bound, bare or swallowed exceptions, logging use."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.generic.code import (
    MAX_BRANCHES,
    MAX_LINES,
    exceptions,
    function_size,
    logging_use,
)
from detectives.conftest import OpenCase, by_goal
from detectives.service_builders import flask_service

LONG = "def long():\n" + "    x = 1\n" * MAX_LINES + "    return x\n"
BRANCHY = "def branchy(x):\n" + "".join(
    f"    if x == {i}:\n        return {i}\n" for i in range(MAX_BRANCHES + 1))
HANDLERS = '''def a():
    try:
        run()
    except:
        log()


def b():
    try:
        run()
    except (OSError, Exception):
        # nothing to do
        pass


def d(paths):
    for path in paths:
        try:
            read(path)
        except FileNotFoundError:
            continue


def c():
    try:
        run()
    except (OSError, ValueError) as exc:
        raise RuntimeError("failed") from exc
'''


def test_functions_over_each_bound_are_located(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"pkg/big.py": LONG + "\n\n" + BRANCHY,
                                            "tests/test_big.py": LONG.replace("long", "test_x")})
    facts = function_size(open_case(repo))
    assert [(e.goal, e.location) for e in facts] == [
        ("Function over the size bound", "pkg/big.py:1"),
        ("Function over the branch bound", f"pkg/big.py:{MAX_LINES + 5}")]
    assert all(e.direction == "adverse" and "complexity" in e.tags for e in facts)


def test_small_functions_support(tmp_path: Path, open_case: OpenCase) -> None:
    [fact] = function_size(open_case(flask_service(tmp_path / "svc")))
    assert fact.direction == "supports" and "All 2 function(s)" in fact.rationale


def test_bare_and_broad_swallowed_handlers_not_an_expected_skip_or_a_raise(tmp_path: Path,
                                                             open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"pkg/io.py": HANDLERS,
                                            "tests/test_io.py": HANDLERS})
    facts = exceptions(open_case(repo))
    assert [(e.goal, e.location) for e in facts] == [
        ("Exception handler bare", "pkg/io.py:4"),
        ("Exception handler swallowed", "pkg/io.py:11")]


def test_the_service_logs_and_a_bare_script_does_not(tmp_path: Path,
                                                     open_case: OpenCase) -> None:
    svc = open_case(flask_service(tmp_path / "svc", swallowed=True))
    assert [e.location for e in logging_use(svc)] == ["service/app.py:1"]
    assert by_goal(exceptions(svc), "Exception handler bare and swallowed")[0].direction == \
        "adverse"
    script = open_case(make_repo(tmp_path / "s", files={"run.py": "print('hi')\n"}))
    [fact] = logging_use(script)
    assert (fact.found, fact.direction) == (False, "adverse")
