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

from courtroom.judgment import recompute
from courtroom.models import Verdict
from courtroom.publish.github.action import action
from courtroom.publish.github.event import config_from_env
from courtroom.publish.github.runners import pipeline_runner
from courtroom.settings.base_commit import UNKNOWN_SETTINGS, PullBase
from courtroom.settings.config_file import TREE_FILE

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


def _shallow(tmp_path: Path, fake: FakeGitHub, base_files: dict[str, Any],
             pr_files: dict[str, Any], event: str = "pull_request") -> tuple[str, dict[str, str]]:
    """A pull request checked out at depth 1 (actions/checkout's default): no base commit.

    The same pull request (#2) on every event: the payload's, the command's, the input's.
    """
    base, head = pull_repo(tmp_path / "origin", base_files, pr_files)
    subprocess.run(["git", "clone", "-q", "--depth", "1", (tmp_path / "origin").as_uri(),
                    str(tmp_path / "workspace")], check=True, capture_output=True)
    if event == "pull_request":
        return base, _pull_request(tmp_path, fake, base, head)
    fake.pulls[2], fake.bases[2] = head, base
    env = make_env(tmp_path, fake, event, **({"pr-number": "2"} if event != "issue_comment"
                                            else {}))
    if event == "issue_comment":
        def command(payload: dict[str, Any]) -> None:
            payload["comment"]["body"] = "/courtroom audit"
            payload["comment"]["user"]["login"] = "maintainer"

        _event(env, command)
    return base, env


def test_a_shallow_checkout_warns_and_the_pr_cannot_pick_its_rubric(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    base, env = _shallow(tmp_path, fake, BASE_FILES, PR_FILES)
    fake.files[2] = [{"filename": TREE_FILE}, {"filename": "lenient.json", "status": "added"},
                     {"filename": "strict.json"}]
    action(config_from_env(env), publisher_factory, pipeline_runner)
    verdict, trace = _verdict_and_trace(tmp_path)
    assert verdict["rubric"]["name"] != "Lenient" and verdict["settings"]["rubric"] == "bundled"
    assert "may not set it" in verdict["settings"]["sources"]["rubric"]
    (warning,) = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::warning")]
    assert f"the base commit {base[:12]} is not in the checkout" in warning
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("> **Warning:** ") and "fetch-depth: 0" in summary
    assert [e["event"] for e in trace if e["stage"] == "config"] == ["source", "warning"]


#: The reviewer's reproduction: the base sets a gate, the PR's file simply leaves it out.
GATED = {TREE_FILE: "fail-below: 4.5\ngate: {graph_orchestration: 4}\n", "app.py": "x = 1\n"}
UNGATED = {TREE_FILE: "max-concurrency: 2\n"}
#: The same gate, with a rubric of the repository's own.
GATED_RUBRIC = {**BASE_FILES, **GATED, TREE_FILE: GATED[TREE_FILE] + "rubric: strict.json\n"}


@pytest.mark.parametrize("event", ["pull_request", "issue_comment", "workflow_dispatch"])
def test_without_the_base_a_pr_that_drops_the_gate_fails_closed(
    tmp_path: Path, fake: FakeGitHub, event: str
) -> None:
    base, env = _shallow(tmp_path, fake, GATED, UNGATED, event)
    fake.files[2] = [{"filename": TREE_FILE}]
    assert action(config_from_env(env), publisher_factory, pipeline_runner) == 1
    verdict, _trace = _verdict_and_trace(tmp_path)
    line = (f"{UNKNOWN_SETTINGS}: the base commit {base[:12]} is not in the checkout, and the "
            f"pull request changes {TREE_FILE}; fetch the base commit (actions/checkout "
            "`fetch-depth: 0`) to read them")
    assert verdict["conclusion"] == "failure" and line in verdict["errors"]
    assert verdict["settings"]["fail_closed"] == [line]
    assert recompute(Verdict.model_validate(verdict)) == []  # `courtroom verify` agrees
    (run,) = fake.check_runs.values()
    assert run["conclusion"] == "failure" and "could not be read from its base" in str(run)
    assert (tmp_path / "workspace" / "courtroom-report" / "report.md").is_file()


def test_without_the_base_a_pr_that_leaves_the_config_alone_gets_all_of_it(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    base, env = _shallow(tmp_path, fake, GATED_RUBRIC, {"app.py": "x = 2\n"})
    fake.files[2] = [{"filename": "app.py"}]
    action(config_from_env(env), publisher_factory, pipeline_runner)
    verdict, _trace = _verdict_and_trace(tmp_path)
    settings = verdict["settings"]
    assert settings["fail_below"] == 4.5 and settings["gate"] == {"graph_orchestration": 4}
    assert verdict["rubric"]["name"] == "Strict" and "fail_closed" not in settings
    assert settings["sources"]["config"] == (
        f"{TREE_FILE} of the checkout, unchanged by the pull request (the base commit "
        f"{base[:12]} is not in the checkout)")
    assert not any(e.startswith(UNKNOWN_SETTINGS) for e in verdict["errors"])
    assert "::warning::" not in capsys.readouterr().out


@pytest.mark.parametrize("changes", [
    [{"filename": "strict.json"}],  # the rubric the base's file names, edited in place
    [{"filename": "old.yml", "status": "renamed", "previous_filename": TREE_FILE}],
    [{"filename": TREE_FILE, "status": "removed"}],
])
def test_without_the_base_a_pr_that_touches_config_or_rubric_fails_closed(
    tmp_path: Path, fake: FakeGitHub, changes: list[dict[str, str]]
) -> None:
    _base, env = _shallow(tmp_path, fake, GATED_RUBRIC, {"app.py": "x = 2\n"})
    fake.files[2] = changes
    action(config_from_env(env), publisher_factory, pipeline_runner)
    verdict, _trace = _verdict_and_trace(tmp_path)
    assert verdict["conclusion"] == "failure"
    assert any(e.startswith(UNKNOWN_SETTINGS) for e in verdict["errors"])


@pytest.mark.parametrize(("listing", "why"), [
    ("refused", "the files it changes cannot be listed (list files of pull #2 failed: HTTP 404"),
    ("capped", "GitHub listed 3000 of the 3001 files pull #2 changes"),
])
def test_without_the_base_a_file_list_not_read_in_full_fails_closed(
    tmp_path: Path, fake: FakeGitHub, listing: str, why: str
) -> None:
    _base, env = _shallow(tmp_path, fake, GATED, {"app.py": "x = 2\n"})
    if listing == "refused":
        fake.fail("GET", r"/pulls/2/files$", 404, message="Not Found")
    else:  # a pull request past GitHub's cap: the list stops at 3,000 files
        fake.files[2] = [{"filename": f"gen/{n}.txt", "status": "added"} for n in range(3001)]
    action(config_from_env(env), publisher_factory, pipeline_runner)
    verdict, _trace = _verdict_and_trace(tmp_path)
    assert verdict["conclusion"] == "failure"
    (line,) = verdict["settings"]["fail_closed"]
    assert why in line and line in verdict["errors"]


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
