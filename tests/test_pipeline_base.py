"""Whole offline audits of a change over its base: the gate on what the change introduced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import Commit, flask_shell_route, make_repo

from courtroom.cli import main

ROUTE = flask_shell_route()
SECOND = '@app.route("/calc")\ndef calc():\n    expr = request.args["expr"]\n' \
    "    return str(eval(expr))"


def _audit(tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str], *flags: str
           ) -> tuple[int, str, Path]:
    out = tmp_path / f"out{len(list(tmp_path.glob('out*')))}"
    code = main(["audit", str(repo), "--out", str(out), "--quiet", "--judges", "offline",
                 "--config", "none", "--cache-dir", str(tmp_path / "cache"), *flags])
    return code, capsys.readouterr().err, out


def _verdict(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    return data


def _gate_lines(verdict: dict[str, Any]) -> list[str]:
    return [e for e in verdict["errors"] if "confirmed security finding" in e]


@pytest.fixture
def added(tmp_path: Path) -> Path:
    """A base with one confirmed injection, and a pull request adding a second."""
    return make_repo(tmp_path / "added", [Commit("base", {"app.py": ROUTE}),
                                          Commit("pr", {"app.py": flask_shell_route(SECOND)})])


def test_new_mode_fails_naming_only_the_new_finding(
    added: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err, out = _audit(tmp_path, added, capsys, "--base", "HEAD~1",
                            "--fail-on-findings", "new")
    assert code == 1, err
    named = [line for line in err.splitlines() if "new confirmed finding" in line]
    assert named and all("app.py:16:" in line for line in named)
    verdict = _verdict(out)
    assert verdict["conclusion"] == "failure"
    new = [f for f in verdict["security"]["findings"] if f["baseline"] == "new"]
    old = [f for f in verdict["security"]["findings"] if f["baseline"] == "unchanged"]
    assert {f["line"] for f in new} == {16} and all(f["in_diff"] for f in new)
    assert {f["line"] for f in old} == {10} and not any(f["in_diff"] for f in old)
    tagged = {e["location"]: e["tags"] for e in verdict["evidences"].values()
              if e["detective"] == "security" and e["location"].startswith("app.py:")}
    assert "security" in tagged["app.py:16"] and "security_preexisting" in tagged["app.py:10"]
    assert not any("app.py:10" in line for line in _gate_lines(verdict))
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## Confirmed findings against the base" in report
    assert "- new: `app.py:16`" in report and "- pre-existing: `app.py:10`" in report
    sarif = json.loads((out / "findings.sarif").read_text(encoding="utf-8"))
    states = {(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["baselineState"])
              for r in sarif["runs"][0]["results"]}
    assert states == {(16, "new"), (10, "unchanged")}
    assert main(["verify", str(out / "verdict.json")]) == 0  # the recount agrees


def test_the_diff_is_evidence_shown_first_and_facts_say_where_they_lie(
    added: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    *_, out = _audit(tmp_path, added, capsys, "--base", "main~1")
    verdict = _verdict(out)
    hunks = [e for e in verdict["evidences"].values() if e["detective"] == "diff"]
    assert [h["location"] for h in hunks] == ["app.py:11-16"]
    assert all(e["in_diff"] is not None for e in verdict["evidences"].values())
    assert {f["line"]: f["in_diff"] for f in verdict["security"]["findings"]
            if f["confirmed"]} == {10: False, 16: True}
    assert verdict["settings"]["fail_on_findings"] == "all"


def test_the_default_fails_on_every_confirmed_finding(
    added: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err, out = _audit(tmp_path, added, capsys, "--base", "HEAD~1")
    assert code == 1
    verdict = _verdict(out)
    # Under `all` the base is not scanned: whether it had a finding changes nothing.
    assert verdict["security"]["baseline"] is None
    assert not (tmp_path / "cache" / "baseline").exists()
    assert "new confirmed finding" not in err
    tagged = [e for e in verdict["evidences"].values() if "security" in e["tags"]]
    assert {e["location"] for e in tagged} == {"app.py:10", "app.py:16"}


def test_a_line_shift_and_an_unrelated_change_pass_under_new_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "shifted", [
        Commit("base", {"app.py": ROUTE}),
        Commit("pr", {"app.py": "# routes\n# of the service\n" + ROUTE, "README.md": "hi\n"})])
    code, err, out = _audit(tmp_path, repo, capsys, "--base", "HEAD~1",
                            "--fail-on-findings", "new")
    assert code == 0, err
    assert "new confirmed finding" not in err
    verdict = _verdict(out)
    assert {f["baseline"] for f in verdict["security"]["findings"]} == {"unchanged"}
    assert "- pre-existing: `app.py:12`" in (out / "report.md").read_text(encoding="utf-8")
    assert main(["verify", str(out / "verdict.json")]) == 0
    assert _audit(tmp_path, repo, capsys, "--base", "HEAD~1")[0] == 1


def test_a_base_the_repository_does_not_hold_is_exit_2_in_one_line(
    added: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err, out = _audit(tmp_path, added, capsys, "--base", "f" * 40,
                            "--fail-on-findings", "new")
    assert code == 2 and not out.exists()
    [line] = err.strip().splitlines()
    assert "is not a commit in the audited repository" in line and "fetch-depth" in line
