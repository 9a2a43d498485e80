"""The Action's files and outputs under a hostile checkout: nothing is written through a
link it committed, and sarif-path / report-path name only files this run wrote."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from action_support import FakeAudit, Outcome, fake_github, make_env, outputs, run
from builders import outside_folder, untouched
from fakes.github_server import FakeGitHub

from courtroom.publish.github.action import AuditRequest
from courtroom.render.files import write_outputs
from courtroom.trace import Trace


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    yield from fake_github()


class WritingAudit(FakeAudit):
    """A fake audit that writes its files as the pipeline does."""

    def __call__(self, request: AuditRequest) -> Outcome:
        super().__call__(request)
        return Outcome(self.verdict, self.exit_code,
                       write_outputs(request.out_dir, self.verdict, Trace()))




def _failed_check(fake: FakeGitHub) -> str:
    (check,) = fake.check_runs.values()
    assert check["conclusion"] == "failure"
    return str(check["output"]["summary"])


def test_a_report_folder_linked_outside_fails_closed_before_the_audit(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    env = make_env(tmp_path, fake)
    outside = outside_folder(tmp_path)
    (tmp_path / "workspace" / "courtroom-report").symlink_to(outside)
    audit = WritingAudit()
    assert run(env, audit) == 2
    assert audit.requests == [] and untouched(outside)
    assert outputs(tmp_path) == {"score": "", "conclusion": "failure", "report-path": "",
                                 "sarif-path": ""}
    assert "courtroom-report is a symbolic link" in _failed_check(fake)
    assert "symbolic link" in capsys.readouterr().out


def test_linked_report_files_are_replaced_and_their_targets_kept(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake)
    outside = outside_folder(tmp_path)
    out = tmp_path / "workspace" / "courtroom-report"
    out.mkdir()
    (out / "report.md").symlink_to(outside / "keep.txt")
    (out / "findings.sarif").symlink_to(outside / "keep.txt")
    (out / "verdict.json").symlink_to(outside / "planted.json")
    assert run(env, WritingAudit()) == 1
    assert untouched(outside)
    assert outputs(tmp_path)["report-path"] == "courtroom-report/report.md"
    assert outputs(tmp_path)["sarif-path"] == "courtroom-report/findings.sarif"
    assert not any((out / name).is_symlink() for name in ("report.md", "findings.sarif",
                                                          "verdict.json"))


def test_a_pr_that_makes_verdict_json_a_folder_gets_no_output_naming_its_files(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake)
    out = tmp_path / "workspace" / "courtroom-report"
    (out / "verdict.json").mkdir(parents=True)
    (out / "findings.sarif").write_text('{"version": "2.1.0", "runs": []}')
    (out / "report.md").write_text("# All clear")
    assert run(env, WritingAudit()) == 2
    assert outputs(tmp_path) == {"score": "", "conclusion": "failure", "report-path": "",
                                 "sarif-path": ""}
    assert r"verdict.json is a folder" in _failed_check(fake)
    assert (out / "report.md").read_text() == "# All clear"


def test_a_shipped_sarif_is_never_named_when_this_run_wrote_none(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake)
    out = tmp_path / "workspace" / "courtroom-report"
    out.mkdir()
    (out / "findings.sarif").write_text('{"version": "2.1.0", "runs": []}')
    (out / "verdict.json").write_text('{"conclusion": "success"}')
    (out / "report.md").write_text("# All clear")
    assert run(env, FakeAudit()) == 1  # an audit (the replayed verdict) that wrote no file
    assert outputs(tmp_path)["sarif-path"] == ""
    assert outputs(tmp_path)["report-path"] == "courtroom-report/report.md"
    assert "All clear" not in (out / "report.md").read_text()
    assert "success" not in (out / "verdict.json").read_text()
