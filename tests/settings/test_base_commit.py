"""A pull request's config comes from its base commit: read from git objects, validated like
the tree's own; without the base, the PR's own file cannot choose its yardstick."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from builders import head_sha
from config_builders import pull_repo, tree

from courtroom.errors import ConfigError, PublishError
from courtroom.settings.base_commit import (
    LOOSENING,
    UNKNOWN_SETTINGS,
    PullBase,
    fallback_warning,
    list_changes,
    locate_base,
    pull_file,
)
from courtroom.settings.config_file import TREE_FILE

STRICT = "rubric: strict.json\nfail-below: 3\n"
LENIENT = "rubric: lenient.json\njudges: offline\nignore: ['docs/**']\nmax-concurrency: 2\n"


def test_the_base_commits_file_is_the_config_whatever_the_pull_request_did(
    tmp_path: Path,
) -> None:
    base, _head = pull_repo(tmp_path / "repo", {TREE_FILE: STRICT}, {TREE_FILE: LENIENT})
    located = locate_base(tmp_path / "repo", base)
    assert located == PullBase(base)
    chosen = pull_file(tmp_path / "repo", located)
    assert chosen.file is not None and chosen.file.values == {
        "rubric_path": "strict.json", "fail_below": 3.0,
    }
    assert chosen.origin == f"{TREE_FILE} at base {base[:12]}" == chosen.file.source
    assert not chosen.file.trusted and chosen.dropped == {}
    assert fallback_warning(located) is None


def test_a_base_without_a_file_means_defaults_not_the_pull_requests_new_file(
    tmp_path: Path,
) -> None:
    base, _head = pull_repo(tmp_path / "repo", {"a.py": "x = 1\n"}, {TREE_FILE: LENIENT})
    chosen = pull_file(tmp_path / "repo", locate_base(tmp_path / "repo", base))
    assert chosen.file is None
    assert chosen.origin == f"none (the base commit {base[:12]} has no {TREE_FILE})"


def test_without_the_base_commit_the_pull_requests_file_cannot_choose_its_yardstick(
    tmp_path: Path,
) -> None:
    pull_repo(tmp_path / "origin", {TREE_FILE: STRICT}, {TREE_FILE: LENIENT})
    shallow = tmp_path / "shallow"  # what actions/checkout leaves with its default depth 1
    subprocess.run(["git", "clone", "-q", "--depth", "1", (tmp_path / "origin").as_uri(),
                    str(shallow)], check=True, capture_output=True)
    base = head_sha(tmp_path / "origin", "HEAD~1")
    located = locate_base(shallow, base)
    assert located == PullBase(None, f"the base commit {base[:12]} is not in the checkout")
    chosen = pull_file(shallow, located)
    assert chosen.file is not None and chosen.file.values == {"max_concurrency": 2}
    assert set(chosen.dropped) == {"rubric_path", "judges", "ignore"} <= set(LOOSENING)
    assert all("may not set it: the base commit" in why for why in chosen.dropped.values())
    assert chosen.origin.startswith(f"{TREE_FILE} of the pull request, restricted (")
    # Nobody listed what the pull request changes: its base's settings are unknown.
    assert chosen.unknown.startswith(f"{UNKNOWN_SETTINGS}: the base commit {base[:12]} is not "
                                     "in the checkout, and the files it changes were not listed")
    warning = fallback_warning(located)
    assert warning is not None and "rubric, " in warning and "ignore" in warning
    assert "fetch-depth: 0" in warning and "the conclusion is failure" in warning


MISSING = PullBase(None, "the base commit 0123456789ab is not in the checkout")


def _listed(*paths: str) -> PullBase:
    return list_changes(MISSING, 2, lambda number: list(paths))


def test_a_pull_request_that_leaves_the_file_alone_has_the_bases_in_its_checkout(
    tmp_path: Path,
) -> None:
    root = tree(tmp_path / "repo", STRICT + "ignore: ['docs/**']\n")
    chosen = pull_file(root, _listed("src/app.py", "docs/notes.md"))
    origin = f"{TREE_FILE} of the checkout, unchanged by the pull request ({MISSING.missing})"
    assert chosen.file is not None and chosen.origin == origin == chosen.file.source
    assert chosen.file.values == {"rubric_path": "strict.json", "fail_below": 3.0,
                                  "ignore": ("docs/**",)}
    assert not chosen.file.trusted and chosen.dropped == {} and chosen.unknown == ""
    assert fallback_warning(_listed("src/app.py")) is None
    empty = pull_file(tree(tmp_path / "bare"), _listed("src/app.py"))
    assert empty.file is None and empty.unknown == "" and empty.origin.startswith("none (")


@pytest.mark.parametrize(("changed", "rubric", "touched"), [
    ((TREE_FILE,), None, TREE_FILE),
    (("strict.json",), None, "strict.json"),  # the rubric the file names, edited in place
    (("rubrics/own.json",), "./rubrics/own.json", "rubrics/own.json"),  # the rubric input's
])
def test_a_pull_request_that_changes_the_file_or_its_rubric_leaves_its_settings_unknown(
    tmp_path: Path, changed: tuple[str, ...], rubric: str | None, touched: str
) -> None:
    root = tree(tmp_path / "repo", STRICT)
    chosen = pull_file(root, _listed("src/app.py", *changed), rubric)
    assert chosen.unknown == (
        f"{UNKNOWN_SETTINGS}: {MISSING.missing}, and the pull request changes {touched}; "
        "fetch the base commit (actions/checkout `fetch-depth: 0`) to read them")
    assert chosen.file is not None and chosen.file.values == {"fail_below": 3.0}


def test_the_file_list_is_asked_for_only_without_the_base_and_a_refusal_is_kept() -> None:
    def refuse(number: int) -> list[str]:
        raise PublishError(f"list files of pull #{number} failed: HTTP 502")

    assert list_changes(PullBase("a" * 40), 2, refuse) == PullBase("a" * 40)
    unlisted = list_changes(MISSING, 2, refuse)
    assert unlisted.changed is None
    assert unlisted.unlisted == "the files it changes cannot be listed (list files of pull #2 " \
        "failed: HTTP 502)"
    assert "cannot be listed" in (fallback_warning(unlisted) or "")


def test_a_pull_request_with_no_file_and_no_base_gets_the_defaults(tmp_path: Path) -> None:
    located = locate_base(tmp_path, "a" * 40)  # not a repository at all
    assert located == PullBase(None, "the workspace is not a git repository of its own")
    chosen = pull_file(tmp_path, located)
    assert chosen.file is None and chosen.origin.startswith("none (the workspace is not")


@pytest.mark.parametrize("sha", [None, "", "HEAD", "--output=/tmp/x", "A" * 40, "a" * 39])
def test_only_a_full_object_name_is_handed_to_git(tmp_path: Path, sha: str | None) -> None:
    pull_repo(tmp_path / "repo", {TREE_FILE: STRICT}, {"a.py": "x = 1\n"})  # HEAD exists
    located = locate_base(tmp_path / "repo", sha)
    assert located == PullBase(None, "the event names no base commit")


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        ({TREE_FILE: "fail_below: 3\n"}, "fail_below: unknown key"),
        ({TREE_FILE: "rubric: [\n"}, "not valid YAML"),
        ({TREE_FILE: b"model: \xff\xfe\n"}, "not UTF-8 text"),
        ({TREE_FILE: "# padding\n" * 10_000}, "larger than 64 KiB; refused"),
        ({f"{TREE_FILE}/inner.yml": "model: x\n"}, "is not a file"),
    ],
)
def test_a_bad_base_file_is_one_line_naming_the_base_commit(
    tmp_path: Path, files: dict[str, str | bytes | None], problem: str
) -> None:
    base, _head = pull_repo(tmp_path / "repo", files, {"a.py": "x = 1\n"})
    located = locate_base(tmp_path / "repo", base)
    with pytest.raises(ConfigError) as caught:
        pull_file(tmp_path / "repo", located)
    assert str(caught.value).startswith(f"{TREE_FILE} at base {base[:12]}: ")
    assert problem in str(caught.value) and "\n" not in str(caught.value)


def test_a_base_file_that_is_a_link_is_refused_and_never_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yml"
    secret.write_text("model: from-outside\n", encoding="utf-8")
    root = tmp_path / "repo"
    (root / ".github").mkdir(parents=True)
    (root / TREE_FILE).symlink_to(secret)
    base, _head = pull_repo(root, {}, {"a.py": "x = 1\n"})
    with pytest.raises(ConfigError, match=f"{TREE_FILE} at base {base[:12]}: is a symlink"):
        pull_file(root, locate_base(root, base))


@pytest.mark.parametrize(
    ("lost", "why"),
    [
        (f"{TREE_FILE}", f"{TREE_FILE} of the base commit {{base}} cannot be read"),
        (".github", "the tree of the base commit {base} cannot be read"),
    ],
)
def test_a_base_missing_objects_is_not_read(tmp_path: Path, lost: str, why: str) -> None:
    """A partial or damaged clone: git cannot read the file, so the fallback applies."""
    root = tmp_path / "repo"
    base, _head = pull_repo(root, {TREE_FILE: STRICT}, {"a.py": "x = 1\n"})
    oid = subprocess.run(["git", "-C", str(root), "rev-parse", f"{base}:{lost}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    (root / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
    located = locate_base(root, base)
    assert located.sha is None and located.missing.endswith(why.format(base=base[:12]))
