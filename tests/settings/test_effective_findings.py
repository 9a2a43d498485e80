"""fail-on-findings: the change under review may only tighten it; the base diffs a PR."""

from __future__ import annotations

from pathlib import Path

from config_builders import pull_repo, settle, tree

from courtroom.settings.base_commit import PullBase, locate_base
from courtroom.settings.config_file import TREE_FILE
from courtroom.settings.effective import NEW_UNKNOWN, effective_config


def test_the_trees_own_file_cannot_fail_on_new_findings_only(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", "fail-on-findings: new\n")
    lines: list[str] = []
    assert settle(root, tmp_path, lines).fail_on_findings == "all"
    assert any("fail-on-findings new ignored" in line for line in lines)


def test_any_file_may_tighten_what_the_workflow_loosened(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", "fail-on-findings: all\n")
    config = settle(root, tmp_path, fail_on_findings="new")
    assert config.fail_on_findings == "all"
    assert config.sources["fail_on_findings"] == f"flag, tightened by {TREE_FILE}"
    assert settle(tree(tmp_path / "bare"), tmp_path, fail_on_findings="new") \
        .fail_on_findings == "new"


def test_the_operators_file_may_loosen_it(tmp_path: Path) -> None:
    operator = tmp_path / "operator.yml"
    operator.write_text("fail-on-findings: new\n", encoding="utf-8")
    root = tree(tmp_path / "repo")
    config = effective_config({"target": str(root), "out_dir": tmp_path / "out"}, root,
                              config_file=operator, env={"XDG_CACHE_HOME": str(tmp_path)})
    assert config.fail_on_findings == "new"


def test_a_pull_requests_base_file_loosens_and_its_base_is_the_diffs(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, {TREE_FILE: "fail-on-findings: new\n"},
                            {TREE_FILE: "fail-on-findings: all\n"})
    config = settle(root, tmp_path, pull=locate_base(root, base))
    assert config.fail_on_findings == "new" and config.base == base
    assert config.sources["base"] == "the pull request's base commit"
    assert config.fail_closed == ()


def test_the_pull_request_cannot_turn_new_on_through_its_own_file(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, {"app.py": "x = 1\n"}, {TREE_FILE: "fail-on-findings: new\n"})
    assert settle(root, tmp_path, pull=locate_base(root, base)).fail_on_findings == "all"


def test_new_without_the_base_commit_fails_closed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    pull_repo(root, {"app.py": "x = 1\n"}, {"app.py": "x = 2\n"})
    missing = PullBase(None, "the base commit 0123456789ab is not in the checkout",
                       changed=frozenset({"app.py"}))
    config = settle(root, tmp_path, pull=missing, fail_on_findings="new")
    [line] = config.fail_closed
    assert line.startswith(NEW_UNKNOWN) and "fetch-depth: 0" in line and config.base is None
    assert settle(root, tmp_path, pull=missing).fail_closed == ()
