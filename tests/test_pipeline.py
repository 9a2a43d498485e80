"""Whole offline audits through the command line: true verdicts, files, and bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from builders import Commit, FakeBackend, make_pdf, make_repo
from detectives.submissions import exemplary_submission, flawed_submission, good_pdf
from verdict_checks import check_verdict

from courtroom.cli import main
from courtroom.errors import JudgeError
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.models import JudicialOpinion
from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

PDF_CRITERIA = {"theoretical_depth", "report_accuracy", "swarm_visual"}


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["audit", *argv, "--quiet"])
    return code, capsys.readouterr().err


def verdict_of(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / "verdict.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def exemplary(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("exemplary")
    return exemplary_submission(root / "repo"), good_pdf(root / "report.pdf")


def test_offline_audit_writes_a_true_verdict(
    exemplary: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, pdf = exemplary
    out = tmp_path / "out"
    code, err = cli(capsys, str(repo), "--pdf", str(pdf), "--out", str(out))
    assert code == 0, err
    assert "judges: offline" in err
    assert {p.name for p in out.iterdir()} >= {"report.md", "verdict.json", "trace.jsonl"}
    data = verdict_of(out)
    check_verdict(data)
    assert len(data["criteria"]) == 10
    assert all(len(c["opinions"]) == 3 for c in data["criteria"])
    assert data["bench"] == "offline" and data["target"]["pdf"] == "report.pdf"
    assert re.fullmatch(r"[0-9a-f]{40}", data["target"]["commit"])
    # The graph detective saw the parallel fan-out, so the graph criterion is not failing.
    graph = next(c for c in data["criteria"] if c["criterion_id"] == "graph_orchestration")
    assert graph["final_score"] >= 3
    # Each result names the artifact its rubric criterion targets.
    artifacts = {c["criterion_id"]: c["artifact"] for c in data["criteria"]}
    assert {cid for cid, a in artifacts.items() if a != "github_repo"} == PDF_CRITERIA

    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## Executive summary" in report and "## Evidence appendix" in report
    assert str(tmp_path) not in report and "/tmp/" not in report
    for criterion in data["criteria"]:
        assert criterion["name"] in report
    stages = {json.loads(line)["stage"] for line in (out / "trace.jsonl").read_text().splitlines()}
    assert {"rubric", "detect", "judge", "synthesise", "verdict", "render"} <= stages


def test_same_input_gives_the_same_verdict(
    exemplary: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, pdf = exemplary
    for name in ("a", "b"):
        assert cli(capsys, str(repo), "--pdf", str(pdf), "--out", str(tmp_path / name))[0] == 0
    assert verdict_of(tmp_path / "a") == verdict_of(tmp_path / "b")


def test_security_flaw_and_gate_conclude_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = flawed_submission(tmp_path / "flawed")
    code, _ = cli(capsys, str(repo), "--out", str(tmp_path / "out"))
    data = verdict_of(tmp_path / "out")
    check_verdict(data)
    assert any(c["security_override"] for c in data["criteria"])
    assert code == 1 and data["conclusion"] == "failure"


def test_fail_below_gates_a_clean_audit(
    exemplary: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _pdf = exemplary
    # Without its report the PDF criteria score low, so the overall is under 5.
    code, err = cli(capsys, str(repo), "--out", str(tmp_path / "o"), "--fail-below", "5")
    data = verdict_of(tmp_path / "o")
    assert data["overall_score"] < 5 and not any(c["security_override"] for c in data["criteria"])
    assert code == 1 and "conclusion failure" in err
    code, _ = cli(capsys, str(repo), "--out", str(tmp_path / "p"), "--fail-below", "1")
    assert code == 0


def _bad_pdfs(tmp: Path) -> dict[str, Path]:
    not_pdf = tmp / "notes.pdf"
    not_pdf.write_text("just text, not a PDF\n")
    corrupt = tmp / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.4\n1 0 obj <<\n" + bytes(range(256)) * 4)
    return {
        "missing": tmp / "absent.pdf",
        "not a PDF": not_pdf,
        "corrupt": corrupt,
        "encrypted": make_pdf(tmp / "locked.pdf", ["secret report"], encrypt="pw"),
    }


@pytest.mark.parametrize("kind", ["missing", "not a PDF", "corrupt", "encrypted"])
def test_unusable_pdf_is_recorded_and_the_audit_goes_on(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": "print('hi')\n"})
    pdf = _bad_pdfs(tmp_path)[kind]
    code, err = cli(capsys, str(repo), "--pdf", str(pdf), "--out", str(tmp_path / "o"))
    assert code == 0, err
    assert "Traceback" not in err
    data = verdict_of(tmp_path / "o")
    check_verdict(data)
    assert any("pdf" in e.lower() for e in data["errors"]), data["errors"]
    assert [p["location"] for p in data["problems"] if p["kind"] == "pdf"] == [pdf.name]
    assert data["conclusion"] == "neutral"
    judged = {c["criterion_id"]: c for c in data["criteria"]}
    assert PDF_CRITERIA <= set(judged)
    assert all(judged[c]["final_score"] <= 2 for c in PDF_CRITERIA)


def test_awkward_repositories_never_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = {
        "no_python": {"README.md": "# Only docs\n", "data.csv": "a,b\n1,2\n"},
        "broken": {"bad.py": "def oops(:\n    return\n", "ok.py": "x = 1\n"},
        "bytes": {
            "latin.py": "# caf\xe9\nx = 1\n".encode("latin-1"),
            "blob.bin": bytes(range(256)) * 64,
            "nul.py": b"x = 1\x00\x00\n",
        },
    }
    for name, files in cases.items():
        repo = make_repo(tmp_path / name, [Commit("add files", files)])
        code, err = cli(capsys, str(repo), "--out", str(tmp_path / f"out-{name}"))
        # nul.py cannot be examined, so the gate fails closed (issue 19): a failure, no crash.
        assert code == (1 if name == "bytes" else 0), (name, err)
        assert "Traceback" not in err
        check_verdict(verdict_of(tmp_path / f"out-{name}"))


def test_url_that_cannot_be_cloned_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o"
    code, err = cli(capsys, f"file://{tmp_path}/nothing-here.git", "--out", str(out))
    assert code == 2
    lines = [line for line in err.splitlines() if line.startswith("courtroom:")]
    assert any("clone" in line for line in lines) and "Traceback" not in err
    code, err = cli(capsys, "--upload-pack=touch /tmp/pwned", "--out", str(out))
    assert code == 2 and "Traceback" not in err


class _BrokenBackend(FakeBackend):
    """Every judge fails: the chief justice has no one to hear."""

    name = "broken"

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        raise JudgeError("the bench is empty")


def test_no_participating_judge_is_critical_with_partial_state(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": "x = 1\n"})
    out = tmp_path / "o"
    outcome = audit(AuditConfig(target=str(repo), out_dir=out), backend=_BrokenBackend())
    assert outcome.exit_code == 3 and outcome.verdict is None
    state = json.loads((out / "partial_state.json").read_text(encoding="utf-8"))
    assert state["status"] == "critical_failure" and state["evidences"]
    assert any("no judge" in e for e in state["errors"])
    assert "critical_failure" in (out / "trace.jsonl").read_text(encoding="utf-8")
    assert not (out / "verdict.json").exists()
