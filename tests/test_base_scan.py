"""The base commit's scan: its Python files copied out of git's objects, scanned, cached."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from builders import Commit, flask_shell_route, head_sha, make_repo

from courtroom import diff
from courtroom.base_scan import (
    BaseFindings,
    against_base,
    base_findings,
    copy_sources,
    scan_base,
)
from courtroom.detectives import Case, open_workspace
from courtroom.detectives.security.detective import scan
from courtroom.errors import DiffError
from courtroom.findings import SecurityReport
from courtroom.settings.config import AuditConfig

ROUTE = flask_shell_route()
SECOND = '@app.route("/calc")\ndef calc():\n    expr = request.args["expr"]\n' \
    "    return str(eval(expr))"


def _config(tmp_path: Path, repo: Path, **extra: object) -> AuditConfig:
    return AuditConfig.model_validate({"target": str(repo), "out_dir": tmp_path / "out",
                                       "cache_dir": tmp_path / "cache", **extra})


def test_the_base_is_scanned_from_its_objects_not_the_checkout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", [Commit("base", {"app.py": ROUTE}),
                                         Commit("fix", {"app.py": "print('safe')\n"})])
    found = scan_base(repo, head_sha(repo, "HEAD~1"), _config(tmp_path, repo))
    confirmed = [f for _, f in found.findings if f.confirmed]
    assert {(f.path, f.line) for f in confirmed} == {("app.py", 10)}
    assert (repo / "app.py").read_text(encoding="utf-8") == "print('safe')\n"


def test_a_second_run_reads_the_cache_and_no_cache_scans_again(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", [Commit("base", {"app.py": ROUTE})])
    sha, config = head_sha(repo), _config(tmp_path, repo)
    first = scan_base(repo, sha, config)
    [stored] = (tmp_path / "cache" / "baseline").glob("*.json")
    planted = first.model_copy(update={"findings": []})
    stored.write_text(planted.model_dump_json(), encoding="utf-8")
    assert scan_base(repo, sha, config).findings == []
    again = scan_base(repo, sha, _config(tmp_path, repo, use_cache=False))
    assert again.findings == first.findings
    ignoring = scan_base(repo, sha, _config(tmp_path, repo, ignore=("app.py",)))
    assert ignoring.findings == []  # other globs, another cache entry


def test_only_regular_python_files_are_copied_and_never_a_link(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", [Commit("base", {"app.py": ROUTE, "notes.md": "hi\n",
                                                          "pkg/mod.py": "x = 1\n"})])
    os.symlink("/etc/passwd", repo / "link.py")
    subprocess.run(["git", "-C", str(repo), "add", "link.py"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=a", "-c", "user.email=a@b",
                    "commit", "-qm", "link"], check=True)
    into = tmp_path / "copy"
    into.mkdir()
    assert copy_sources(repo, head_sha(repo), into) == 2
    assert sorted(p.relative_to(into).as_posix() for p in into.rglob("*") if p.is_file()) == \
        ["app.py", "pkg/mod.py"]


def test_a_base_whose_tree_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", [Commit("base", {"app.py": ROUTE})])
    with pytest.raises(DiffError, match="cannot be read"):
        copy_sources(repo, "f" * 40, tmp_path)


def _held(tmp_path: Path, fail_on: str) -> tuple[list[str], SecurityReport | None]:
    """A change adding a second injection held against its base through a scanner that
    counts the base commits it is asked for."""
    repo = make_repo(tmp_path / "repo", [Commit("base", {"app.py": ROUTE}),
                                         Commit("pr", {"app.py": flask_shell_route(SECOND)})])
    config = _config(tmp_path, repo, base="HEAD~1", fail_on_findings=fail_on)
    asked: list[str] = []

    def counting(root: Path, sha: str, settings: AuditConfig) -> BaseFindings:
        asked.append(sha)
        return scan_base(root, sha, settings)

    with open_workspace(str(repo)) as ws:
        case = Case(workspace=ws, diff=diff.load(ws.root, "HEAD~1", ws.commit))
        base = base_findings(config, case, scan=counting)
        _, held = against_base(config, case, {}, scan(ws), base)
    return asked, held


def test_fail_on_all_never_scans_the_base_yet_marks_the_changed_lines(tmp_path: Path) -> None:
    asked, held = _held(tmp_path, "all")
    assert asked == []
    assert held is not None and held.baseline is None
    assert {f.baseline for f in held.findings} == {None}
    confirmed = {f.line: f.in_diff for f in held.findings if f.confirmed}
    assert confirmed == {10: False, 16: True}


def test_fail_on_new_scans_the_base_once_and_labels_each_finding(tmp_path: Path) -> None:
    asked, held = _held(tmp_path, "new")
    assert asked == [head_sha(tmp_path / "repo", "HEAD~1")]
    assert held is not None and held.baseline is not None and held.baseline.fail_on == "new"
    confirmed = {f.line: f.baseline for f in held.findings if f.confirmed}
    assert confirmed == {10: "unchanged", 16: "new"}
