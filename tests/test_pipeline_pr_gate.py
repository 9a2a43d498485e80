"""Whole offline audits of a small Flask service with the bundled PR-gate rubric and with a
hand-written rubric of declarative checks only: each criterion is judged on its own facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from detectives.service_builders import flask_service

from courtroom.cli import main

PR_GATE = Path(__file__).resolve().parents[1] / "rubrics" / "pr-gate.json"
#: The detectives whose facts a PR-gate criterion may rest on: the generic ones, the
#: rubric's checks and the security scan, never the Week-2 profile's.
GENERIC = {"tests", "ci", "linters", "dependencies", "secrets", "function_size", "exceptions",
           "logging", "readme", "licence", "security"}


def audited(root: Path, rubric: Path, capsys: pytest.CaptureFixture[str],
            **flags: bool) -> tuple[int, dict]:  # type: ignore[type-arg]
    repo = flask_service(root / "svc", **flags)
    code = main(["audit", str(repo), "--out", str(root / "out"), "--rubric", str(rubric),
                 "--config", "none", "--judges", "offline", "--no-cache",
                 "--cache-dir", str(root / "cache"), "--quiet"])
    capsys.readouterr()
    return code, json.loads((root / "out" / "verdict.json").read_text(encoding="utf-8"))


def scores(verdict: dict) -> dict[str, int]:  # type: ignore[type-arg]
    return {c["criterion_id"]: c["final_score"] for c in verdict["criteria"]}


def test_the_unpinned_twin_loses_only_dependency_hygiene(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, clean = audited(tmp_path / "a", PR_GATE, capsys)
    _, loose = audited(tmp_path / "b", PR_GATE, capsys, pinned=False)
    assert code == 0 and clean["conclusion"] == "success"
    changed = {k for k, v in scores(loose).items() if v != scores(clean)[k]}
    assert changed == {"dependency_hygiene"}
    assert scores(loose)["dependency_hygiene"] < scores(clean)["dependency_hygiene"]
    hygiene = next(c for c in loose["criteria"] if c["criterion_id"] == "dependency_hygiene")
    assert "`requirements.txt:1`" in hygiene["remediation"]


def test_an_xss_caps_only_the_security_criterion(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict = audited(tmp_path, PR_GATE, capsys, xss=True)
    assert code == 1 and verdict["conclusion"] == "failure"
    capped = {c["criterion_id"] for c in verdict["criteria"] if c["security_override"]}
    assert capped == {"security"} and scores(verdict)["security"] <= 3
    evidences = verdict["evidences"]
    for criterion in verdict["criteria"]:
        cited = {i for o in criterion["opinions"] for i in o["cited_evidence"]} & set(evidences)
        sources = {evidences[i]["detective"] for i in cited}
        assert all(s in GENERIC or s.startswith("check_") for s in sources), sources
    xss = [e for e in evidences.values() if "criterion:security" in e["tags"] and e["found"]
           and e["direction"] == "adverse"]
    assert [e["location"] for e in xss] == ["service/app.py:22"]


def test_a_rubric_of_checks_alone_judges_each_criterion_on_its_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def criterion(ident: str, check: dict[str, object]) -> dict[str, object]:
        return {"id": ident, "name": ident, "target_artifact": "github_repo",
                "forensic_instruction": "Run the check.", "checks": [check]}
    rubric = tmp_path / "team.json"
    rubric.write_text(json.dumps({"rubric_metadata": {"rubric_name": "team"}, "dimensions": [
        criterion("no_xss", {"kind": "security", "meaning": "Reflected XSS", "cwe": [79]}),
        criterion("pinned", {"kind": "text", "meaning": "An open version range",
                             "hit": "adverse", "glob": "requirements*.txt",
                             "contains": [">=", "~="]}),
        criterion("ci", {"kind": "path", "meaning": "A CI workflow",
                         "glob": ".github/workflows/*.yml"})]}), encoding="utf-8")
    _, verdict = audited(tmp_path, rubric, capsys, xss=True, pinned=False)
    assert scores(verdict)["no_xss"] <= 3 and scores(verdict)["ci"] == 5
    assert scores(verdict)["pinned"] < 3
    assert {c["criterion_id"] for c in verdict["criteria"] if c["security_override"]} == {
        "no_xss"}


def test_a_bad_query_is_exit_2_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(PR_GATE.read_text(encoding="utf-8"))
    data["dimensions"][0]["checks"][1]["query"] = "(call function: (identifier) @fn"
    rubric = tmp_path / "broken.json"
    rubric.write_text(json.dumps(data), encoding="utf-8")
    code = main(["audit", str(tmp_path), "--out", str(tmp_path / "out"), "--rubric",
                 str(rubric), "--config", "none", "--judges", "offline", "--quiet"])
    err = [line for line in capsys.readouterr().err.splitlines()
           if line != "courtroom: judges: offline"]
    assert code == 2 and not (tmp_path / "out").exists()
    assert len(err) == 1 and "dimensions[0](security).checks[1].query" in err[0]
    assert "invalid tree-sitter query" in err[0]
