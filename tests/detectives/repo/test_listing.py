"""The listing: what counts as Python (by name, by shebang, as bytecode) and which folders
are skipped (only those the commit provably does not hold)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from courtroom.detectives.repo import listing


def _walk(root: Path, committed: listing.Committed = None) -> listing.Listing:
    return listing.walk(str(root), lambda _path: True, committed=committed)


@pytest.mark.parametrize(("rel", "expected"), [
    ("app.wsgi", True), ("views.pyc", True), ("tool.pyz", True),
    ("pkg/__pycache__/m.cpython-311.pyo", True),
    ("run.cgi", False), ("deploy.sh", False), ("app.pyi", False),
])
def test_python_by_name_includes_wsgi_bytecode_and_zip_apps(rel: str, expected: bool) -> None:
    assert listing.may_be_python(rel) is expected


@pytest.mark.parametrize(("first", "expected"), [
    (b"#!/usr/bin/env python3\n", True), (b"#!/usr/bin/python2.7 -u\n", True),
    (b"#!/opt/pypy3/bin/pypy3\n", True), (b"#!/bin/sh\n", False),
    (b"# python, but no shebang\n", False), (b"", False),
])
def test_a_shebang_naming_the_interpreter_makes_any_file_python(
    tmp_path: Path, first: bytes, expected: bool
) -> None:
    (tmp_path / "run.cgi").write_bytes(first + b"print(1)\n")
    assert listing.python_shebang(str(tmp_path / "run.cgi")) is expected


def test_a_fifo_is_never_opened_for_its_shebang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")  # opening it would block the walk forever
    assert listing.python_shebang(str(tmp_path / "pipe")) is False
    assert _walk(tmp_path).scripts == []


def test_padding_cannot_crowd_out_a_script_of_any_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(listing, "MAX_OTHER_FILES", 30)
    (tmp_path / "aaa").mkdir()
    for i in range(100):
        (tmp_path / "aaa" / f"pad{i:03d}.txt").write_text("")
    (tmp_path / "zz").mkdir()  # walked after the padding
    (tmp_path / "zz" / "run.cgi").write_text("#!/usr/bin/env python3\nx = 1\n")
    (tmp_path / "zz" / "run.sh").write_text("#!/bin/sh\necho hi\n")
    found = _walk(tmp_path)
    assert found.scripts == ["zz/run.cgi"] and "zz/run.cgi" in found.files
    assert "zz/run.sh" not in found.files and not found.source_incomplete


def test_an_ignored_script_leaves_the_scan_incomplete(tmp_path: Path) -> None:
    (tmp_path / "run.cgi").write_text("#!/usr/bin/env python3\nx = 1\n")
    (tmp_path / "page.cgi").write_text("#!/bin/sh\necho hi\n")
    found = listing.walk(str(tmp_path), lambda _path: True, ignore=("*.cgi",))
    assert found.files == [] and found.ignored == 2
    assert found.ignored_scripts == ["run.cgi"] and found.source_incomplete
    assert found.notes() == ["1 Python script(s) (by their shebang) matched the ignore globs "
                             "and were not scanned (run.cgi)"]


def test_a_script_beyond_the_source_cap_leaves_the_scan_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(listing, "MAX_SOURCE_FILES", 3)
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text("x = 1\n")
    (tmp_path / "zz_run.cgi").write_text("#!/usr/bin/python3\nx = 1\n")
    found = _walk(tmp_path)
    assert found.scripts == [] and found.source_left_out == 1 and found.source_incomplete


def test_folders_named_like_third_party_code_are_skipped_only_when_not_committed(
    tmp_path: Path,
) -> None:
    for folder in ("build", "pkg/dist", "x.egg-info", ".venv", "src"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "m.py").write_text("x = 1\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("")
    everything = ["build/m.py", "pkg/dist/m.py", "src/m.py", "x.egg-info/m.py", ".venv/m.py"]
    assert _walk(tmp_path).files == sorted(everything)  # no history: nothing is provable
    committed = {"pkg", "pkg/dist", "src"}.__contains__
    assert _walk(tmp_path, committed).files == ["pkg/dist/m.py", "src/m.py"]


@pytest.mark.parametrize(("files", "lone"), [
    (["views.pyc"], ["views.pyc"]),
    (["views.py", "views.pyc"], []),
    (["app.pyw", "app.pyo"], []),
    (["pkg/__pycache__/views.cpython-311.pyc"], ["pkg/__pycache__/views.cpython-311.pyc"]),
    (["pkg/views.py", "pkg/__pycache__/views.cpython-311.opt-1.pyc"], []),
    (["__pycache__/m.cpython-311.pyc", "m.py"], []),
    (["lib/views.py", "views.pyc"], ["views.pyc"]),
])
def test_bytecode_without_its_source_is_found(files: list[str], lone: list[str]) -> None:
    assert listing.bytecode_without_source(files) == lone
