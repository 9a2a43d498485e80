"""What the security scan examines: everything the interpreter could run as Python, read as
it reads it; the rest named with its reason, never dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.parsing import source_index
from courtroom.detectives.security.detective import examined, scan, security
from detectives.conftest import OpenCase

INJECTION = "import os\nimport sys\n\nos.system(sys.argv[1])\n"


def test_files_python_reads_as_they_are_keep_their_parse(tmp_path: Path,
                                                         open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"a.py": "x = 1\n", "b.py": "y = 2\n"}))
    index = source_index(case.workspace)
    again = examined(case.workspace, index)
    assert [id(sf) for sf in again.files] == [id(sf) for sf in index.files]
    assert again.unexamined == [] and again.python_count == 2


def test_decoded_and_unnamed_python_is_parsed_under_its_own_path(
    tmp_path: Path, open_case: OpenCase
) -> None:
    files = {"app.wsgi": INJECTION, "hidden.py": "# coding: utf-7\n# +AAo-import os\n"}
    case = open_case(make_repo(tmp_path / "r", files=files))
    index = examined(case.workspace, source_index(case.workspace))
    assert [sf.path for sf in index.files] == ["app.wsgi", "hidden.py"]
    hidden = index.files[1]
    assert hidden.source == b"# coding_ utf-7\n# \nimport os\n" and not hidden.error_lines


def test_every_file_that_cannot_be_examined_is_named_with_its_reason(
    tmp_path: Path, open_case: OpenCase
) -> None:
    files: dict[str, str | bytes] = {
        "ok.py": "x = 1\n",
        "nul.py": b"x = 1\n\x00",
        "lfs.py": "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 9\n",
        "views.pyc": b"\x00\x01", "kept.py": "", "__pycache__/kept.cpython-311.pyc": b"\x00",
        "huge.wsgi": "x = 1\n" * 120_000, "tool.pyz": b"#!/usr/bin/env python3\nPK\x03\x04",
    }
    case = open_case(make_repo(tmp_path / "r", files=files))
    ev = security(case).evidence
    report = scan(case.workspace)
    assert report is not None and report.files_examined == 2  # ok.py, kept.py
    assert [line.split(":")[0] for line in report.not_examined] == [
        "huge.wsgi", "lfs.py", "nul.py", "tool.pyz", "views.pyc"]
    assert "huge.wsgi: unreadable or over the 600,000-byte limit" in report.not_examined
    incomplete = [e for e in ev if SCAN_INCOMPLETE in e.tags]
    assert len(incomplete) == 1 and "views.pyc: compiled Python without its source" in \
        (incomplete[0].content or "")


def test_a_repository_of_only_unexaminable_python_is_incomplete_not_empty(
    tmp_path: Path, open_case: OpenCase
) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"views.pyc": b"\x00",
                                                      "README.md": "# r\n"}))
    ev = security(case).evidence
    assert [e.goal for e in ev if SCAN_INCOMPLETE in e.tags] == [
        "Files the security scan could not examine"]
    assert not [e for e in ev if "missing" in e.tags]


def test_a_script_of_any_name_is_scanned(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"cgi-bin/run.cgi": "#!/usr/bin/env python3\n" + INJECTION}
    ev = security(open_case(make_repo(tmp_path / "r", files=files))).evidence
    assert "security" in next(e for e in ev if e.location == "cgi-bin/run.cgi:5").tags


@pytest.mark.parametrize("files", [
    {"app.wsgi": "y = 1\n", "app/wsgi.py": INJECTION},
    {"x.py": "y = 1\n", "x/__init__.py": INJECTION},
    {"x.py": INJECTION, "x/__init__.py": "y = 1\n"},
])
def test_a_file_sharing_a_module_name_cannot_shadow_another(
    tmp_path: Path, open_case: OpenCase, files: dict[str, str]
) -> None:
    hidden = next(path for path, text in files.items() if text == INJECTION)
    ev = security(open_case(make_repo(tmp_path / "r", files=files))).evidence
    assert "security" in next(e for e in ev if e.location == f"{hidden}:4").tags
