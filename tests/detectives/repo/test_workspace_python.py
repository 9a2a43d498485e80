"""Reading Python as the interpreter does: ``python_source`` and ``Workspace.python_files``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.repo.workspace import Workspace, open_workspace, python_source

DECODED = [
    b"# coding: utf-7\nimport os\n# +AAo-os.system(x)\n",
    b"# coding: unicode_escape\nimport os\n# \\x0aos.system(x)\n",
    b"#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n",
    b"# vim: set fileencoding=cp1252 :\nquote = '\x93hi\x94'\n",
]


@pytest.mark.parametrize("data", DECODED)
def test_a_declared_encoding_is_decoded_to_what_python_compiles(data: bytes) -> None:
    text = python_source(data)
    assert isinstance(text, bytes)
    text.decode("utf-8")  # what the parsers are handed is UTF-8 ...
    # ... with the same meaning the interpreter gives the original bytes.
    assert ast.dump(ast.parse(text)) == ast.dump(ast.parse(data))


def test_the_utf7_payload_becomes_a_statement() -> None:
    text = python_source(DECODED[0])
    assert isinstance(text, bytes)
    assert text.splitlines()[-1] == b"os.system(x)"
    assert b"coding:" not in text  # bandit must not decode the decoded text again


@pytest.mark.parametrize("data", [b"x = 1\n", b"\xef\xbb\xbfx = 1\n",
                                  b"# coding: utf-8\nx = 1\n",
                                  b"name = 'caf\xe9'\n"])  # no declaration: read as before
def test_utf8_and_undeclared_bytes_are_examined_unchanged(data: bytes) -> None:
    assert python_source(data) is data


@pytest.mark.parametrize(("data", "why"), [
    (b"version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 9\n", "Git LFS pointer"),
    (b"x = 1\x00\nimport os\n", "NUL byte"),
    (b"# coding: no-such-codec\nx = 1\n", "names no codec"),
    (b"# coding: rot13\nx = 1\n", "encoding rot13, which does not decode it"),
    (b"# coding: utf-16\nx = 1\n", "encoding utf-16, which does not decode it"),
    # An import decodes the declaration's own line, a script run by name does not.
    (b"# coding: utf-7 +AAo-import os\n", "read differently when imported and when run"),
])
def test_what_cannot_be_read_as_python_says_why(data: bytes, why: str) -> None:
    reason = python_source(data)
    assert isinstance(reason, str) and why in reason


def test_python_files_are_found_by_name_and_by_shebang(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={
        "a.py": "", "b.pyw": "", "app.wsgi": "", "run.cgi": "#!/usr/bin/python3\n",
        "tool.sh": "#!/bin/sh\n", "bin/deploy": "#!/usr/bin/env python3\n",
        "views.pyc": b"\x00", "notes.txt": "python\n",
    })
    assert Workspace(repo, "r").python_files() == ["a.py", "app.wsgi", "b.pyw", "bin/deploy",
                                                    "run.cgi"]


def test_a_tree_whose_history_is_unreadable_skips_no_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": ""})
    (repo / "build").mkdir()
    (repo / "build" / "m.py").write_text("x = 1\n")
    (repo / ".git").rename(tmp_path / "elsewhere")
    (repo / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere'}\n")  # leads outside
    with open_workspace(str(repo), timeout=10) as ws:
        assert ws.commit is None and "build/m.py" in ws.files()
