"""What the audit could not cover becomes evidence that fails the gate closed, and a
problem; ignored files alone are reported, never a reason to fail."""

from __future__ import annotations

from pathlib import Path

from courtroom.detectives.base import Case
from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.coverage import coverage_facts
from courtroom.detectives.repo.workspace import Workspace
from courtroom.problems import error_lines


def _case(root: Path, ignore: tuple[str, ...]) -> Case:
    return Case(workspace=Workspace(root, "r", ignore=ignore), pdf=None, pdf_display=None)


def test_an_ignored_python_script_fails_closed_and_is_named(tmp_path: Path) -> None:
    (tmp_path / "run.cgi").write_text("#!/usr/bin/python3\nimport os\n")
    facts, errors = coverage_facts(_case(tmp_path, ("*.cgi",)), {})
    assert [SCAN_INCOMPLETE in f.tags for f in facts] == [True]
    assert "(run.cgi)" in facts[0].rationale and "1 file(s) matched" in facts[0].rationale
    assert error_lines(errors) == [
        "workspace: 1 Python script(s) (by their shebang) matched the ignore globs and were "
        "not scanned (run.cgi)"]


def test_ignored_files_that_are_not_python_are_only_reported(tmp_path: Path) -> None:
    (tmp_path / "page.cgi").write_text("#!/bin/sh\necho hi\n")
    (tmp_path / "app.py").write_text("x = 1\n")
    facts, errors = coverage_facts(_case(tmp_path, ("*.cgi",)), {})
    assert [SCAN_INCOMPLETE in f.tags for f in facts] == [False] and errors == []
    assert "No listing limit was hit. 1 file(s) matched" in facts[0].rationale


def test_a_failed_security_detective_fails_closed(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n")
    facts, _errors = coverage_facts(_case(tmp_path, ()), {"security": "timed out"})
    assert [f.goal for f in facts if SCAN_INCOMPLETE in f.tags] == [
        "Security scan did not complete"]
