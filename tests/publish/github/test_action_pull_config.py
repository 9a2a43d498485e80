"""On a pull request the action reads the repository config from the base commit: from the
event payload, or from the API for `/courtroom audit` and a dispatched re-audit."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from action_support import FakeAudit, fake_github, make_env, publisher_factory, run
from config_builders import lenient_rubric, pull_repo
from fakes.github_server import FakeGitHub

from courtroom.base_config import PullBase
from courtroom.publish.github.action import action
from courtroom.publish.github.event import config_from_env
from courtroom.publish.github.runners import pipeline_runner
from courtroom.repo_config import TREE_FILE

BASE_FILES = {TREE_FILE: "rubric: strict.json\n", "strict.json": lenient_rubric("Strict")}
#: The pull request points the config at a lenient rubric it brings along, and edits the
#: base's rubric in place for good measure.
PR_FILES = {
    TREE_FILE: "rubric: lenient.json\n",
    "lenient.json": lenient_rubric("Lenient"),
    "strict.json": lenient_rubric("Lenient"),
}


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    server = fake_github()
    github = next(server)
    github.permissions["maintainer"] = "write"
    yield github
    next(server, None)


def _event(env: dict[str, str], change: Any) -> None:
    path = Path(env["GITHUB_EVENT_PATH"])
    event = json.loads(path.read_text())
    change(event)
    path.write_text(json.dumps(event))


def _pull_request(tmp_path: Path, fake: FakeGitHub, base: str, head: str) -> dict[str, str]:
    env = make_env(tmp_path, fake)

    def shas(event: dict[str, Any]) -> None:
        event["pull_request"]["head"]["sha"], event["pull_request"]["base"]["sha"] = head, base

    _event(env, shas)
    fake.pulls[2] = head
    return env


def _verdict_and_trace(tmp_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    out = tmp_path / "workspace" / "courtroom-report"
    lines = (out / "trace.jsonl").read_text().splitlines()
    return json.loads((out / "verdict.json").read_text()), [json.loads(ln) for ln in lines]


def test_a_pull_request_that_picks_a_lenient_rubric_is_measured_with_the_bases(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    base, head = pull_repo(tmp_path / "workspace", BASE_FILES, PR_FILES)
    env = _pull_request(tmp_path, fake, base, head)
    action(config_from_env(env), publisher_factory, pipeline_runner)
    verdict, trace = _verdict_and_trace(tmp_path)
    assert verdict["rubric"]["name"] == "Strict"
    from_base = f"{TREE_FILE} at base {base[:12]}"
    sources = verdict["settings"]["sources"]
    assert sources["config"] == from_base and verdict["settings"]["rubric"] == "strict.json"
    assert sources["rubric"] == f"{from_base}; the file as the base commit {base[:12]} has it"
    assert {"stage": "config", "event": "source", "config": from_base} in [
        {k: v for k, v in e.items() if k != "t"} for e in trace
    ]
    report = (tmp_path / "workspace" / "courtroom-report" / "report.md").read_text()
    assert f" · settings: {from_base} · " in report.replace("`", "")
    assert "::warning::" not in capsys.readouterr().out
    assert "Warning" not in (tmp_path / "summary.md").read_text()


def test_a_shallow_checkout_warns_and_the_pr_cannot_pick_its_rubric(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    base, head = pull_repo(tmp_path / "origin", BASE_FILES, PR_FILES)
    subprocess.run(["git", "clone", "-q", "--depth", "1", (tmp_path / "origin").as_uri(),
                    str(tmp_path / "workspace")], check=True, capture_output=True)
    env = _pull_request(tmp_path, fake, base, head)
    action(config_from_env(env), publisher_factory, pipeline_runner)
    verdict, trace = _verdict_and_trace(tmp_path)
    assert verdict["rubric"]["name"] != "Lenient" and verdict["settings"]["rubric"] == "bundled"
    assert "may not set it" in verdict["settings"]["sources"]["rubric"]
    assert not any("base" in error for error in verdict["errors"])  # a warning, not an error
    (warning,) = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::warning")]
    assert f"the base commit {base[:12]} is not in the checkout" in warning
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("> **Warning:** ") and "fetch-depth: 0" in summary
    assert [e["event"] for e in trace if e["stage"] == "config"] == ["source", "warning"]


def test_the_audit_command_reads_the_config_from_the_base_the_api_names(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    base, head = pull_repo(tmp_path / "workspace", BASE_FILES, PR_FILES)
    env = make_env(tmp_path, fake, "issue_comment")

    def command(event: dict[str, Any]) -> None:
        event["comment"]["body"] = "/courtroom audit"
        event["comment"]["user"]["login"] = "maintainer"

    _event(env, command)
    fake.pulls[2], fake.bases[2] = head, base
    audit = FakeAudit()
    run(env, audit)
    assert audit.requests[0].pull == PullBase(base)


@pytest.mark.parametrize(("event", "pull"), [("push", False), ("workflow_dispatch", True)])
def test_only_a_pull_requests_audit_reads_the_base(
    tmp_path: Path, fake: FakeGitHub, event: str, pull: bool
) -> None:
    base, head = pull_repo(tmp_path / "workspace", BASE_FILES, PR_FILES)
    fake.pulls[2], fake.bases[2] = head, base
    env = make_env(tmp_path, fake, event, **({"pr-number": "2"} if pull else {}))
    audit = FakeAudit()
    run(env, audit)
    assert audit.requests[0].pull == (PullBase(base) if pull else None)
