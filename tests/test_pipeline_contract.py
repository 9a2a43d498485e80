"""Whole audits with a team's own rubric: only the general detectives run, each criterion
sees evidence about itself alone, one nothing covers is reported (and fails the gate only
when asked), a security cap stays on security criteria, and an unknown tag is exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.cli import build_parser, main
from courtroom.cli.audit import given_from_args
from courtroom.detectives.contract import detectives_for
from courtroom.resources import default_rubric_path

APP = '''"""A small service."""
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/run")
def run():
    return subprocess.run(request.args["cmd"], shell=True, capture_output=True).stdout
'''


def gate_rubric(path: Path, **tags: list[str] | None) -> Path:
    criteria = [{"id": ident, "name": ident.replace("_", " ").capitalize(),
             "target_artifact": "github_repo", "forensic_instruction": "Look.",
             "evidence_tags": value} for ident, value in tags.items()]
    path.write_text(json.dumps({"rubric_metadata": {"rubric_name": "PR security gate"},
                                "dimensions": criteria}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("service")
    return make_repo(root / "repo", files={"app.py": APP, "requirements.txt": "flask\n"})


def audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["audit", *argv, "--quiet", "--config", "none", "--no-cache"])
    return code, capsys.readouterr().err


def test_each_criterion_sees_evidence_about_itself_alone(
    service: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = gate_rubric(tmp_path / "gate.json", dependencies_pinned=None,
                         injection=["security", "security_unconfirmed"], history=["git"])
    out = tmp_path / "out"
    code, err = audit(capsys, str(service), "--rubric", str(rubric), "--out", str(out))
    assert code in (0, 1), err
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    pool = verdict["evidences"]
    assert {e["detective"] for e in pool.values()} <= {*detectives_for(None), "coverage"}
    results = {c["criterion_id"]: c for c in verdict["criteria"]}
    pinned = results["dependencies_pinned"]
    assert not pinned["covered"] and not pinned["security_override"]
    assert results["injection"]["covered"] and results["history"]["covered"]
    cited = {i for o in results["history"]["opinions"] for i in o["cited_evidence"]} - {
        "NO_EVIDENCE"}
    assert cited and all("git" in pool[i]["tags"] for i in cited)
    assert verdict["settings"]["synthesis"]["security_criteria"] == ["injection"]
    covered = [results[k]["final_score"] for k in ("injection", "history")]
    assert verdict["overall_score"] == round(sum(covered) / 2, 2)
    assert any(line.startswith("criterion dependencies_pinned is not covered")
               for line in verdict["errors"])
    assert verdict["conclusion"] != "success"
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "❔ **Not covered.**" in report
    assert main(["verify", str(out / "verdict.json")]) == 0


def test_fail_on_uncovered_fails_the_gate(
    service: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = gate_rubric(tmp_path / "gate.json", dependencies_pinned=None, history=["git"])
    out = tmp_path / "out"
    code, err = audit(capsys, str(service), "--rubric", str(rubric), "--out", str(out),
                      "--fail-on-uncovered", "--no-court")
    assert code == 1, err
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["conclusion"] == "failure"
    assert verdict["settings"]["fail_on_uncovered"] is True
    assert "gate: dependencies_pinned is not covered (fail-on-uncovered)" in verdict["errors"]
    assert {"kind": "gate", "criterion": "dependencies_pinned"}.items() <= next(
        p for p in verdict["problems"] if p["kind"] == "gate").items()


def test_a_tag_no_detective_produces_is_exit_2_before_any_work(
    service: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = gate_rubric(tmp_path / "gate.json", audit_logging=["audit_trail"])
    out = tmp_path / "out"
    code, err = audit(capsys, str(service), "--rubric", str(rubric), "--out", str(out))
    assert code == 2
    (line,) = [line for line in err.splitlines() if line.strip()]
    assert "dimensions[0](audit_logging).evidence_tags" in line and "'audit_trail'" in line
    assert not out.exists()


def test_a_bundled_rubric_is_chosen_by_name(
    service: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(["audit", str(service), "--rubric", "automaton-auditor"])
    named = given_from_args(args, {})["rubric_path"]
    assert named.resolve() == default_rubric_path().resolve()
    (tmp_path / "automaton-auditor").write_text("{}", encoding="utf-8")  # a file wins
    assert given_from_args(args, {})["rubric_path"] == Path("automaton-auditor")
