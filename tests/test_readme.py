"""The README is the front door and docs/ the manual: both must stay true to the code.

Checked here: the Quickstart is what CI runs, and CI fails on a lint or type error; every
relative link resolves; the workflows use only declared inputs; the contract (DESIGN.md)
names every verdict field, flag and action input the code has.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from courtroom.cli import build_parser
from courtroom.models import CriterionResult, Evidence, Usage, Verdict
from courtroom.settings.config_file import TREE_FILE, parse

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = [ROOT / "README.md", ROOT / "SECURITY.md", *sorted((ROOT / "docs").glob("*.md"))]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, title
    return match.group(1)


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.M | re.S)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", _FENCE.sub("", text), re.M):
        slug = _slug(heading)
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _links(text: str) -> list[str]:
    prose = re.sub(r"`[^`]*`", "", _FENCE.sub("", text))
    return [link for link in re.findall(r"\]\(([^)\s]+)\)", prose)
            if not re.match(r"[a-z]+:", link)]


def test_every_relative_link_resolves_to_a_file_and_its_anchor() -> None:
    broken: list[str] = []
    for doc in DOCS:
        for link in _links(_text(doc)):
            path, _, anchor = link.partition("#")
            target = (doc.parent / path).resolve() if path else doc
            if not target.exists():
                broken.append(f"{doc.name}: {link}: no such file")
            elif anchor and target.suffix == ".md" and anchor not in _anchors(_text(target)):
                broken.append(f"{doc.name}: {link}: no heading with that anchor")
    assert broken == []


def test_the_link_check_sees_a_missing_file_and_a_missing_anchor() -> None:
    text = "# Title\n\n## Two words: `code`\n\n[a](#two-words-code) [b](nowhere.md) [c](#none)\n"
    assert _links(text) == ["#two-words-code", "nowhere.md", "#none"]
    assert _anchors(text) == {"title", "two-words-code"}
    assert _links("```sh\n[x](in-code.md)\n```\n`[y](span.md)`") == []


def test_the_readme_stays_a_front_door() -> None:
    assert len(README.splitlines()) <= 300
    for code in ("| 0 |", "| 1 |", "| 2 |", "| 3 |"):
        assert code in _section(README, "Exit codes")


def test_the_readme_settings_example_is_a_valid_file() -> None:
    (example,) = _blocks(_section(README, "Settings in brief"), "yaml")
    assert len(parse(example, TREE_FILE)) >= 5


def test_quickstart_has_exactly_two_commands_audit_then_tests() -> None:
    blocks = _blocks(_section(README, "Quickstart"), "sh")
    commands = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(commands) == 2
    assert "courtroom audit" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_quickstarts_second_command() -> None:
    """The command line .ci/run extracts from the README is the Quickstart's second one."""
    ci = _text(ROOT / ".ci" / "run")
    (extract,) = [line for line in ci.splitlines() if line.startswith("cmd=$(")]
    shown = subprocess.run(["bash", "-c", f'{extract}\nprintf %s "$cmd"'], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    blocks = _blocks(_section(README, "Quickstart"), "sh")
    assert shown == [line for line in blocks[0].splitlines() if line.strip()][1]


def _fake_ci(tmp_path: Path) -> Path:
    """A copy of .ci/run in a tree whose README's test command and helper scripts only
    record that they ran (the real ones take many minutes and the network)."""
    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "run").write_text(_text(ROOT / ".ci" / "run"), encoding="utf-8")
    for helper in ("package-check", "lower-bounds"):
        (tmp_path / ".ci" / helper).write_text(f"echo {helper} >> log\n", encoding="utf-8")
    python = tmp_path / "py"
    python.write_text('#!/bin/sh\necho "$2" >> log\n'
                      'case "$2" in ruff) exit "${RUFF:-0}";; mypy) exit "${MYPY:-0}";; esac\n',
                      encoding="utf-8")
    python.chmod(0o755)
    (tmp_path / "README.md").write_text(
        "# x\n\n## Quickstart\n\n```sh\nbin/courtroom audit .\n"
        "echo setup >> log && ./py -m pytest -q\n```\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("failing", "ran"), [
    ("", ["setup", "ruff", "mypy", "package-check", "lower-bounds", "pytest"]),
    ("RUFF", ["setup", "ruff"]),
    ("MYPY", ["setup", "ruff", "mypy"]),
])
def test_ci_fails_on_a_lint_or_type_error_before_the_long_runs(
    tmp_path: Path, failing: str, ran: list[str]
) -> None:
    tree = _fake_ci(tmp_path)
    env = {**os.environ, **({failing: "1"} if failing else {})}
    done = subprocess.run(["bash", str(tree / ".ci" / "run")], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    assert (done.returncode != 0) == bool(failing), done.stderr
    assert (tree / "log").read_text().split() == ran


def test_the_readme_workflow_parses_and_uses_declared_inputs() -> None:
    (main,) = [yaml.safe_load(b) for b in _blocks(_section(README, "On GitHub"), "yaml")]
    triggers = main[True] if True in main else main["on"]  # YAML 1.1 reads `on` as True
    assert "pull_request" in triggers and "pr-number" in triggers["workflow_dispatch"]["inputs"]
    assert main["permissions"] == {"contents": "read", "pull-requests": "write",
                                   "checks": "write", "security-events": "write"}
    steps = main["jobs"]["audit"]["steps"]
    (sarif,) = [s for s in steps if "upload-sarif" in str(s.get("uses"))]
    assert sarif["with"]["category"] == "courtroom"


def test_every_documented_workflow_uses_only_declared_inputs() -> None:
    workflows = [yaml.safe_load(b) for doc in (ROOT / "README.md", ROOT / "docs" / "action.md")
                 for b in _blocks(_text(doc), "yaml") if "jobs:" in b]
    assert len(workflows) >= 5  # the README's, the complete one, the image, the fork pair
    for workflow in workflows:
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                if "courtroom@" in str(step.get("uses", "")):
                    assert set(step.get("with", {})) <= set(ACTION["inputs"]), step["with"]


def test_the_action_guide_and_the_contract_name_every_input_and_output() -> None:
    guide, design = _text(ROOT / "docs" / "action.md"), _text(ROOT / "docs" / "DESIGN.md")
    for name in [*ACTION["inputs"], *ACTION["outputs"]]:
        assert f"| `{name}` |" in guide, name
        assert f"`{name}`" in _section(design, "6. The GitHub Action"), name


def test_the_contract_names_every_verdict_field() -> None:
    block = _blocks(_section(_text(ROOT / "docs" / "DESIGN.md"), "3. `verdict.json`"),
                    "jsonc")[0]
    for model in (Verdict, CriterionResult, Evidence, Usage):
        for field in model.model_fields:
            assert f'"{field}"' in block, f"{model.__name__}.{field}"


def test_the_contract_names_every_flag() -> None:
    section = _section(_text(ROOT / "docs" / "DESIGN.md"), "5. Command line")
    commands = build_parser()._subparsers._group_actions[0].choices
    for name, parser in commands.items():
        assert f"courtroom {name}" in section
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}`" in section, f"courtroom {name} {flag}"


def test_nothing_points_at_a_contract_outside_the_repository() -> None:
    # spelt apart so this file does not name the folder it forbids
    outside = "../" + "sha" + "red"
    code = [*ROOT.joinpath("courtroom").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]
    texts = [*DOCS, *code]
    assert [p.relative_to(ROOT).as_posix() for p in texts if outside in _text(p)] == []
