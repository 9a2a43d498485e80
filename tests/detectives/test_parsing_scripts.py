"""Code the interpreter runs is code the scan sees, whatever the file is called: the
parser's list of Python sources (``.py``, ``.pyw``, scripts with a Python shebang), end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.cli import main
from courtroom.detectives.repo import listing

INJECTION = "import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"


def test_pyw_files_and_python_shebang_scripts_are_scanned(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", files={
        "m.py": "x = 1\n",
        "tool.pyw": INJECTION,
        "bin/deploy": "#!/usr/bin/env python3\n" + INJECTION,
        "bin/notes": "plain text, no shebang\n",
        "bin/run.sh": "#!/bin/sh\necho hi\n",
    })
    code = main(["audit", str(repo), "--out", str(tmp_path / "out"), "--quiet"])
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text(encoding="utf-8"))
    security = verdict["security"]
    assert security["files_examined"] == 3  # m.py, tool.pyw, bin/deploy
    confirmed = {f["path"] for f in security["findings"] if f["confirmed"]}
    assert confirmed == {"tool.pyw", "bin/deploy"}
    assert code == 1 and verdict["conclusion"] == "failure"


def test_padding_the_repository_cannot_push_a_script_out_of_the_scan(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_OTHER_FILES", 30)
    files = {f"assets/pad{i:03d}.txt": "" for i in range(60)}
    files["zz/bin/deploy"] = "#!/usr/bin/env python3\n" + INJECTION
    repo = make_repo(tmp_path / "repo", files=files)
    code = main(["audit", str(repo), "--out", str(tmp_path / "out"), "--quiet"])
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text(encoding="utf-8"))
    confirmed = {f["path"] for f in verdict["security"]["findings"] if f["confirmed"]}
    assert confirmed == {"zz/bin/deploy"}
    assert code == 1 and verdict["conclusion"] == "failure"
