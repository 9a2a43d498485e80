"""run_batch with an injected fake audit: error rows, summary files, resume, progress."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from builders import Commit, make_repo

from cohort import fakes
from cohort.fakes import fake_audit, make_cohort, write_csv
from courtroom.cli import main
from courtroom.cohort import command
from courtroom.cohort.batch import BatchStatus, run_batch
from courtroom.cohort.command import status_line
from courtroom.cohort.keys import KEY_FILE, stored_key
from courtroom.cohort.manifest import load_manifest
from courtroom.cohort.settings import BatchSettings
from courtroom.rubric import default_rubric_path


def _manifest(tmp_path: Path, count: int = 4) -> Path:
    repos = make_cohort(tmp_path / "repos", count)
    lines = [str(r) for r in repos]
    lines.insert(1, str(tmp_path / "broken-repo"))
    lines.insert(3, str(tmp_path / "critical-repo"))
    lines.append(str(tmp_path / "bug-repo"))
    return write_csv(tmp_path / "cohort.csv", lines)


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


def test_bad_submissions_get_error_rows_and_the_rest_go_on(tmp_path: Path) -> None:
    rows = load_manifest(_manifest(tmp_path))
    seen: list[BatchStatus] = []
    settings = BatchSettings(rubric_path=default_rubric_path())
    summary = run_batch(
        rows, tmp_path / "out", settings, fake_audit, workers=3, progress=seen.append
    )
    assert [r.index for r in summary.results] == list(range(7))
    assert summary.failed == 3
    table = _rows(tmp_path / "out" / "cohort.csv")
    assert [t["name"] for t in table] == [r.name for r in rows]
    by_name = {t["name"]: t for t in table}
    assert by_name["broken-repo"]["status"] == "failed"
    assert by_name["broken-repo"]["failure"] == f"clone failed: {tmp_path / 'broken-repo'}"
    assert "critical failure" in by_name["critical-repo"]["failure"]
    assert "internal error: ValueError" in by_name["bug-repo"]["failure"]
    ok = by_name["sub00"]
    assert ok["status"] == "ok" and len(ok["commit"]) == 40
    assert ok["git_forensic_analysis"] in {"1", "2", "3", "4", "5"}
    assert ok["overall_score"] and ok["conclusion"] in {"success", "neutral"}
    assert ok["mistrials"] == "0" and ok["errors"] == "0"
    # One folder per submission, with the verdict, the record and the resume key.
    assert (tmp_path / "out" / "sub00" / "verdict.json").is_file()
    assert (tmp_path / "out" / "sub00" / KEY_FILE).is_file()
    assert not (tmp_path / "out" / "broken-repo" / KEY_FILE).exists()
    markdown = (tmp_path / "out" / "cohort.md").read_text(encoding="utf-8")
    assert "7 submissions: 4 audited, 3 failed." in markdown
    assert "## Failed submissions" in markdown and "[sub00](sub00/report.md)" in markdown
    # Progress: first a zero status, then one per submission, ending at the total.
    assert seen[0].done == 0 and seen[-1].done == 7 and seen[-1].remaining == 0
    assert [s.done for s in seen] == list(range(8))
    assert seen[-1].failed == 3 and seen[-1].eta == 0.0
    assert "7/7 done (3 failed, 0 resumed)" in status_line(seen[-1])


def test_rerun_resumes_only_unchanged_submissions(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path)
    rows = load_manifest(manifest)
    out = tmp_path / "out"
    settings = BatchSettings(rubric_path=default_rubric_path())
    run_batch(rows, out, settings, fake_audit, workers=2)
    first = (out / "cohort.csv").read_text(encoding="utf-8")
    fakes.CALLS.clear()
    again = run_batch(rows, out, settings, fake_audit, workers=2)
    # Failed submissions are retried; audited ones are resumed from their stored verdicts.
    assert sorted(Path(c).name for c in fakes.CALLS) == ["broken-repo", "bug-repo", "critical-repo"]
    assert again.resumed == 4
    assert (out / "cohort.csv").read_text(encoding="utf-8") == first

    # A new commit in one repository re-audits that one only.
    make_repo(tmp_path / "repos" / "sub02", [Commit("more", {"b.py": "x = 1\n"})])
    fakes.CALLS.clear()
    run_batch(rows, out, settings, fake_audit, workers=2)
    assert "sub02" in {Path(c).name for c in fakes.CALLS}
    assert not {"sub00", "sub01", "sub03"} & {Path(c).name for c in fakes.CALLS}

    # Another rubric (or gate, model, prompts) invalidates every stored verdict.
    rubric = tmp_path / "rubric.json"
    shutil.copy(default_rubric_path(), rubric)
    rubric.write_text(rubric.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    fakes.CALLS.clear()
    changed = BatchSettings(rubric_path=rubric)
    run_batch(rows, out, changed, fake_audit, workers=2)
    assert len(fakes.CALLS) == 7
    key = stored_key(out / "sub00")
    assert key is not None and key["bench"] == "offline" and len(str(key["commit"])) == 40
    gated = BatchSettings(rubric_path=rubric, shared={"fail_below": 3.0})
    fakes.CALLS.clear()
    run_batch(rows, out, gated, fake_audit, workers=2)
    assert len(fakes.CALLS) == 7
    # A per-criterion gate or ignore globs decide verdicts too: never resumed across them.
    for shared in ({"gate": {"git_forensic_analysis": 4.0}}, {"ignore": ("vendor/**",)}):
        fakes.CALLS.clear()
        both = BatchSettings(rubric_path=rubric, shared={"fail_below": 3.0, **shared})
        run_batch(rows, out, both, fake_audit, workers=2)
        assert len(fakes.CALLS) == 7, shared


def test_process_workers_match_thread_workers(tmp_path: Path) -> None:
    rows = load_manifest(_manifest(tmp_path, count=3))
    settings = BatchSettings(rubric_path=default_rubric_path())
    run_batch(rows, tmp_path / "t", settings, fake_audit, workers=2, mode="thread")
    run_batch(rows, tmp_path / "p", settings, fake_audit, workers=2, mode="process")
    threads = (tmp_path / "t" / "cohort.csv").read_text()
    assert threads == (tmp_path / "p" / "cohort.csv").read_text()


def test_batch_command_end_to_end_with_fake_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = _manifest(tmp_path, count=2)
    monkeypatch.setattr(command, "default_audit", fake_audit)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    out = tmp_path / "out"
    code = main(["batch", str(manifest), "--out", str(out), "--workers", "1", "--shard", "1/2"])
    err = capsys.readouterr().err
    assert code == 1  # some submissions failed
    assert "courtroom batch: 1/3 done" in err and "eta" in err
    assert "3 submissions, 1 failed" in err
    assert len(_rows(out / "cohort.csv")) == 3


def test_bad_manifest_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = write_csv(tmp_path / "m.csv", [",x.pdf,"])
    code = main(["batch", str(manifest), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "row 2: repo is empty" in err and "Traceback" not in err


def test_real_offline_batch_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repos = make_cohort(tmp_path / "repos", 2)
    manifest = write_csv(
        tmp_path / "m.csv",
        [f"{repos[0]},,first", f"{repos[1]},missing.pdf,", str(tmp_path / "nowhere")],
    )
    out = tmp_path / "out"
    code = main(
        ["batch", str(manifest), "--out", str(out), "--workers", "2", "--judges", "offline"]
    )
    assert code == 1  # the missing repository is an error row
    table = {row["name"]: row for row in _rows(out / "cohort.csv")}
    assert table["first"]["status"] == "ok" and table["sub01"]["status"] == "ok"
    # A missing PDF does not stop that audit: the PDF criteria are judged on its absence.
    missing = json.loads((out / "sub01" / "verdict.json").read_text(encoding="utf-8"))
    assert missing["target"]["pdf"] == "missing.pdf"
    assert table["nowhere"]["status"] == "failed"
    assert (out / "first" / "report.md").is_file() and (out / "first" / "trace.jsonl").is_file()
    verdict = json.loads((out / "first" / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["target"]["commit"] == stored_key(out / "first")["commit"]
    capsys.readouterr()
    assert main(["batch", str(manifest), "--out", str(out), "--judges", "offline"]) == 1
    assert "2 resumed" in capsys.readouterr().err


def test_rich_display_draws_without_error(capsys: pytest.CaptureFixture[str]) -> None:
    from courtroom.cohort.command import _Display
    from courtroom.cohort.summary import SubmissionResult

    display = _Display(rich=True)
    failed = SubmissionResult(index=0, name="x", repo="r", status="failed", failure="boom")
    display(BatchStatus(2, 0, 0, 0, 0.0))
    display(BatchStatus(2, 1, 1, 0, 1.5, failed))
    display.stop()
    assert "boom" in capsys.readouterr().out


def test_url_submissions_find_their_pdf_in_the_clone(tmp_path: Path) -> None:
    from builders import make_pdf

    repo = make_repo(tmp_path / "src" / "dana", [Commit("start", {"main.py": "x = 1\n"})])
    make_pdf(repo / "docs" / "report.pdf", ["Dialectical synthesis and fan-in."])
    make_repo(repo, [Commit("add report", {"docs/.keep": ""})])
    url = f"file://{repo}"
    manifest = write_csv(
        tmp_path / "m.csv", [f"{url},docs/report.pdf,dana", f"{url},../../../etc/passwd,evil"]
    )
    rows = load_manifest(manifest)
    assert rows[0].pdf_in_repo
    out = tmp_path / "out"
    settings = BatchSettings(rubric_path=default_rubric_path())
    summary = run_batch(rows, out, settings, command.default_audit, workers=1)
    dana, evil = summary.results
    assert dana.status == "ok", dana.failure
    verdict = json.loads((out / "dana" / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["target"]["repo"] == url and verdict["target"]["pdf"] == "docs/report.pdf"
    pdf_facts = [e for e in verdict["evidences"].values() if e["location"].startswith("pdf")]
    assert any(e["found"] for e in pdf_facts)
    assert evil.status == "failed" and "outside the repository" in (evil.failure or "")
    # A URL's commit comes from ls-remote, so a rerun resumes it too.
    again = run_batch(rows, out, settings, command.default_audit, workers=1)
    assert again.results[0].resumed
