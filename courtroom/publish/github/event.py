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

from courtroom.detectives.repo.workspace import run_git
from courtroom.errors import ConfigError, PublishError
from courtroom.models import CONCURRENCY_RANGE, PROVIDERS
from courtroom.publish.github.inputs import number, positive, read, switch
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
    #: COURTROOM_SIGNING_KEY: a verdict to publish must carry a valid HMAC under it.
    signing_key: bytes | None = field(default=None, repr=False)
    provider: str = "anthropic"
    max_cost_usd: float | None = None
    max_concurrency: int | None = None
    judge_timeout: float | None = None
    clone_timeout: float | None = None
    #: The provider's cloud region (aws-region for bedrock, vertex-region for vertex).
    region: str | None = None
    project_id: str | None = None
    #: fail-on-uncovered: None when the input is empty (the config file may still set it).
    fail_on_uncovered: bool | None = None

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


def _audit_settings(env: Mapping[str, str]) -> dict[str, Any]:
    provider = read(env, "provider", "anthropic").lower()
    if provider not in PROVIDERS:
        raise ConfigError(f"input provider must be one of {', '.join(PROVIDERS)}, got {provider!r}")
    concurrency = number(read(env, "max-concurrency"), "max-concurrency", int)
    low, high = CONCURRENCY_RANGE
    if concurrency is not None and not low <= concurrency <= high:
        raise ConfigError(f"input max-concurrency must be between {low} and {high}, "
                          f"got {concurrency}")
    key = env.get("COURTROOM_SIGNING_KEY", "")
    # Each provider reads its own region input; the other provider's is not its business.
    regions = {"bedrock": read(env, "aws-region"), "vertex": read(env, "vertex-region")}
    return {
        "provider": provider,
        "region": regions.get(provider) or None,
        "project_id": (read(env, "vertex-project") or None) if provider == "vertex" else None,
        "max_cost_usd": positive(env, "max-cost", float),
        "max_concurrency": concurrency,
        "judge_timeout": positive(env, "judge-timeout", float),
        "fail_on_uncovered": switch(env, "fail-on-uncovered", default=None),
        "clone_timeout": positive(env, "clone-timeout", float),
        "signing_key": key.encode("utf-8") if key else None,
    }


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
    fail_below = number(read(env, "fail-below"), "fail-below", float)
    if fail_below is not None and not 0 <= fail_below <= 5:
        raise ConfigError(f"input fail-below must be between 0 and 5, got {fail_below}")
    pr_raw = read(env, "pr-number") or str((event.get("inputs") or {}).get("pr-number") or "")
    return ActionConfig(
        token=token,
        repository=repository,
        workspace=Path(env.get("GITHUB_WORKSPACE") or ".").resolve(),
        api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        event_name=env.get("GITHUB_EVENT_NAME", ""),
        event=event,
        anthropic_api_key=read(env, "anthropic-api-key") or None,
        model=read(env, "model") or None,
        rubric=read(env, "rubric") or None,
        pdf=read(env, "pdf") or None,
        fail_below=fail_below,
        pr_number=number(pr_raw, "pr-number", int),
        check_name=read(env, "check-name", "courtroom"),
        comment=switch(env, "comment", default=True),
        github_sha=env.get("GITHUB_SHA") or None,
        output_path=Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None,
        summary_path=Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None,
        temp_dir=temp_root(env.get("RUNNER_TEMP")),
        verdict=read(env, "verdict") or None,
        **_audit_settings(env),
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


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` lies in ``root`` through real folders: no link, no ``..``, no escape.

    A committed symlink is the PR author's to aim, at any file on the runner.
    """
    try:
        relative = path.relative_to(root)
    except ValueError:
        return False
    if ".." in relative.parts:
        return False
    step = root
    for part in relative.parts:
        step = step / part
        if step.is_symlink():
            return False
    return path.resolve().is_relative_to(root.resolve())


def resolve_pdf(config: ActionConfig) -> tuple[Path | None, str | None]:
    """The PDF input as a file in the workspace, and why a match was refused (if one was).

    A glob picks its first safe match. With no match at all, the literal path is kept so
    the audit reports the PDF as not found; a match that is a link or lies outside the
    workspace is never read.
    """
    if not config.pdf:
        return None, None
    root = config.workspace
    if Path(config.pdf).is_absolute():
        candidates = [Path(config.pdf)]
    elif any(ch in config.pdf for ch in "*?["):
        candidates = sorted(root.glob(config.pdf))
    else:
        candidates = [root / config.pdf]
    safe = [p for p in candidates if inside(root, p) and p.is_file()]
    if safe:
        return safe[0], None
    refused = [p for p in candidates if not inside(root, p)]
    if not refused:
        return root / config.pdf, None
    shown = refused[0].relative_to(root) if refused[0].is_relative_to(root) else refused[0]
    why = (
        f"input pdf: {shown.as_posix()} is a symbolic link or lies outside the workspace; "
        "Courtroom reads only files inside the checkout, so no PDF is audited"
    )
    return None, why


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
