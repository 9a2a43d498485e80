"""`courtroom audit`'s output folder: a link the audited checkout committed on the way to it
(the default ``audit/...`` folder among them) is refused before any work, never followed."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import outside_folder

from courtroom.cli import build_parser, main
from courtroom.cli.audit import given_from_args


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["audit", *argv, "--quiet"]) == 2
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert line.startswith("courtroom") and "symbolic link" in line
    return line


def test_a_default_folder_that_is_a_link_in_the_target_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = outside_folder(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "audit").symlink_to(outside)
    monkeypatch.chdir(repo)
    assert f"{repo / 'audit'} is a symbolic link" in _refused(capsys, ".")
    assert [p.name for p in outside.iterdir()] == ["keep.txt"]


def test_a_peer_audit_refuses_a_linked_default_folder_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = outside_folder(tmp_path)
    (tmp_path / "work").mkdir()
    (tmp_path / "peer").mkdir()
    (tmp_path / "work" / "audit").mkdir()
    (tmp_path / "work" / "audit" / "report_onpeer_generated").symlink_to(outside)
    monkeypatch.chdir(tmp_path / "work")
    _refused(capsys, str(tmp_path / "peer"))
    assert [p.name for p in outside.iterdir()] == ["keep.txt"]


def test_an_out_folder_through_a_link_inside_the_target_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = outside_folder(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "reports").symlink_to(outside)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")  # the target, not the working folder, holds it
    _refused(capsys, str(repo), "--out", str(repo / "reports" / "mine"))
    assert [p.name for p in outside.iterdir()] == ["keep.txt"]


def test_the_users_own_link_outside_the_target_is_taken_as_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("repo", "work", "real"):
        (tmp_path / name).mkdir()
    (tmp_path / "mine").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path / "work")
    args = build_parser().parse_args(["audit", str(tmp_path / "repo"), "--out",
                                      str(tmp_path / "mine" / "o")])
    assert given_from_args(args, {})["out_dir"] == tmp_path / "mine" / "o"  # not resolved
    relative = build_parser().parse_args(["audit", "../repo", "--out", "o/../p"])
    assert given_from_args(relative, {})["out_dir"] == tmp_path / "work" / "p"
