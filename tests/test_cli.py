"""The command line's contract: usage errors are one line and exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtroom.cli import main
from courtroom.config import choose_judges, default_out_dir, target_name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    return code, err


def assert_one_line(err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) >= 1
    assert "Traceback" not in err
    assert lines[-1].startswith("courtroom")


def test_missing_target_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, err = run(capsys, "audit", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o"))
    assert code == 2
    assert "target not found" in err
    assert_one_line(err)
    assert not (tmp_path / "o").exists()


def test_unknown_flag_and_bad_score_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "audit", ".", "--frobnicate")
    assert code == 2 and "unrecognized arguments" in err
    code, err = run(capsys, "audit", ".", "--fail-below", "7")
    assert code == 2 and "between 0 and 5" in err
    code, err = run(capsys)
    assert code == 2
    assert "Traceback" not in err


def test_invalid_rubric_stops_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rubric = tmp_path / "bad.json"
    rubric.write_text(json.dumps({"rubric_metadata": {"rubric_name": "x"}, "dimensions": [{}]}))
    out = tmp_path / "out"
    code, err = run(capsys, "audit", str(tmp_path), "--rubric", str(rubric), "--out", str(out))
    assert code == 2
    assert f"{rubric}: dimensions[0].id: required field is missing" in err
    assert_one_line(err)
    assert not out.exists()


def test_choose_judges_defaults_on_the_key() -> None:
    assert choose_judges(None, {}) == "offline"
    assert choose_judges(None, {"ANTHROPIC_API_KEY": "sk-test"}) == "anthropic"
    assert choose_judges("offline", {"ANTHROPIC_API_KEY": "sk-test"}) == "offline"


def test_default_out_dirs_separate_self_and_peer(tmp_path: Path) -> None:
    here = Path.cwd()
    assert default_out_dir(str(here)).as_posix().endswith("audit/report_onself_generated")
    peer = default_out_dir("https://github.com/acme/auditor.git", cwd=tmp_path)
    assert peer == tmp_path.resolve() / "audit/report_onpeer_generated/auditor"
    assert target_name("git@github.com:acme/My Auditor.git") == "My-Auditor"
