"""Which settings the audited repository chose for itself is recorded (a typed field of
the verdict, a line of report.md), and `--config none` grades it by the operator's alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import make_repo
from config_builders import lenient_rubric, tree

from courtroom.cli import main
from courtroom.errors import ConfigError
from courtroom.models import SettingsSource
from courtroom.resources import named_rubric
from courtroom.settings.config import AuditConfig
from courtroom.settings.config_file import TREE_FILE
from courtroom.settings.effective import NO_CONFIG, batch_fields, effective_config

LENIENT = "rubric: lenient.json\nfail-below: 1\ngate: {git_forensic_analysis: 1}\nignore: docs/**\n"


def _settle(root: Path, tmp: Path, config_file: Path | None = None, **given: Any) -> AuditConfig:
    fields = {"target": str(root), "out_dir": tmp / "out", **given}
    return effective_config(fields, root, config_file=config_file, say=lambda _: None,
                            env={"XDG_CACHE_HOME": str(tmp / "xdg")})


def test_the_trees_own_rubric_and_settings_are_named(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", LENIENT, {"lenient.json": lenient_rubric("Lenient")})
    assert _settle(root, tmp_path).settings_source == SettingsSource(
        config="tree", rubric="tree", from_tree=["fail-below", "gate", "ignore", "rubric"])
    # Under the workflow's gate the tree's rubric is dropped and its lower fail-below loses.
    gated = _settle(root, tmp_path, fail_below=3.0)
    assert gated.settings_source == SettingsSource(
        config="tree", rubric="bundled", from_tree=["gate", "ignore"])


def test_a_value_the_file_joined_to_a_flags_is_the_trees_too(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", "fail-below: 3\nignore: docs/**\n")
    raised = _settle(root, tmp_path, fail_below=2.0, model="claude-x")
    assert raised.fail_below == 3.0 and raised.sources["fail_below"] != "flag"
    assert raised.settings_source.from_tree == ["fail-below", "ignore"]
    # The flag's stricter minimum stands: the file decided nothing there.
    kept = _settle(root, tmp_path, fail_below=4.0)
    assert kept.fail_below == 4.0 and kept.settings_source.from_tree == ["ignore"]


def test_config_none_ignores_the_trees_file_entirely(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", LENIENT, {"lenient.json": lenient_rubric("Lenient")})
    config = _settle(root, tmp_path, NO_CONFIG)
    assert config.settings_source == SettingsSource(config="ignored", rubric="bundled")
    assert config.gate == {} and config.tree_ignore == () and config.fail_below is None
    assert config.sources["judges"] == "default"
    broken = tree(tmp_path / "broken", "[" * 30_000)  # not even parsed
    assert _settle(broken, tmp_path, NO_CONFIG).settings_source is not None


def test_a_flag_naming_a_rubric_inside_the_tree_is_still_the_trees(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", None, {"r.json": lenient_rubric("Mine")})
    config = _settle(root, tmp_path, rubric_path=root / "r.json")
    assert config.settings_source == SettingsSource(config="absent", rubric="tree")
    outside = tmp_path / "operator.json"
    outside.write_bytes(lenient_rubric("Theirs"))
    assert _settle(root, tmp_path, rubric_path=outside).settings_source == SettingsSource(
        config="absent", rubric="operator")


def test_a_batch_takes_config_none_as_no_file(tmp_path: Path) -> None:
    fields, _ = batch_fields({"target": "x"}, NO_CONFIG)
    assert "gate" not in fields
    with pytest.raises(ConfigError, match="config file not found"):
        batch_fields({"target": "x"}, tmp_path / "missing.yml")


def test_the_verdict_and_report_say_who_chose_the_measure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", files={
        TREE_FILE: LENIENT, "lenient.json": lenient_rubric("Lenient").decode(), "a.py": "x = 1\n"})
    args = ["audit", str(repo), "--quiet", "--no-court", "--judges", "offline"]
    assert main([*args, "--out", str(tmp_path / "own")]) in (0, 1)
    assert main([*args, "--out", str(tmp_path / "none"), "--config", "none"]) in (0, 1)
    capsys.readouterr()
    own, none = (json.loads((tmp_path / d / "verdict.json").read_text(encoding="utf-8"))
                 for d in ("own", "none"))
    assert own["rubric"]["name"] == "Lenient" and none["rubric"]["name"] != "Lenient"
    assert own["settings_source"]["rubric"] == "tree" and "gate" in own["settings_source"][
        "from_tree"]
    assert none["settings_source"] == {"config": "ignored", "rubric": "bundled", "from_tree": []}
    report = (tmp_path / "own" / "report.md").read_text(encoding="utf-8")
    assert ("**Chosen by the audited repository itself:** the rubric (a file inside it), and "
            "fail-below, gate, ignore, rubric from its `.github/courtroom.yml`.") in report
    ignored = (tmp_path / "none" / "report.md").read_text(encoding="utf-8")
    assert "`.github/courtroom.yml` was ignored (`--config none`)" in ignored


def test_the_trees_file_may_name_a_bundled_rubric(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", "rubric: pr-gate\n")
    config = _settle(root, tmp_path)
    assert config.rubric_path == named_rubric("pr-gate")
    assert config.settings_source == SettingsSource(
        config="tree", rubric="bundled", from_tree=["rubric"])
    # A file of that name in the repository is what the name means there.
    mine = tree(tmp_path / "mine", "rubric: pr-gate\n", {"pr-gate": lenient_rubric("Mine")})
    assert _settle(mine, tmp_path).rubric_path == mine / "pr-gate"
    # Neither a file nor a bundled name: refused as before.
    with pytest.raises(ConfigError, match="is not a file in the repository"):
        _settle(tree(tmp_path / "none", "rubric: no-such-rubric\n"), tmp_path)
