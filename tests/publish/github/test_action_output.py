"""The Action's step log: stdout carries only the workflow commands Courtroom means, and
nothing the audited repository wrote (a config key, a pdf value, a file name) opens one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from action_support import fake_github, make_env
from builders import make_repo
from fakes.github_server import FakeGitHub
from log_checks import commands_in

from courtroom.publish.github.action import main

#: The shapes of the commands Courtroom prints, their data escaped (no `::` opening, no `##[`).
_OURS = re.compile(r"::(error|warning|notice)( [^:]*)?::[^\r\n]*")


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    yield from fake_github()


def _run_main(env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(env)
    captured = capsys.readouterr()
    for line in captured.out.splitlines():
        assert _OURS.fullmatch(line) and "##[" not in line, line
    assert commands_in(captured.err) == [], captured.err
    return code, captured.out, captured.err


def test_a_push_audit_of_a_hostile_tree_prints_only_our_commands(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.read_only = True  # findings go out as workflow commands too
    env = make_env(tmp_path, fake, "push")
    make_repo(Path(env["GITHUB_WORKSPACE"]), files={
        ".github/courtroom.yml": 'pdf: "##[add-mask]x ::stop-commands::t.pdf"\n',
        "##[error title=forged]x.py": "import subprocess\nsubprocess.run(input(), shell=True)\n",
        "app.py": "def broken(:\n",
    })
    code, out, err = _run_main(env, capsys)
    assert code in (0, 1), out + err
    assert "\uff3badd-mask]x ::stop-commands::t.pdf not found" in err


@pytest.mark.parametrize("config", [
    '"x\\n::error file=app.py::forged\\n::add-mask::failure": 1\n',
    'pdf: "r.pdf\\r::set-output name=conclusion::success"\n',
    "[" * 30_000 + "]" * 30_000,
])
def test_a_hostile_config_fails_the_check_in_inert_lines(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str], config: str
) -> None:
    env = make_env(tmp_path, fake, "push")
    make_repo(Path(env["GITHUB_WORKSPACE"]), files={".github/courtroom.yml": config})
    code, out, _ = _run_main(env, capsys)
    assert code == 2
    assert out.count("::error::") == 1 and "courtroom.yml" in out
    (check,) = fake.check_runs.values()
    assert check["conclusion"] == "failure"
