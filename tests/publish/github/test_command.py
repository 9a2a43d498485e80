"""`/courtroom audit` and `/courtroom help` on pull request comments (issue_comment events)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from action_support import HEAD, FakeAudit, fake_github, make_env, run
from fakes.github_server import PAYLOADS, FakeGitHub

from courtroom.publish.github.action import main
from courtroom.publish.github.command import HELP, NOT_ALLOWED, parse_command
from courtroom.render.state import COMMENT_MARKER


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    server = fake_github()
    github = next(server)
    github.permissions.update({"maintainer": "write", "owner": "admin", "mallory": "read"})
    yield github
    next(server, None)


def comment_event(body: str, login: str = "maintainer", *, on_pull: bool = True) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((PAYLOADS / "issue_comment.created.json").read_text())
    event["comment"]["body"] = body
    event["comment"]["user"]["login"] = login
    event["sender"]["login"] = login
    if not on_pull:
        del event["issue"]["pull_request"]
    return event


def command_env(tmp_path: Path, fake: FakeGitHub, event: dict[str, Any]) -> dict[str, str]:
    env = make_env(tmp_path, fake, "issue_comment")
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
    return env


def replies(fake: FakeGitHub) -> list[str]:
    return [c["body"] for c in fake.comments.values() if not c["body"].startswith(COMMENT_MARKER)]


def test_audit_command_reaudits_the_pr_head_and_updates_the_same_comment_and_check(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = command_env(tmp_path, fake, comment_event("/courtroom audit"))
    first, again = FakeAudit(), FakeAudit()
    assert run(env, first) == 1
    assert run(env, again) == 1
    assert first.requests[0].commit == HEAD and again.reused == 14 and again.asked == 0
    (sticky,) = [c for c in fake.comments.values() if c["body"].startswith(COMMENT_MARKER)]
    assert sticky["issue"] == 2 and len(fake.writes("POST", "/comments")) == 1
    assert {r["head_sha"] for r in fake.check_runs.values()} == {HEAD}
    asked = [r["path"] for r in fake.requests if "/permission" in r["path"]]
    assert asked and all(p.endswith("/collaborators/maintainer/permission") for p in asked)
    assert replies(fake) == []


def test_help_answers_with_the_commands(tmp_path: Path, fake: FakeGitHub) -> None:
    audit = FakeAudit()
    assert run(command_env(tmp_path, fake, comment_event("/courtroom help", "owner")), audit) == 0
    assert replies(fake) == [HELP] and not audit.requests and not fake.check_runs


def test_an_unknown_command_gets_the_help_and_nothing_from_it_acts(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    event = comment_event("/courtroom @org/team[x](https://e.example)")
    run(command_env(tmp_path, fake, event), FakeAudit())
    (answer,) = replies(fake)
    assert answer.startswith("Unknown command `orgteamxhttpse") and answer.endswith(HELP)
    assert "@" not in answer.split("\n")[0] and "](" not in answer


def test_someone_without_write_access_gets_one_polite_line(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    audit = FakeAudit()
    env = command_env(tmp_path, fake, comment_event("/courtroom audit", "mallory"))
    assert run(env, audit) == 0
    assert replies(fake) == [NOT_ALLOWED] and "\n" not in NOT_ALLOWED
    assert not audit.requests and not fake.check_runs


def test_the_association_in_the_payload_is_not_trusted(tmp_path: Path, fake: FakeGitHub) -> None:
    event = comment_event("/courtroom audit", "mallory")
    event["comment"]["author_association"] = "OWNER"  # what the payload claims
    audit = FakeAudit()
    run(command_env(tmp_path, fake, event), audit)
    assert not audit.requests and replies(fake) == [NOT_ALLOWED]


def test_a_permission_check_that_fails_grants_nothing(tmp_path: Path, fake: FakeGitHub) -> None:
    fake.fail("GET", r"/permission$", 502, times=99)
    audit = FakeAudit()
    run(command_env(tmp_path, fake, comment_event("/courtroom audit")), audit)
    assert not audit.requests and not fake.check_runs


@pytest.mark.parametrize(
    "event",
    [
        comment_event("/courtroom audit", on_pull=False),  # a plain issue
        comment_event("Looks good. /courtroom audit"),  # not a command line
        comment_event("/courtroomaudit"),
        comment_event("/courtroom audit", "github-actions[bot]"),  # a bot, ourselves included
        {**comment_event("/courtroom audit"), "action": "edited"},
        {"action": "created", "issue": [], "comment": "x"},
    ],
)
def test_other_comments_are_left_alone(
    tmp_path: Path, fake: FakeGitHub, event: dict[str, Any]
) -> None:
    audit = FakeAudit()
    assert run(command_env(tmp_path, fake, event), audit) == 0
    assert not audit.requests and not fake.writes()
    assert not [r for r in fake.requests if r["path"].startswith("/repos/")]


def test_commands_are_read_from_the_first_line_only() -> None:
    assert parse_command(comment_event("  /COURTROOM Audit  \nthanks")) is not None
    command = parse_command(comment_event("/courtroom"))
    assert command is not None and command.word == "help" and command.number == 2
    assert parse_command(comment_event("thanks\n/courtroom audit")) is None


def test_audit_refuses_a_checkout_that_is_not_the_pr_head(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    from builders import make_repo

    env = command_env(tmp_path, fake, comment_event("/courtroom audit"))
    make_repo(Path(env["GITHUB_WORKSPACE"]), files={"a.py": "x = 1\n"})  # the default branch
    assert main(env) == 2
    out = capsys.readouterr().out
    assert "refs/pull/${{ github.event.issue.number }}/head" in out
    assert not fake.check_runs
