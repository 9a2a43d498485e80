"""What the audited repository writes never reaches the log as a workflow command: a CI
job that runs `courtroom audit` on someone else's repository reads every line of its
output, and GitHub's runner obeys ``::command::`` lines and ``##[command]`` anywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import make_repo
from log_checks import commands_in

from courtroom.cli import main

FORGED_KEY = '"x\\n::error file=app.py::forged\\n::add-mask::failure": 1\n'
FORGED_PDF = 'pdf: "report.pdf\\r::set-output name=conclusion::success"\n'


def _audit(capsys: pytest.CaptureFixture[str], repo: Path, out: Path, *extra: str) -> tuple[
        int, str]:
    code = main(["audit", str(repo), "--out", str(out), "--quiet", "--no-court",
                 "--judges", "offline", *extra])
    captured = capsys.readouterr()
    assert commands_in(captured.out) == [] and commands_in(captured.err) == [], captured
    return code, captured.err


@pytest.mark.parametrize("config", [FORGED_KEY, FORGED_PDF])
def test_a_config_forging_commands_is_one_inert_line_and_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, config: str
) -> None:
    repo = make_repo(tmp_path / "repo", files={".github/courtroom.yml": config, "a.py": "x = 1\n"})
    code, err = _audit(capsys, repo, tmp_path / "o")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("courtroom: .github/courtroom.yml: ")


def test_a_hostile_file_name_and_pdf_value_reach_the_log_defused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = 'pdf: "##[add-mask]x ::stop-commands::token.pdf"\n'
    repo = make_repo(tmp_path / "repo", files={
        ".github/courtroom.yml": config,
        "##[error title=forged]x.py": "def broken(:\n",
        "app.py": "import os\n",
    })
    code, err = _audit(capsys, repo, tmp_path / "o")
    assert code in (0, 1), err
    assert "\uff3badd-mask]x ::stop-commands::token.pdf not found" in err  # said, defused
    data = json.loads((tmp_path / "o" / "verdict.json").read_text(encoding="utf-8"))
    assert data["target"]["pdf"].endswith("::stop-commands::token.pdf")  # the file keeps it


def test_a_deeply_nested_config_or_rubric_is_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deep = "[" * 30_000 + "]" * 30_000
    repo = make_repo(tmp_path / "repo", files={".github/courtroom.yml": deep, "a.py": "x = 1\n"})
    code, err = _audit(capsys, repo, tmp_path / "o")
    assert (code, err) == (2, "courtroom: .github/courtroom.yml: not valid YAML: nested too "
                              "deeply\n")
    rubric = tmp_path / "rubric.json"
    rubric.write_text(deep, encoding="utf-8")
    plain = make_repo(tmp_path / "plain", files={"a.py": "x = 1\n"})
    code, err = _audit(capsys, plain, tmp_path / "o", "--rubric", str(rubric))
    assert code == 2 and err.endswith(f"courtroom: {rubric}: invalid JSON: nested too deeply\n")
