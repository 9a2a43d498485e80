"""What the GitHub Action was asked to do: inputs, event payload and the commit to judge.

Inputs arrive as ``INPUT_<NAME>`` with hyphens kept (``INPUT_GITHUB-TOKEN``), so they are
read from the environment mapping, never from shell variables. Nothing here talks to
GitHub except ``resolve_commit`` for ``workflow_dispatch``, which must ask for the PR head.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from courtroom.errors import ConfigError, PublishError
from courtroom.publish.github.inputs import WHOLE, read, setting_inputs, switch
from courtroom.publish.protocol import PullCommits

REPORT_DIR = "courtroom-report"


@dataclass(frozen=True)
class ActionConfig:
    """Inputs and runner environment of one action run. ``repr`` never shows secrets."""

    token: str = field(repr=False)
    repository: str
    workspace: Path
    api_url: str
    event_name: str
    event: dict[str, Any]
    anthropic_api_key: str | None = field(default=None, repr=False)
    #: AuditConfig fields the inputs set (courtroom.settings.schema); unset ones absent.
    #: ``rubric_path`` and ``pdf`` are the inputs' text, resolved in the checkout later.
    settings: dict[str, Any] = field(default_factory=dict)
    pr_number: int | None = None
    check_name: str = "courtroom"
    comment: bool = True
    github_sha: str | None = None
    output_path: Path | None = None
    summary_path: Path | None = None
    temp_dir: Path | None = None
    #: Publish this verdict.json instead of auditing (the workflow_run half of fork PRs).
    verdict: str | None = None
    #: COURTROOM_SIGNING_KEY: a verdict to publish must carry a valid HMAC under it.
    signing_key: bytes | None = field(default=None, repr=False)

    @property
    def out_dir(self) -> Path:
        """Where verdict.json, report.md and the trace are left for upload-artifact."""
        return self.workspace / REPORT_DIR


@dataclass(frozen=True)
class Subject:
    """The commit to audit and publish on, and the PR to comment on (None for push).

    ``base_sha`` is the pull request's base commit, where its repository config is read
    from (None when the run is not about a pull request, or nothing said which it is).
    """

    head_sha: str
    pr_number: int | None
    base_sha: str | None = None


class PullLookup(Protocol):
    """The one API read the event resolution needs."""

    def pull_commits(self, number: int) -> PullCommits:
        """Head and base commits of a pull request."""
        ...


def _event(env: Mapping[str, str]) -> dict[str, Any]:
    event_path = env.get("GITHUB_EVENT_PATH", "")
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8")) if event_path else {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the event payload {event_path}: {exc}") from exc
    if not isinstance(event, dict):
        kind = type(event).__name__
        raise ConfigError(f"the event payload {event_path} is a JSON {kind}, not an object")
    return event


def temp_root(raw: str | None) -> Path | None:
    """RUNNER_TEMP when it is a writable folder here, else None (the default temp folder).

    Runners before v2.331.0 (GHES, self-hosted) pass the host's RUNNER_TEMP to a Docker
    action without mounting it, so the path may not exist inside the container.
    """
    if not raw:
        return None
    path = Path(raw)
    if path.is_dir() and os.access(path, os.W_OK | os.X_OK):
        return path
    print(f"courtroom: RUNNER_TEMP {raw} is not a writable folder here; using the default "
          "temporary folder", file=sys.stderr)
    return None


def config_from_env(env: Mapping[str, str]) -> ActionConfig:
    """Build the configuration from the runner's environment; ConfigError when unusable."""
    token = read(env, "github-token") or env.get("GITHUB_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "input github-token is empty: pass `github-token: ${{ secrets.GITHUB_TOKEN }}`"
        )
    repository = env.get("GITHUB_REPOSITORY", "").strip()
    if repository.count("/") != 1:
        raise ConfigError(f"GITHUB_REPOSITORY must be owner/name, got {repository!r}")
    event = _event(env)
    settings = setting_inputs(env)
    key = env.get("COURTROOM_SIGNING_KEY", "")
    pr_raw = read(env, "pr-number") or str((event.get("inputs") or {}).get("pr-number") or "")
    return ActionConfig(
        token=token,
        repository=repository,
        workspace=Path(env.get("GITHUB_WORKSPACE") or ".").resolve(),
        api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        event_name=env.get("GITHUB_EVENT_NAME", ""),
        event=event,
        anthropic_api_key=read(env, "anthropic-api-key") or None,
        settings=settings,
        pr_number=WHOLE.from_input(pr_raw, "pr-number"),
        check_name=read(env, "check-name", "courtroom"),
        comment=switch(env, "comment", default=True),
        github_sha=env.get("GITHUB_SHA") or None,
        output_path=Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None,
        summary_path=Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None,
        temp_dir=temp_root(env.get("RUNNER_TEMP")),
        verdict=read(env, "verdict") or None,
        signing_key=key.encode("utf-8") if key else None,
    )


def resolve_subject(config: ActionConfig, github: PullLookup) -> Subject:
    """The commit to judge: the PR head for PR events, the pushed commit for push."""
    event = config.event
    if config.event_name in ("pull_request", "pull_request_target"):
        pull = event.get("pull_request") or {}
        sha = (pull.get("head") or {}).get("sha")
        if not sha:
            raise ConfigError("the pull_request payload has no pull_request.head.sha")
        number = pull.get("number") or event.get("number")
        if number is None:
            raise ConfigError("the pull_request payload has no pull request number")
        base = (pull.get("base") or {}).get("sha")
        return Subject(str(sha), int(number), str(base) if base else None)
    if config.pr_number is not None:
        try:
            commits = github.pull_commits(config.pr_number)
            return Subject(commits.head, config.pr_number, commits.base)
        except PublishError as exc:
            raise ConfigError(f"cannot read pull request #{config.pr_number}: {exc}") from exc
    sha = None
    if config.event_name == "push":
        sha = event.get("after")
    elif config.event_name == "workflow_run":
        sha = (event.get("workflow_run") or {}).get("head_sha")
    sha = sha or config.github_sha
    if not sha:
        raise ConfigError(f"cannot tell which commit to audit for event {config.event_name!r}")
    return Subject(str(sha), None)
