"""What the GitHub Action was asked to do: inputs, event payload and the commit to judge.

Inputs arrive as ``INPUT_<NAME>`` with hyphens kept (``INPUT_GITHUB-TOKEN``), so they are
read from the environment mapping, never from shell variables. Nothing here talks to
GitHub except ``resolve_commit`` for ``workflow_dispatch``, which must ask for the PR head.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from courtroom.detectives.workspace import run_git
from courtroom.errors import ConfigError, PublishError

REPORT_DIR = "courtroom-report"
TRUE = {"true", "yes", "1", "on"}
FALSE = {"false", "no", "0", "off", ""}


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
    model: str | None = None
    rubric: str | None = None
    pdf: str | None = None
    fail_below: float | None = None
    pr_number: int | None = None
    check_name: str = "courtroom"
    comment: bool = True
    github_sha: str | None = None
    output_path: Path | None = None
    summary_path: Path | None = None
    temp_dir: Path | None = None
    #: Publish this verdict.json instead of auditing (the workflow_run half of fork PRs).
    verdict: str | None = None

    @property
    def out_dir(self) -> Path:
        """Where verdict.json, report.md and the trace are left for upload-artifact."""
        return self.workspace / REPORT_DIR


@dataclass(frozen=True)
class Subject:
    """The commit to audit and publish on, and the PR to comment on (None for push)."""

    head_sha: str
    pr_number: int | None


class PullLookup(Protocol):
    """The one API read the event resolution needs."""

    def pull_head_sha(self, number: int) -> str:
        """Head sha of a pull request."""
        ...


def _input(env: Mapping[str, str], name: str, default: str = "") -> str:
    return env.get(f"INPUT_{name.upper()}", default).strip() or default


def _number(raw: str, name: str, kind: type[int] | type[float]) -> Any:
    if not raw:
        return None
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"input {name} must be a number, got {raw!r}") from None


def config_from_env(env: Mapping[str, str]) -> ActionConfig:
    """Build the configuration from the runner's environment; ConfigError when unusable."""
    token = _input(env, "github-token") or env.get("GITHUB_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "input github-token is empty: pass `github-token: ${{ secrets.GITHUB_TOKEN }}`"
        )
    repository = env.get("GITHUB_REPOSITORY", "").strip()
    if repository.count("/") != 1:
        raise ConfigError(f"GITHUB_REPOSITORY must be owner/name, got {repository!r}")
    event_path = env.get("GITHUB_EVENT_PATH", "")
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8")) if event_path else {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the event payload {event_path}: {exc}") from exc
    comment = _input(env, "comment", "true").lower()
    if comment not in TRUE | FALSE:
        raise ConfigError(f"input comment must be true or false, got {comment!r}")
    fail_below = _number(_input(env, "fail-below"), "fail-below", float)
    if fail_below is not None and not 0 <= fail_below <= 5:
        raise ConfigError(f"input fail-below must be between 0 and 5, got {fail_below}")
    pr_raw = _input(env, "pr-number") or str((event.get("inputs") or {}).get("pr-number") or "")
    return ActionConfig(
        token=token,
        repository=repository,
        workspace=Path(env.get("GITHUB_WORKSPACE") or ".").resolve(),
        api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        event_name=env.get("GITHUB_EVENT_NAME", ""),
        event=event if isinstance(event, dict) else {},
        anthropic_api_key=_input(env, "anthropic-api-key") or None,
        model=_input(env, "model") or None,
        rubric=_input(env, "rubric") or None,
        pdf=_input(env, "pdf") or None,
        fail_below=fail_below,
        pr_number=_number(pr_raw, "pr-number", int),
        check_name=_input(env, "check-name", "courtroom"),
        comment=comment in TRUE,
        github_sha=env.get("GITHUB_SHA") or None,
        output_path=Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None,
        summary_path=Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None,
        temp_dir=Path(env["RUNNER_TEMP"]) if env.get("RUNNER_TEMP") else None,
        verdict=_input(env, "verdict") or None,
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
        return Subject(str(sha), int(number))
    if config.pr_number is not None:
        try:
            return Subject(github.pull_head_sha(config.pr_number), config.pr_number)
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


def resolve_pdf(config: ActionConfig) -> Path | None:
    """The PDF input as a path in the workspace; a glob picks its first match."""
    if not config.pdf:
        return None
    if any(ch in config.pdf for ch in "*?["):
        matches = sorted(p for p in config.workspace.glob(config.pdf) if p.is_file())
        return matches[0] if matches else config.workspace / config.pdf
    path = Path(config.pdf)
    return path if path.is_absolute() else config.workspace / path


def checkout_mismatch(workspace: Path, head_sha: str) -> str | None:
    """A warning when the checkout is not the commit the results will be posted on.

    ``actions/checkout`` checks out the PR's merge commit by default; the verdict would then
    describe a tree nobody pushed. Not fatal: the workflow may have its reasons.
    """
    actual = (run_git(workspace, "rev-parse", "HEAD", timeout=10) or "").strip()
    if not actual or actual == head_sha:
        return None
    return (
        f"the workspace is at {actual[:12]}, not the PR head {head_sha[:12]}: check out "
        "`ref: ${{ github.event.pull_request.head.sha }}` to audit what was pushed"
    )
