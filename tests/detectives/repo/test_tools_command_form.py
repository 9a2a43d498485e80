"""The tools detective's command form: a list, a proven string, or a value it cannot resolve.

Only a shell or a proven command string is a defect; a command the detective cannot
resolve, run without a shell, is not shown to be injectable and is never charged as such.
"""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.repo.tools import tools
from detectives.conftest import OpenCase, by_goal

ASPECT = "Commands run as argument lists, without a shell"

RETURNS_A_LIST = '''import subprocess


def git_command(root: str, *args: str) -> list[str] | None:
    return ["git", "-C", root, *args] if args else None


def run_git(root: str, *args: str) -> str:
    cmd = git_command(root, *args)
    out = subprocess.run(cmd, capture_output=True, check=True)
    return out.stdout.decode()
'''

UNRESOLVED = '''import subprocess


def run(argv):
    subprocess.run(argv, check=True)
'''

STRING_VARIABLE = '''import subprocess


def clone(url):
    command = f"git clone {url}"
    subprocess.run(command, check=True)
'''

CONCATENATED = '''import subprocess


def clone(url):
    subprocess.run("git clone " + url, check=True)
'''


def _fact(tmp_path: Path, open_case: OpenCase, code: str):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path / "r", files={"src/git_tools.py": code})
    return by_goal(tools(open_case(repo)), ASPECT)[0]


def test_a_variable_from_a_function_returning_a_list_is_an_argument_list(
    tmp_path: Path, open_case: OpenCase
) -> None:
    fact = _fact(tmp_path, open_case, RETURNS_A_LIST)
    assert fact.direction == "supports"
    assert fact.rationale.startswith("Every subprocess call passes an argument list")


def test_an_unresolved_command_without_a_shell_is_neither_charged_nor_credited(
    tmp_path: Path, open_case: OpenCase
) -> None:
    fact = _fact(tmp_path, open_case, UNRESOLVED)
    assert fact.direction == "context" and "injected" not in fact.rationale
    assert "could not resolve" in fact.rationale and fact.location == "src/git_tools.py:5"


def test_no_process_call_gives_no_credit_for_its_form(tmp_path: Path, open_case: OpenCase) -> None:
    code = "from git import Repo\n\n\ndef clone(url, to):\n    Repo.clone_from(url, to)\n"
    fact = _fact(tmp_path, open_case, code)
    assert fact.direction == "context" and "no command form to judge" in fact.rationale


def test_a_keyword_named_like_the_command_is_not_its_assignment(
    tmp_path: Path, open_case: OpenCase
) -> None:
    code = ("import subprocess\n\n\ndef clone(url, log):\n    log(cmd=['x'])\n"
            "    cmd = 'git clone ' + url\n    subprocess.run(cmd, check=True)\n")
    assert _fact(tmp_path, open_case, code).direction == "adverse"


def test_a_single_program_name_is_not_a_command_string(
    tmp_path: Path, open_case: OpenCase
) -> None:
    code = "import subprocess\n\n\ndef where():\n    subprocess.run('pwd', check=True)\n"
    assert _fact(tmp_path, open_case, code).direction == "supports"


def test_a_string_variable_or_concatenation_is_a_command_string(
    tmp_path: Path, open_case: OpenCase
) -> None:
    for code, line in ((STRING_VARIABLE, 6), (CONCATENATED, 5)):
        fact = _fact(tmp_path / str(line), open_case, code)
        assert fact.direction == "adverse" and fact.location == f"src/git_tools.py:{line}"
        assert "a command string" in fact.rationale
