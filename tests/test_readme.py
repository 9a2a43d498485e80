"""The README is the front door: its Quickstart and workflow files must stay true."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.M | re.S)
    assert match, title
    return match.group(1)


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.M | re.S)


def test_quickstart_has_exactly_two_commands_audit_then_tests() -> None:
    blocks = _blocks(_section("Quickstart"), "sh")
    commands = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(commands) == 2
    assert "courtroom audit" in commands[0]
    assert "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "## Quickstart" in ci and "sed -n 2p" in ci


def test_workflow_files_parse_and_use_declared_inputs() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    declared = set(action["inputs"])
    workflows = [yaml.safe_load(b) for b in _blocks(_section("The GitHub Action"), "yaml")]
    assert len(workflows) >= 3
    main = workflows[0]
    triggers = main[True] if True in main else main["on"]  # YAML 1.1 reads `on` as True
    assert "pull_request" in triggers and "workflow_dispatch" in triggers
    assert "pr-number" in triggers["workflow_dispatch"]["inputs"]
    assert main["permissions"] == {
        "contents": "read",
        "pull-requests": "write",
        "checks": "write",
        "security-events": "write",
    }
    sarif = [s for s in main["jobs"]["audit"]["steps"] if "upload-sarif" in str(s.get("uses"))]
    assert sarif and sarif[0]["with"]["category"] == "courtroom"
    for workflow in workflows:
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                if "courtroom@" in str(step.get("uses", "")):
                    assert set(step.get("with", {})) <= declared, step["with"]


def test_readme_documents_every_exit_code_and_input() -> None:
    for code in ("| 0 |", "| 1 |", "| 2 |", "| 3 |"):
        assert code in README
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    for name in action["inputs"]:
        assert f"`{name}`" in README, name
