"""The history detective when no commit can be read: each cause gets its own fix."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.repo.history import history
from detectives.conftest import OpenCase, by_goal


def _missing(ev: list) -> str:  # type: ignore[type-arg]
    [fact] = by_goal(ev, "Git commit history")
    assert not fact.found and fact.direction == "adverse" and "missing" in fact.tags
    return f"{fact.rationale} {fact.fix}"


def test_a_folder_without_git_is_told_to_bring_its_history(
    tmp_path: Path, open_case: OpenCase
) -> None:
    (tmp_path / "app.py").write_text("print('hi')\n")
    assert "not a git repository (no .git in it)" in _missing(history(open_case(tmp_path)))


def test_a_git_file_leading_outside_the_tree_is_named_not_called_missing_history(
    tmp_path: Path, open_case: OpenCase
) -> None:
    elsewhere = make_repo(tmp_path / "elsewhere", files={"a.py": "x = 1\n"})
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n")
    (tree / ".git").write_text(f"gitdir: {elsewhere / '.git'}\n")
    why = _missing(history(open_case(tree)))
    assert "leads outside the audited tree" in why and "full clone" in why
    assert "not a git repository" not in why


def test_a_repository_without_commits_says_so(tmp_path: Path, open_case: OpenCase) -> None:
    empty = make_repo(tmp_path / "empty")
    assert "no commits" in _missing(history(open_case(empty)))
