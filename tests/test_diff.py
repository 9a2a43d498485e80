"""The pull request's diff from git's objects: hunks, located changes, a missing base."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from builders import Commit, head_sha, make_repo

from courtroom import diff
from courtroom.errors import DiffError


def _pair(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", [
        Commit("base", {"app.py": "a\nb\nc\n", "old.py": "gone\n"}),
        Commit("pr", {"app.py": "top\na\nc\nd\ne\n", "old.py": None, "my file.py": "x\n"}),
    ])


def test_hunks_name_the_added_lines_of_each_changed_file(tmp_path: Path) -> None:
    repo = _pair(tmp_path)
    found = diff.load(repo, "HEAD~1", head_sha(repo))
    assert found.base == head_sha(repo, "HEAD~1") and found.head == head_sha(repo)
    locations = [(h.location, h.added, h.removed) for h in found.hunks]
    assert locations == [("app.py:1", 1, 0), ("app.py:3", 0, 1), ("app.py:4-5", 2, 0),
                         ("my file.py:1", 1, 0), ("old.py:1", 0, 1)]
    assert found.hunks[2].text == "d\ne"


def test_touches_is_true_only_for_changed_lines(tmp_path: Path) -> None:
    repo = _pair(tmp_path)
    found = diff.load(repo, "main~1", head_sha(repo))
    assert found.touches("app.py:5") and found.touches("app.py:2-4")
    assert not found.touches("app.py:2") and not found.touches("app.py:3")
    assert found.touches("my file.py:1") and found.touches("app.py")
    assert not found.touches(".") and not found.touches("pdf:page 2")


def test_a_patch_line_that_looks_like_a_header_stays_a_line() -> None:
    patch = ("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1,2 @@\n"
             "--- removed\n+++ added\n+plain\n")
    [hunk] = diff.parse_patch(patch)
    assert hunk.path == "x.py" and hunk.text == "++ added\nplain"


def test_a_base_missing_from_a_shallow_clone_is_one_clear_line(tmp_path: Path) -> None:
    repo = _pair(tmp_path)
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)],
                   check=True, capture_output=True)
    with pytest.raises(DiffError, match=r"not a commit in the audited repository.*fetch-depth"):
        diff.load(shallow, head_sha(repo, "HEAD~1"), head_sha(shallow))


@pytest.mark.parametrize("ref", ["--output=/tmp/x", "a..b", "main; rm", ""])
def test_a_base_that_is_no_revision_name_is_refused(tmp_path: Path, ref: str) -> None:
    repo = _pair(tmp_path)
    with pytest.raises(DiffError, match="not a commit or branch name"):
        diff.resolve(repo, ref)


def test_a_tree_without_git_has_no_base(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(DiffError, match="not a git repository"):
        diff.resolve(tmp_path / "plain", "main")
