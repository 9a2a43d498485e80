"""Code the scan never examined cannot pass the gate (issue 19 section 2).

Whole offline audits of generated repositories: each hides a shell injection where the
interpreter runs it but a scan keyed on ``*.py`` names and familiar folders would not look.
The injection is either found and confirmed, or its file is named as not examined and the
conclusion fails closed.
"""

from __future__ import annotations

import importlib.util
import marshal
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.errors import EXIT_FAILURE
from courtroom.models import Verdict
from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

INJECTION = "import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"
#: The application's entry point: it imports the hidden module and nothing else.
APP = "import helpers\n\nhelpers.main()\n"


def _failed(root: Path, out: Path, tree_ignore: tuple[str, ...] = ()) -> Verdict:
    outcome = audit(AuditConfig(target=str(root), out_dir=out, tree_ignore=tree_ignore))
    assert outcome.verdict is not None
    assert outcome.verdict.conclusion == "failure"
    assert outcome.exit_code == EXIT_FAILURE
    return outcome.verdict


def _confirmed(verdict: Verdict) -> list[str]:
    return sorted(e.location for e in verdict.evidences.values()
                  if "security" in e.tags and "shell injection" in e.goal)


def _not_examined(verdict: Verdict) -> str:
    return " ".join(e.content or "" for e in verdict.evidences.values()
                    if SCAN_INCOMPLETE in e.tags)


@pytest.mark.parametrize("folder", ["build", "dist", "__pycache__", ".eggs", "app.egg-info",
                                    "lib/site-packages", "node_modules"])
def test_a_committed_package_in_a_folder_named_like_third_party_code_is_scanned(
    tmp_path: Path, folder: str
) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": f"import sys\nsys.path.insert(0, "
                                                      f"{folder!r})\n{APP}",
                                            f"{folder}/helpers.py": INJECTION})
    assert _confirmed(_failed(repo, tmp_path / "out")) == [f"{folder}/helpers.py:4"]


def test_a_committed_pyvenv_cfg_does_not_make_a_package_someone_elses(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": APP,
                                            "venv/pyvenv.cfg": "home = /usr/bin\n",
                                            "venv/helpers.py": INJECTION,
                                            "lib/pyvenv.cfg": "home = /usr/bin\n",
                                            "lib/tool.py": INJECTION})
    assert _confirmed(_failed(repo, tmp_path / "out")) == ["lib/tool.py:4",
                                                           "venv/helpers.py:4"]


@pytest.mark.parametrize(("name", "head"), [("app.wsgi", ""),
                                            ("run.cgi", "#!/usr/bin/env python3\n"),
                                            ("deploy.sh", "#!/usr/bin/python3 -u\n")])
def test_python_not_named_py_is_scanned(tmp_path: Path, name: str, head: str) -> None:
    repo = make_repo(tmp_path / "r", files={"README.md": "# app\n", name: head + INJECTION})
    line = 4 + head.count("\n")
    assert _confirmed(_failed(repo, tmp_path / "out")) == [f"{name}:{line}"]


def test_ignore_globs_in_the_tree_cannot_hide_a_python_script(tmp_path: Path) -> None:
    # The tree's own config may hide any file not named like Python (tree_ignore).
    repo = make_repo(tmp_path / "r", files={"run.cgi": "#!/usr/bin/env python3\n" + INJECTION})
    verdict = _failed(repo, tmp_path / "out", tree_ignore=("*.cgi",))
    assert any("1 Python script(s) (by their shebang) matched the ignore globs and were not "
               "scanned (run.cgi)" in line for line in verdict.errors)


def test_a_utf7_encoding_declaration_cannot_hide_code_in_a_comment(tmp_path: Path) -> None:
    # Decoded as UTF-7, "+AAo-" is a newline: the comment ends and the call runs.
    hidden = ("# coding: utf-7\nimport subprocess\nimport sys\n\n"
              "# +AAo-subprocess.run(sys.argv+AFs-1+AF0-, shell+AD0-True)\n")
    repo = make_repo(tmp_path / "r", files={"app.py": APP, "helpers.py": hidden})
    assert _confirmed(_failed(repo, tmp_path / "out")) == ["helpers.py:6"]


def _bytecode(source: str) -> bytes:
    """A timestamp-based .pyc of ``source`` (the layout the import system reads)."""
    code = compile(source, "views.py", "exec")
    return importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)


@pytest.mark.parametrize(("name", "content", "why"), [
    ("helpers.py", INJECTION.replace("\n\n", "\n\x00\n").encode(), "holds a NUL byte"),
    ("helpers.py", b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"ab" * 32
     + b"\nsize 80\n", "a Git LFS pointer"),
    ("helpers.pyc", _bytecode(INJECTION), "compiled Python without its source"),
    ("tool.pyz", b"#!/usr/bin/env python3\nPK\x05\x06" + bytes(18), "a zip application"),
    ("helpers.py", b"# coding: rot13\n" + INJECTION.encode(), "declares the encoding rot13"),
])
def test_python_that_cannot_be_examined_is_named_and_fails_closed(
    tmp_path: Path, name: str, content: bytes, why: str
) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": APP, name: content})
    verdict = _failed(repo, tmp_path / "out")
    assert f"{name}: {why}" in _not_examined(verdict)
    assert any(line.startswith("conclusion failure: the security scan did not cover")
               for line in verdict.errors)
