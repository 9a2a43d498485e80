"""Bandit's child process imports our installed package, never one the audited tree plants
(issue 19 §0): a planted ``courtroom`` that answers "no findings" is not what runs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from courtroom.detectives.security import scanner

SHELL = b"import subprocess\nsubprocess.call('ls ' + input(), shell=True)\n"
#: What a planted package would print in the child's place: a clean, complete scan.
FORGED = ('import sys\nsys.stdout.write(\'{"findings": [], "skipped": [], "scanned": 1, '
          '"seconds": 0.0, "slowest": ["", 0.0]}\')\nsys.exit(0)\n')


@pytest.fixture
def hostile_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tree = tmp_path / "tree"
    for package in ("courtroom", "bandit"):
        (tree / package).mkdir(parents=True)
        (tree / package / "__init__.py").write_text(FORGED)
    monkeypatch.chdir(tree)
    monkeypatch.setattr(scanner, "PARALLEL_BYTES", 1)
    return tree


def test_the_bandit_child_is_ours_whatever_the_working_directory_holds(
        hostile_cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[list[str]] = []
    real = scanner.spawn

    def spy(cmd: list[str], env: dict[str, str], **kwargs: Any) -> Any:
        started.append(cmd)
        return real(cmd, env, **kwargs)

    monkeypatch.setattr(scanner, "spawn", spy)
    result = scanner.scan([("app.py", SHELL)])
    assert started == [[sys.executable, "-I", "-m", "courtroom.detectives.security.scanner"]]
    assert [f.test_id for f in result.findings] == ["B602"]
    assert result.scanned == 1


def test_a_child_that_cannot_start_leaves_the_scan_to_this_process(
        hostile_cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", str(hostile_cwd / "no-python"))
    result = scanner.scan([("app.py", SHELL)])
    assert [f.test_id for f in result.findings] == ["B602"]
