"""The effective settings of an audit of a pull request: the base commit's file, under the
same rules as any untrusted file, and the verdict says where it came from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from config_builders import lenient_rubric, pull_repo, settle

from courtroom.errors import ConfigError
from courtroom.resources import named_rubric
from courtroom.rubric import default_rubric_path, load_rubric
from courtroom.settings.base_commit import PullBase, locate_base
from courtroom.settings.config_file import TREE_FILE
from courtroom.settings.effective import effective_config

BASE_FILES = {
    TREE_FILE: "rubric: strict.json\nignore: ['docs/**', 'app/**']\nmodel: base-model\n",
    "strict.json": lenient_rubric("Strict"),
}
#: The pull request points the config at a rubric of its own, and edits the base's in place.
PR_FILES = {
    TREE_FILE: "rubric: lenient.json\njudges: offline\nmodel: pr-model\n",
    "lenient.json": lenient_rubric("Lenient"),
    "strict.json": lenient_rubric("Lenient"),
}


def test_a_pull_request_is_measured_with_the_bases_rubric_not_the_one_it_picks(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, BASE_FILES, PR_FILES)
    config = settle(root, tmp_path, pull=locate_base(root, base))
    from_base = f"{TREE_FILE} at base {base[:12]}"
    assert config.rubric_path == tmp_path / "base-files" / base / "strict.json"
    assert load_rubric(config.rubric_path).rubric_metadata.rubric_name == "Strict"
    assert config.settings_source is not None and config.settings_source.rubric == "base"
    assert config.model == "base-model" and config.sources["config"] == from_base
    assert config.sources["rubric_path"] == f"{from_base}; the file as the base commit " \
        f"{base[:12]} has it"
    # Still an untrusted file: its globs never hide Python from the scan.
    assert config.tree_ignore == ("docs/**", "app/**") and config.ignore == ()
    record = config.settings_record()
    assert record["rubric"] == "strict.json" and record["sources"]["config"] == from_base


def test_the_bases_file_is_still_held_to_the_workflows_gate(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, BASE_FILES, PR_FILES)
    lines: list[str] = []
    config = settle(root, tmp_path, lines, pull=locate_base(root, base), fail_below=3.0)
    assert config.rubric_path == default_rubric_path() and config.model is None
    assert "ignored under the workflow's gate" in config.sources["rubric_path"]
    assert any(line.startswith(f"{TREE_FILE} at base {base[:12]}: rubric, model ignored")
               for line in lines)


def test_without_the_base_the_pull_requests_file_only_tightens(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    pull_repo(root, BASE_FILES, {**PR_FILES, TREE_FILE: PR_FILES[TREE_FILE] + "fail-below: 4\n"})
    missing = PullBase(None, "the base commit 0123456789ab is not in the checkout")
    config = settle(root, tmp_path, pull=missing, judges="anthropic")
    assert config.rubric_path == default_rubric_path() and config.model is None
    assert config.judges == "anthropic" and config.fail_below == 4.0
    assert config.sources["fail_below"] == f"{TREE_FILE} of the pull request"
    assert "may not set it: the base commit 0123456789ab" in config.sources["rubric_path"]
    assert config.sources["config"].startswith(f"{TREE_FILE} of the pull request, restricted")


def test_without_the_base_a_rubric_input_the_pr_changes_fails_the_audit_closed(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    pull_repo(root, BASE_FILES, PR_FILES)
    missing = PullBase(None, "the base commit 0123456789ab is not in the checkout")
    listed = replace(missing, changed=frozenset({"app.py"}))
    config = settle(root, tmp_path, pull=listed, rubric_path=root / "lenient.json")
    assert config.fail_closed == () and config.model == "pr-model"  # unchanged: all of it
    assert "fail_closed" not in config.settings_record()
    edited = replace(missing, changed=frozenset({"app.py", "lenient.json"}))
    config = settle(root, tmp_path, pull=edited, rubric_path=root / "lenient.json")
    (line,) = config.fail_closed
    assert line.endswith("the pull request changes lenient.json; fetch the base commit "
                         "(actions/checkout `fetch-depth: 0`) to read them")
    assert config.settings_record()["fail_closed"] == [line] and config.model is None


def test_a_push_still_reads_the_trees_own_file(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    pull_repo(root, BASE_FILES, PR_FILES)
    config = settle(root, tmp_path)
    assert config.rubric_path == root / "lenient.json" and config.sources["model"] == TREE_FILE
    assert "config" not in config.sources


def test_the_rubric_input_is_read_as_the_base_has_it_too(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, BASE_FILES, PR_FILES)
    config = settle(root, tmp_path, pull=locate_base(root, base), rubric_path=root / "strict.json")
    assert load_rubric(config.rubric_path).rubric_metadata.rubric_name == "Strict"
    assert config.sources["rubric_path"].startswith("flag; the file as the base commit")
    outside = tmp_path / "operator.json"  # the operator's own file is not the PR's to edit
    outside.write_bytes(lenient_rubric("Operator"))
    config = settle(root, tmp_path, pull=locate_base(root, base), rubric_path=outside)
    assert config.rubric_path == outside and config.sources["rubric_path"] == "flag"


@pytest.mark.parametrize(
    ("rubric", "problem"),
    [
        ("lenient.json", "rubric: lenient.json: not a file in the base commit"),
        ("../strict.json", "rubric: '../strict.json' must stay inside the repository"),
        (":(icase)STRICT.JSON", "must stay inside the repository"),
    ],
)
def test_a_rubric_the_base_does_not_hold_is_refused(
    tmp_path: Path, rubric: str, problem: str
) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, {**BASE_FILES, TREE_FILE: f"rubric: '{rubric}'\n"}, PR_FILES)
    with pytest.raises(ConfigError, match=problem.replace("(", r"\(")):
        settle(root, tmp_path, pull=locate_base(root, base))


def test_the_base_rubric_is_never_copied_into_the_tree(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    base, _head = pull_repo(root, BASE_FILES, PR_FILES)
    fields = {"target": str(root), "out_dir": tmp_path / "out"}
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    for scratch in (None, root / "copies"):
        with pytest.raises(ConfigError, match="folder"):
            effective_config(fields, root, env=env, pull=locate_base(root, base), scratch=scratch)
    assert not (root / "copies").exists()


def test_without_the_base_a_gate_for_a_rubric_it_may_not_choose_stops_the_audit(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    own = "rubric: lenient.json\ngate: {invented_criterion: 3}\n"
    pull_repo(root, BASE_FILES, {**PR_FILES, TREE_FILE: own})
    missing = PullBase(None, "the base commit 0123456789ab is not in the checkout")
    with pytest.raises(ConfigError, match="gate: unknown criterion 'invented_criterion'"):
        settle(root, tmp_path, pull=missing)


def test_the_bases_file_may_name_a_bundled_rubric_unless_it_holds_a_file_of_that_name(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    named = {**BASE_FILES, TREE_FILE: "rubric: pr-gate\n"}
    # The pull request adds a file of that name: the base has none, so the bundled one holds.
    base, _head = pull_repo(root, named, {**PR_FILES, "pr-gate": lenient_rubric("Lenient")})
    config = settle(root, tmp_path, pull=locate_base(root, base))
    assert config.rubric_path == named_rubric("pr-gate")
    assert config.settings_source is not None and config.settings_source.rubric == "bundled"
    assert "the bundled rubric pr-gate" in config.sources["rubric_path"]
    own = tmp_path / "own"
    base, _head = pull_repo(own, {**named, "pr-gate": lenient_rubric("Strict")}, PR_FILES)
    config = settle(own, tmp_path, pull=locate_base(own, base))
    assert load_rubric(config.rubric_path).rubric_metadata.rubric_name == "Strict"
