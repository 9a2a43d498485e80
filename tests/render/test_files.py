"""The audit's files are written where we choose: never through a link the audited
checkout committed, and what the write functions return is exactly what they wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import outside_folder, untouched
from verdict_builders import make_evidence, make_verdict

from courtroom.errors import UsageError
from courtroom.models import Target
from courtroom.render.files import FILE_NAMES, check_folder, write_outputs, write_partial
from courtroom.trace import Trace


def test_the_four_files_are_written_and_named(tmp_path: Path) -> None:
    trace = Trace()
    trace.event("detect", "done")
    out = tmp_path / "deep" / "report"
    written = write_outputs(out, make_verdict(), trace)
    assert written == {kind: out / FILE_NAMES[kind] for kind in ("verdict", "sarif", "report",
                                                                  "trace")}
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written.values())
    assert json.loads(written["verdict"].read_text())["conclusion"] == make_verdict().conclusion
    events = [json.loads(line)["event"] for line in written["trace"].read_text().splitlines()]
    assert events == ["done", "enter", "exit"]  # the report's render span is in the trace


def test_an_output_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    out = tmp_path / "courtroom-report"
    out.symlink_to(outside)
    with pytest.raises(UsageError, match="courtroom-report: it is a symbolic link"):
        write_outputs(out, make_verdict(), Trace())
    with pytest.raises(UsageError, match="symbolic link"):
        write_partial(out, Target(repo="r", commit="c"), {}, {}, [], Trace())
    assert untouched(outside) and out.is_symlink()


def test_a_report_file_that_is_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    out = tmp_path / "courtroom-report"
    out.mkdir()
    (out / "report.md").symlink_to(outside / "keep.txt")
    (out / "trace.jsonl").symlink_to(outside / "new.txt")  # a dangling link is no way out
    written = write_outputs(out, make_verdict(), Trace())
    assert untouched(outside)
    assert not written["report"].is_symlink() and "not ours" not in written["report"].read_text()
    assert not written["trace"].is_symlink()


def test_a_folder_under_one_of_our_names_stops_before_anything_is_written(
    tmp_path: Path
) -> None:
    out = tmp_path / "courtroom-report"
    (out / "verdict.json").mkdir(parents=True)
    (out / "findings.sarif").write_text("the checkout's own findings")
    with pytest.raises(UsageError, match=r"verdict\.json is a folder"):
        write_outputs(out, make_verdict(), Trace())
    assert sorted(p.name for p in out.iterdir()) == ["findings.sarif", "verdict.json"]
    assert (out / "findings.sarif").read_text() == "the checkout's own findings"


def test_the_partial_state_is_written_without_following_links(tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "partial_state.json").symlink_to(outside / "keep.txt")
    evidence = make_evidence("a fact", location="app.py")
    written = write_partial(out, Target(repo="r", commit="c"), {"e": evidence}, {},
                            ["no judge"], Trace())
    assert set(written) == {"partial", "trace"} and untouched(outside)
    assert json.loads(written["partial"].read_text())["errors"] == ["no judge"]


def test_check_folder_refuses_a_link_or_a_file_on_the_way(tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    (root / "audit").symlink_to(outside)
    with pytest.raises(UsageError, match=r"repo/audit is a symbolic link"):
        check_folder(root / "audit" / "report_onself_generated", root)
    (root / "notes").write_text("")
    with pytest.raises(UsageError, match=r"repo/notes is not a folder"):
        check_folder(root / "notes" / "out", root)
    (root / "out" / "report.md").mkdir(parents=True)
    with pytest.raises(UsageError, match=r"report\.md is a folder"):
        check_folder(root / "out", root)
    assert untouched(outside)


def test_check_folder_accepts_what_is_missing_and_links_it_will_replace(
    tmp_path: Path
) -> None:
    check_folder(tmp_path / "a" / "b" / "c", tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "verdict.json").symlink_to(tmp_path)  # a link to a folder: replaced, not entered
    check_folder(out, tmp_path)
    assert not (tmp_path / "a").exists()


def test_a_file_on_the_way_is_a_usage_error_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError, match=r"cannot write the report to .*: Not a directory"):
        write_outputs(tmp_path / "file" / "x" / "out", make_verdict(), Trace())
