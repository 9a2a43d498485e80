"""A confirmed vulnerability fails the gate whatever the rubric judges."""

from __future__ import annotations

import json
from pathlib import Path

from builders import make_repo
from verdict_builders import make_evidence

from courtroom.chief_justice import unjudged_findings
from courtroom.cli import main
from courtroom.problems import UNJUDGED_FINDING

INJECTION = "import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"
REPORT_ONLY = {
    "rubric_metadata": {"rubric_name": "Report only", "version": "1"},
    "dimensions": [{
        "id": "report_clarity", "name": "Report clarity", "target_artifact": "pdf_report",
        "forensic_instruction": "Read the report.",
    }],
    "synthesis_rules": {"note": "prose only"},
}


def test_a_rubric_that_never_judges_security_cannot_pass_a_confirmed_injection(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", files={"app/runner.py": INJECTION})
    rubric = tmp_path / "lax.json"
    rubric.write_text(json.dumps(REPORT_ONLY), encoding="utf-8")
    out = tmp_path / "out"
    code = main(["audit", str(repo), "--rubric", str(rubric), "--out", str(out), "--quiet"])
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["security"]["confirmed"] == 1
    assert not any(c["security_override"] for c in verdict["criteria"])
    assert code == 1 and verdict["conclusion"] == "failure"
    assert any(e.startswith(UNJUDGED_FINDING) and "app/runner.py" in e for e in verdict["errors"])
    assert [p["location"] for p in verdict["problems"] if p["kind"] == "unjudged_finding"] == [
        "app/runner.py:4"]
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "not capped by any criterion" in report


def test_only_found_confirmed_security_facts_are_unjudged_findings() -> None:
    finding = make_evidence("Security finding: shell injection", location="app/r.py:4",
                            tags=["security"])
    absent = make_evidence("Security finding looked for", location="app/q.py:1", found=False,
                           tags=["security"])
    hint = make_evidence("bandit hint", location="app/s.py:2", tags=["security_unconfirmed"])
    pool = {e.id: e for e in (finding, absent, hint)}
    (problem,) = unjudged_findings([], pool)
    assert (problem.kind, problem.location) == ("unjudged_finding", finding.location)
