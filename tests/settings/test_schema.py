"""The one table of settings agrees with the CLI, action.yml and the configuration docs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

from courtroom.cli import build_parser
from courtroom.models import PROVIDERS
from courtroom.settings.base_commit import LOOSENING
from courtroom.settings.config import AuditConfig
from courtroom.settings.config_file import KEYS, MEASURE
from courtroom.settings.schema import SETTINGS

ROOT = Path(__file__).resolve().parents[2]
ACTION_INPUTS = set(yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"])
#: Action inputs that are not audit settings: credentials and what is published where.
NOT_SETTINGS = {"github-token", "anthropic-api-key", "pr-number", "check-name", "comment",
                "verdict"}


def _rows() -> list[list[str]]:
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    table = re.search(r"^\| setting \| flag \|.*?\n\n", text, re.M | re.S)
    assert table
    lines = table[0].strip().splitlines()[2:]  # past the header and its rule
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def _flags(command: str = "audit") -> set[str]:
    parser = build_parser()._subparsers._group_actions[0].choices[command]
    return {flag for action in parser._actions for flag in action.option_strings}


def test_every_setting_is_an_audit_config_field_declared_once() -> None:
    fields = [s.field for s in SETTINGS]
    assert len(fields) == len(set(fields))
    assert set(fields) <= set(AuditConfig.model_fields)


def test_the_file_keys_and_what_an_untrusted_file_may_not_measure_come_from_the_table() -> None:
    assert KEYS == {s.key: (s.field, s.value.check) for s in SETTINGS if s.key}
    # Pinned by name: a setting joining these changes what a pull request's own file may
    # not set, so the docs that list them (configuration.md, action.md) must change too.
    assert MEASURE == ("rubric_path", "judges", "model", "provider", "region", "project_id",
                       "max_cost_usd", "judge_timeout")
    assert LOOSENING == (*MEASURE, "ignore", "fail_on_findings")


def test_the_commands_take_exactly_the_schemas_flags_besides_their_own() -> None:
    own = {"-h", "--help", "--config", "--out"}
    audit = {s.flag.name for s in SETTINGS if s.flag}
    assert _flags("audit") == audit | own | {"--name", "--quiet"}
    batch = {s.flag.name for s in SETTINGS if s.flag and s.flag.batch}
    assert _flags("batch") == batch | own | {"--workers", "--shard", "--batch-api"}


def test_an_input_of_one_provider_follows_the_provider_setting() -> None:
    order = [s.field for s in SETTINGS]
    for setting in SETTINGS:
        for given in setting.inputs:
            if given.provider is not None:
                assert given.provider in PROVIDERS
                assert order.index(setting.field) > order.index("provider"), given.name


def test_no_flag_or_input_of_a_setting_is_named_outside_the_schema() -> None:
    """A setting's flag or input spelt anywhere but its row would be a second reader."""
    flags = {s.flag.name for s in SETTINGS if s.flag}
    inputs = {i.name for s in SETTINGS for i in s.inputs}
    found = []
    for path in sorted((ROOT / "courtroom").rglob("*.py")):
        if path.name == "schema.py" and path.parent.name == "settings":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in flags:
                found.append(f"{path.name}: {node.value}")
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "read"
                  and any(isinstance(a, ast.Constant) and a.value in inputs for a in node.args)):
                found.append(f"{path.name}: read of a setting's input")
    assert found == []


def test_flags_and_action_inputs_exist_and_every_input_is_declared() -> None:
    flags = _flags()
    assert {s.flag.name for s in SETTINGS if s.flag} <= flags
    inputs = {i.name for s in SETTINGS for i in s.inputs}
    assert inputs <= ACTION_INPUTS
    assert ACTION_INPUTS - inputs == NOT_SETTINGS


def test_the_configuration_table_shows_each_setting_as_declared() -> None:
    rows = _rows()
    for setting in SETTINGS:
        found = [r for r in rows if (setting.flag and f"`{setting.flag.name}`" in r[1])
                 or (not setting.flag and setting.key and r[2].startswith(f"`{setting.key}`"))]
        if not setting.flag and not setting.key:
            continue  # internal: the tree's own ignore globs (tree_ignore)
        assert len(found) == 1, setting.field
        _name, _flag, key, _env, inputs, _default = found[0]
        assert key.startswith(f"`{setting.key}`") if setting.key else "`" not in key
        assert all(f"`{i.name}`" in inputs for i in setting.inputs), setting.field


def test_the_verdict_records_exactly_the_recorded_settings(tmp_path: Path) -> None:
    record = AuditConfig(target=".", out_dir=tmp_path).settings_record()
    recorded = ["rubric" if s.field == "rubric_path" else s.field for s in SETTINGS if s.recorded]
    assert [k for k in record if k != "sources"] == recorded


def _keys_listed(path: str, before: str, after: str) -> list[str]:
    """The backquoted keys the docs list between two phrases (one list of prose)."""
    text = " ".join((ROOT / path).read_text(encoding="utf-8").split())
    start = text.index(before) + len(before)
    return sorted(re.findall(r"`([a-z-]+)`", text[start:text.index(after, start)]))


def test_the_docs_list_what_a_file_may_not_set_as_the_table_has_it() -> None:
    measured = sorted(str(s.key) for s in SETTINGS if s.field in MEASURE)
    assert _keys_listed("docs/configuration.md", "change how the score is measured:",
                        "are ignored") == measured
    loosening = sorted(str(s.key) for s in SETTINGS if s.field in LOOSENING)
    assert _keys_listed("docs/action.md", "runs on the PR's own file without",
                        "(its scores") == loosening
    assert _keys_listed("docs/DESIGN.md", "how the score is measured or what is left out",
                        "and its conclusion") == loosening
