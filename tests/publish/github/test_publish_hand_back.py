"""Handing the report files to the workspace's owner (a Docker action runs as root): only
what this run wrote, never through a link the checkout committed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from verdict_builders import make_verdict

from courtroom.errors import UsageError
from courtroom.publish.github.publish import hand_back, keep_files
from courtroom.render.files import write_outputs
from courtroom.trace import Trace

#: (inode of the folder, name in it or None for the folder itself, uid, gid, follows links)
Changed = list[tuple[int, str | None, int, int, bool]]


@pytest.fixture
def changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Changed:
    """Root over a workspace (tmp_path) owned by uid 1001; each ownership change recorded."""
    owner = os.stat_result((0o40755, 0, 0, 0, 1001, 1002, 0, 0, 0, 0))
    real_stat = Path.stat
    monkeypatch.setattr(
        Path, "stat", lambda p, **kw: owner if p == tmp_path else real_stat(p, **kw)
    )
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    calls: Changed = []

    def fchown(fd: int, uid: int, gid: int) -> None:
        calls.append((os.fstat(fd).st_ino, None, uid, gid, False))

    def chown(name: str, uid: int, gid: int, *, dir_fd: int, follow_symlinks: bool) -> None:
        calls.append((os.fstat(dir_fd).st_ino, name, uid, gid, follow_symlinks))

    monkeypatch.setattr(os, "fchown", fchown)
    monkeypatch.setattr(os, "chown", chown)
    monkeypatch.setattr(os, "lchown", lambda *a: pytest.fail("lchown follows a linked folder"))
    return calls


def test_only_the_files_this_run_wrote_are_handed_over_never_through_a_link(
    tmp_path: Path, changed: Changed
) -> None:
    out = tmp_path / "courtroom-report"
    out.mkdir()
    (out / "committed.md").write_text("the checkout's own")
    (out / "link").symlink_to("/etc/passwd")
    written = write_outputs(out, make_verdict(), Trace())
    hand_back(out, tmp_path, written)
    inode = out.lstat().st_ino
    names = sorted(p.name for p in written.values())
    assert changed[0] == (inode, None, 1001, 1002, False)  # the folder, by its descriptor
    assert sorted(changed[1:]) == [(inode, name, 1001, 1002, False) for name in names]


def test_a_report_folder_that_is_a_link_hands_over_nothing(
    tmp_path: Path, changed: Changed, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "verdict.json").write_text("root's file")
    out = tmp_path / "courtroom-report"
    out.symlink_to(elsewhere)
    hand_back(out, tmp_path, {"verdict": out / "verdict.json"})
    assert changed == []
    assert "could not hand the report folder" in capsys.readouterr().err


def test_nothing_is_handed_over_when_not_root_or_nothing_was_written(
    tmp_path: Path, changed: Changed, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "courtroom-report"
    written = write_outputs(out, make_verdict(), Trace())
    hand_back(out, tmp_path, {})
    monkeypatch.setattr(os, "geteuid", lambda: 1001)
    hand_back(out, tmp_path, written)
    assert changed == []


def test_kept_files_replace_what_the_checkout_left_under_their_names(tmp_path: Path) -> None:
    out = tmp_path / "courtroom-report"
    out.mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("someone else's file")
    (out / "report.md").symlink_to(outside)
    (out / "verdict.json").write_text('{"conclusion": "success"}')
    kept = keep_files(make_verdict(), {}, out)
    assert set(kept) == {"verdict", "report"}
    assert outside.read_text() == "someone else's file"
    assert not (out / "report.md").is_symlink() and "success" not in kept["verdict"].read_text()


def test_kept_files_refuse_a_folder_under_their_name(tmp_path: Path) -> None:
    out = tmp_path / "courtroom-report"
    (out / "verdict.json").mkdir(parents=True)
    with pytest.raises(UsageError, match=r"verdict\.json is a folder"):
        keep_files(make_verdict(), {}, out)
    assert not (out / "report.md").exists()
