"""The configuration file: every key, one-line errors naming file, key and problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from config_builders import settle, tree

from courtroom.errors import ConfigError
from courtroom.settings.config_file import KEYS, TREE_FILE, load_operator_file, parse

FULL = """\
rubric: rubrics/team.json
pdf: docs/*.pdf
fail-below: 2.5
gate: {safe_tool_engineering: 3}
fail-on-uncovered: true
judges: offline
model: claude-test
provider: bedrock
region: eu-west-1
project-id: my-project
max-cost-usd: 2.5
max-concurrency: 4
judge-timeout: 120
ignore: ["third_party/**", "*.min.js"]
"""


def test_every_key_parses_into_its_setting(tmp_path: Path) -> None:
    rubric = (Path(__file__).parents[2] / "rubric.json").read_bytes()
    root = tree(tmp_path / "repo", FULL, {"rubrics/team.json": rubric, "docs/r.pdf": b"%PDF"})
    config = settle(root, tmp_path)
    assert config.rubric_path == root / "rubrics/team.json"
    assert config.pdf == root / "docs/r.pdf"
    assert (config.fail_below, config.gate) == (2.5, {"safe_tool_engineering": 3.0})
    assert config.fail_on_uncovered and config.settings_record()["fail_on_uncovered"]
    assert (config.model, config.provider, config.max_cost_usd) == ("claude-test", "bedrock", 2.5)
    assert (config.region, config.project_id) == ("eu-west-1", "my-project")
    assert (config.max_concurrency, config.judge_timeout) == (4, 120)
    # The tree's own globs never hide Python source (the security scan must read it).
    assert config.ignore == () and config.tree_ignore == ("third_party/**", "*.min.js")
    assert config.sources["model"] == TREE_FILE and "clone_timeout" not in config.sources
    assert config.cache_dir == tmp_path / "xdg" / "courtroom"

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("colour: red\n", f"{TREE_FILE}: colour: unknown key"),
        ("fail-below: 7\n", f"{TREE_FILE}: fail-below: must be between 0 and 5"),
        ("fail-below: yes\n", f"{TREE_FILE}: fail-below: must be a number"),
        ("judges: gpt\n", f"{TREE_FILE}: judges: must be one of offline, anthropic"),
        ("max-concurrency: 2.5\n", f"{TREE_FILE}: max-concurrency: must be a whole number"),
        ("ignore: ['../etc/**']\n", f"{TREE_FILE}: ignore: '../etc/**' must not contain '..'"),
        ("ignore: ['/etc']\n", f"{TREE_FILE}: ignore: '/etc' must be relative"),
        ("gate: 3\n", f"{TREE_FILE}: gate: must map criterion ids"),
        ("fail-on-uncovered: 1\n", f"{TREE_FILE}: fail-on-uncovered: must be true or false"),
        ("gate: {x: 9}\n", f"{TREE_FILE}: gate: x: must be between 0 and 5"),
        ("- a\n- b\n", f"{TREE_FILE}: must be a mapping of settings, got list"),
        ("model: [unclosed\n", f"{TREE_FILE}: line 2: not valid YAML"),
    ],
)
def test_a_bad_file_is_one_line_naming_file_key_and_problem(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse(text, TREE_FILE)
    assert str(caught.value).startswith(expected), str(caught.value)
    assert "\n" not in str(caught.value)

def test_the_documented_example_is_a_valid_file() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text(encoding="utf-8")
    block = doc.split("# .github/courtroom.yml\n", 1)[1].split("```", 1)[0]
    values = parse(block, TREE_FILE)
    assert len(values) >= 10
    table = doc.split("## Configuration\n", 1)[1].split("\n## ", 1)[0]
    assert all(f" | `{key}`" in table for key in KEYS)  # every key has its row


def test_a_missing_operator_file_or_an_oversized_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_operator_file(tmp_path / "none.yml")
    root = tree(tmp_path / "repo", "# padding\n" * 10_000)
    with pytest.raises(ConfigError, match=f"{TREE_FILE}: larger than 64 KiB"):
        settle(root, tmp_path)


@pytest.mark.parametrize(("value", "accepted"),
                         [(0, False), (1, True), (64, True), (65, False), (256, False)])
def test_max_concurrency_in_the_file_takes_the_flags_range(value: int, accepted: bool) -> None:
    text = f"max-concurrency: {value}\n"
    if accepted:
        assert parse(text, TREE_FILE) == {"max_concurrency": value}
    else:
        with pytest.raises(ConfigError, match="max-concurrency: must be between 1 and 64"):
            parse(text, TREE_FILE)
