"""The tools detective: sandbox and cleanup, command form, failures, URL checks, auth errors."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.repo.tools import tools
from detectives.conftest import OpenCase, by_goal
from detectives.submissions import exemplary_submission, flawed_submission

ASPECTS = ("Clone isolated in a temporary directory that is cleaned up",
           "Commands run as argument lists, without a shell", "Command failures checked",
           "Clone URL validated before use", "Authentication failures reported")

BUILT_COMMANDS = '''import subprocess
import tempfile


def clone(url: str) -> str:
    where = tempfile.mkdtemp()
    cmd = ["git", "clone", "--depth", "1"]
    cmd.append(url)
    subprocess.run(cmd, check=True)
    subprocess.run(list(("git", "-C", where, "log")), check=True)
    return where


def run(command: list[str]) -> None:
    subprocess.run(command, check=True)
'''


def _directions(ev: list) -> dict[str, str]:
    return {goal: by_goal(ev, goal)[0].direction for goal in ASPECTS}


def test_exemplary_clone_meets_every_aspect(tmp_path: Path, open_case: OpenCase) -> None:
    ev = tools(open_case(exemplary_submission(tmp_path / "r")))
    assert set(_directions(ev).values()) == {"supports"}
    assert by_goal(ev, ASPECTS[0])[0].location == "src/tools/repo_tools.py:10"


def test_commands_built_as_list_calls_or_list_variables(tmp_path: Path,
                                                        open_case: OpenCase) -> None:
    ev = tools(open_case(make_repo(tmp_path / "r", files={"src/git.py": BUILT_COMMANDS})))
    ways = _directions(ev)
    assert ways["Commands run as argument lists, without a shell"] == "supports"
    # mkdtemp with nothing removing it: every audit leaves a clone behind.
    sandbox = by_goal(ev, ASPECTS[0])[0]
    assert sandbox.direction == "adverse" and sandbox.location == "src/git.py:6"
    assert "TemporaryDirectory" in (sandbox.fix or "")
    assert ways["Clone URL validated before use"] == "adverse"
    assert ways["Authentication failures reported"] == "adverse"
    # A missing safeguard is not found; the leaking mkdtemp is a defect that was found.
    assert not by_goal(ev, "Clone URL validated")[0].found and sandbox.found


def test_shell_strings_are_adverse(tmp_path: Path, open_case: OpenCase) -> None:
    ev = tools(open_case(flawed_submission(tmp_path / "r")))
    unsafe = by_goal(ev, ASPECTS[1])[0]
    assert unsafe.direction == "adverse" and unsafe.location.startswith("main.py:")


def test_no_clone_code_is_a_gap(tmp_path: Path, open_case: OpenCase) -> None:
    code = "import subprocess\n\n\ndef ls():\n    subprocess.run(['ls'], check=True)\n"
    ev = tools(open_case(make_repo(tmp_path / "r", files={"a.py": code})))
    assert by_goal(ev, "Repository cloning tool")[0].direction == "adverse"
