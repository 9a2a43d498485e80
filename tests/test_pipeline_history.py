"""A whole offline audit weighs a history by what its commits changed, not by the dates
its author set: forged sessions of finished files do not earn git forensics a 4."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from detectives.history_builders import built_history, forged_history

from courtroom.cli import main


def _git_score(repo: Path, out: Path) -> int:
    assert main(["audit", str(repo), "--out", str(out), "--quiet", "--judges", "offline"]) in (
        0, 1)
    data = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    return next(c["final_score"] for c in data["criteria"]
                if c["criterion_id"] == "git_forensic_analysis")


def test_forged_dates_over_finished_files_stay_under_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = _git_score(forged_history(tmp_path / "forged"), tmp_path / "o1")
    built = _git_score(built_history(tmp_path / "built"), tmp_path / "o2")
    capsys.readouterr()
    assert forged <= 3 < built
