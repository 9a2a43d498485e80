"""Slash commands in pull request comments: ``/courtroom audit`` and ``/courtroom help``.

On an ``issue_comment`` event the action acts only on a new comment on a pull request whose
first line is ``/courtroom ...``, written by a person (never a bot: our own replies must
not trigger us). Who may ask for a re-audit is checked through the API
(``GET /repos/{owner}/{repo}/collaborators/{username}/permission``): the payload's
``author_association`` says how someone is related to the repository, not what they may
do. Everyone else gets one polite line. Comments on plain issues are ignored.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any, Protocol

from courtroom.errors import ConfigError, PublishError
from courtroom.publish.github.checkout import checkout_mismatch
from courtroom.publish.github.event import ActionConfig, Subject
from courtroom.publish.protocol import PullCommits

WRITE_ACCESS = frozenset({"admin", "maintain", "write"})
_COMMAND = re.compile(r"/courtroom(?:[ \t]+(?P<word>\S+))?[ \t]*", re.IGNORECASE)
HELP = (
    "**Courtroom commands** (for people with write access to this repository)\n\n"
    "- `/courtroom audit`: audit this pull request's head commit again; the verdict comment "
    "and the check run are updated in place.\n"
    "- `/courtroom help`: this list.\n"
)
NOT_ALLOWED = (
    "Thanks for asking. Only people with write access to this repository can run Courtroom "
    "commands; a maintainer can run `/courtroom audit` for you."
)


@dataclass(frozen=True)
class Command:
    """A slash command addressed to Courtroom in a pull request comment."""

    word: str
    number: int
    author: str


class CommandHost(Protocol):
    """The API calls a slash command needs (``courtroom.publish.github.client.Publisher`` fits)."""

    def permission(self, login: str) -> str: ...
    def reply(self, number: int, body: str) -> str: ...
    def pull_commits(self, number: int) -> PullCommits: ...


def _say(line: str) -> None:
    print(f"courtroom: {line}", file=sys.stderr)


def parse_command(event: dict[str, Any]) -> Command | None:
    """The command in an ``issue_comment`` payload; None when it is not one for us."""
    issue, comment = event.get("issue"), event.get("comment")
    if event.get("action") != "created" or not isinstance(issue, dict):
        return None
    if not isinstance(comment, dict) or not issue.get("pull_request"):
        return None  # a comment on a plain issue: nothing to audit
    found = comment.get("user")
    user: dict[str, Any] = found if isinstance(found, dict) else {}
    login = str(user.get("login") or "")
    if not login or user.get("type") == "Bot" or login.endswith("[bot]"):
        return None
    lines = str(comment.get("body") or "").strip().splitlines()
    match = _COMMAND.fullmatch(lines[0].strip()) if lines else None
    number = issue.get("number")
    if match is None or not isinstance(number, int) or isinstance(number, bool):
        return None
    return Command((match.group("word") or "help").lower(), number, login)


def _allowed(host: CommandHost, command: Command) -> bool:
    try:
        level = host.permission(command.author)
    except PublishError as exc:
        _say(f"cannot check {command.author}'s permission ({exc}); treated as no access")
        return False
    return level in WRITE_ACCESS


def _answer(host: CommandHost, number: int, body: str) -> None:
    try:
        host.reply(number, body)
    except PublishError as exc:
        _say(f"could not reply on #{number}: {exc}")


def command_subject(config: ActionConfig, host: CommandHost) -> Subject | None:
    """The PR head to re-audit for ``/courtroom audit``; None once the comment is answered."""
    command = parse_command(config.event)
    if command is None:
        _say("the comment is not a /courtroom command on a pull request; nothing to do")
        return None
    if not _allowed(host, command):
        _say(f"{command.author} may not run commands here; answered politely")
        _answer(host, command.number, NOT_ALLOWED)
        return None
    if command.word != "audit":
        shown = re.sub(r"[^a-z0-9_-]", "", command.word)[:40]  # nothing from it can act
        unknown = "" if command.word == "help" else f"Unknown command `{shown}`.\n\n"
        _answer(host, command.number, unknown + HELP)
        return None
    try:
        commits = host.pull_commits(command.number)
    except PublishError as exc:
        raise ConfigError(f"cannot read pull request #{command.number}: {exc}") from exc
    head = commits.head
    if checkout_mismatch(config.workspace, head):
        raise ConfigError(
            f"/courtroom audit: the workspace is not the head of pull request "
            f"#{command.number} ({head[:12]}); check it out first with actions/checkout "
            "`ref: refs/pull/${{ github.event.issue.number }}/head`"
        )
    _say(f"/courtroom audit from {command.author}: re-auditing #{command.number} at {head[:12]}")
    return Subject(head, command.number, commits.base)
