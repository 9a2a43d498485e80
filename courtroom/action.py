"""The GitHub Action: audit the checked-out workspace, keep the verdict, then publish it.

``main`` only gathers real dependencies; ``action`` does the work with whatever it is given
(a fake publisher and audit in tests). The order is fixed so nothing is ever lost: files
first, then the job summary and outputs, then GitHub writes, each of which may fail alone.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from courtroom.action_cache import opinion_keys, seed_cache
from courtroom.action_event import (
    ActionConfig,
    Subject,
    checkout_mismatch,
    config_from_env,
    resolve_pdf,
    resolve_subject,
)
from courtroom.action_runners import (
    AuditRequest,
    Outcome,
    RunAudit,
    pipeline_runner,
    replay_runner,
)
from courtroom.errors import (
    EXIT_CRITICAL,
    CourtroomError,
    PublishError,
)
from courtroom.github import Publisher, ReadOnlyTokenError
from courtroom.github_annotations import Annotation, escape_data, findings, workflow_commands
from courtroom.github_state import PreviousAudit, cache_seeds, decode_state
from courtroom.models import Verdict
from courtroom.render import render_check_run, render_comment, render_report, render_summary


class GitHubWriter(Protocol):
    """The publisher as the action uses it (``courtroom.github.Publisher`` fits)."""

    def pull_head_sha(self, number: int) -> str: ...
    def find_comment(self, number: int) -> Any: ...
    def upsert_comment(self, number: int, body: str) -> str: ...
    def publish_check_run(
        self,
        *,
        name: str,
        head_sha: str,
        conclusion: str,
        title: str,
        summary: str,
        text: str,
        annotations: list[Annotation],
    ) -> int: ...


PublisherFactory = Callable[[ActionConfig], GitHubWriter]


def _say(line: str) -> None:
    print(f"courtroom: {line}", file=sys.stderr)


def _append(path: Path | None, text: str) -> None:
    if path is not None:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)


def keep_files(verdict: Verdict, written: Mapping[str, Path], out_dir: Path) -> dict[str, Path]:
    """Make sure verdict.json and report.md exist on disk, whatever the audit wrote."""
    paths = dict(written)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not paths.get("verdict") or not paths["verdict"].is_file():
        paths["verdict"] = out_dir / "verdict.json"
        paths["verdict"].write_text(verdict.model_dump_json(indent=2), encoding="utf-8")
    if not paths.get("report") or not paths["report"].is_file():
        paths["report"] = out_dir / "report.md"
        paths["report"].write_text(render_report(verdict), encoding="utf-8")
    return paths


def _previous(config: ActionConfig, github: GitHubWriter, subject: Subject) -> PreviousAudit | None:
    if subject.pr_number is None or not config.comment:
        return None
    try:
        comment = github.find_comment(subject.pr_number)
    except PublishError as exc:  # reading the old comment is an optimisation only
        _say(f"could not read the previous comment ({exc}); auditing from scratch")
        return None
    return decode_state(getattr(comment, "body", "") or "") if comment is not None else None


def _publish(
    config: ActionConfig,
    github: GitHubWriter,
    subject: Subject,
    verdict: Verdict,
    previous: PreviousAudit | None,
    keys: Mapping[str, list[str]],
) -> None:
    notes = findings(verdict)
    try:
        if subject.pr_number is not None and config.comment:
            body = render_comment(verdict, previous=previous, cache_keys=keys)
            url = github.upsert_comment(subject.pr_number, body)
            _say(f"comment: {url}")
        title, summary, text = render_check_run(verdict)
        run_id = github.publish_check_run(
            name=config.check_name,
            head_sha=subject.head_sha,
            conclusion=verdict.conclusion,
            title=title,
            summary=summary,
            text=text,
            annotations=notes,
        )
        _say(
            f"check run {config.check_name!r} #{run_id} on {subject.head_sha[:12]}: "
            f"{verdict.conclusion}, {len(notes)} annotation(s)"
        )
    except ReadOnlyTokenError as exc:
        # A fork PR's token may not write: the runner turns these lines into annotations.
        _say(f"{exc}; falling back to workflow annotations and the job summary")
        for line in workflow_commands(notes):
            print(line)
        _append(
            config.summary_path,
            f"\n> GitHub refused a write ({exc}). The token is read-only here (a fork PR, "
            "or missing `pull-requests: write` / `checks: write`); this summary is the "
            "verdict.\n",
        )
    except PublishError as exc:
        print(
            f"::warning::Courtroom could not publish to GitHub: {exc}. "
            "The verdict is in the job summary and the report files."
        )


def action(config: ActionConfig, publisher_factory: PublisherFactory, run_audit: RunAudit) -> int:
    """Run one action: audit, keep the files, summarise, publish; returns the exit status."""
    github = publisher_factory(config)
    subject = resolve_subject(config, github)
    previous = _previous(config, github, subject)
    with tempfile.TemporaryDirectory(prefix="courtroom-cache-", dir=config.temp_dir) as tmp:
        cache_dir = Path(tmp)
        seeded = seed_cache(cache_dir, cache_seeds(previous))
        if seeded:
            _say(f"{len(seeded)} opinion(s) from the previous audit may be reused")
        return _audit_and_publish(config, github, subject, previous, run_audit, cache_dir)


def _audit_and_publish(
    config: ActionConfig,
    github: GitHubWriter,
    subject: Subject,
    previous: PreviousAudit | None,
    run_audit: RunAudit,
    cache_dir: Path,
) -> int:
    if not config.verdict:
        warning = checkout_mismatch(config.workspace, subject.head_sha)
        if warning:
            print(f"::warning::{escape_data(warning)}")
    request = AuditRequest(
        workspace=config.workspace,
        out_dir=config.out_dir,
        display_name=config.repository,
        commit=subject.head_sha,
        pdf=resolve_pdf(config),
        rubric=(config.workspace / config.rubric) if config.rubric else None,
        model=config.model,
        api_key=config.anthropic_api_key,
        fail_below=config.fail_below,
        cache_dir=cache_dir,
        seed_opinions=previous.opinions if previous else {},
    )
    outcome = run_audit(request)
    if outcome.verdict is None:
        return _critical(config, github, subject, outcome)
    verdict = outcome.verdict
    paths = keep_files(verdict, outcome.paths, config.out_dir)
    _append(config.summary_path, render_summary(verdict))
    _outputs(config, f"{verdict.overall_score:.2f}", verdict.conclusion, paths.get("report"))
    _publish(config, github, subject, verdict, previous, opinion_keys(cache_dir))
    return outcome.exit_code


def _outputs(config: ActionConfig, score: str, conclusion: str, report: Path | None) -> None:
    shown = ""
    if report is not None:
        inside = report.is_relative_to(config.workspace)
        shown = (report.relative_to(config.workspace) if inside else report).as_posix()
    lines = f"score={score}\nconclusion={conclusion}\nreport-path={shown}\n"
    _append(config.output_path, lines)


def _critical(
    config: ActionConfig, github: GitHubWriter, subject: Subject, outcome: Outcome
) -> int:
    """No verdict: say so everywhere we can, and fail the check so nobody merges blind."""
    error = str(getattr(outcome, "error", None) or "the audit could not complete")
    _append(
        config.summary_path,
        f"# Courtroom audit did not complete\n\n{error}\n\n"
        "The partial state and the trace are in the report folder.\n",
    )
    _outputs(config, "", "failure", outcome.paths.get("verdict"))
    try:
        github.publish_check_run(
            name=config.check_name,
            head_sha=subject.head_sha,
            conclusion="failure",
            title="The audit could not complete",
            summary=error[:60000],
            text="",
            annotations=[],
        )
    except PublishError as exc:
        _say(f"could not publish the failure check run: {exc}")
    return outcome.exit_code


def publisher_from_config(config: ActionConfig) -> Publisher:
    """The real publisher for the configured repository and API."""
    return Publisher(config.token, config.api_url, config.repository)


def main(env: Mapping[str, str] | None = None) -> int:
    """Entry point of the Docker action; the only place that catches broadly."""
    try:
        config = config_from_env(os.environ if env is None else env)
        runner = replay_runner(config.workspace / config.verdict) if config.verdict else None
        return action(config, publisher_from_config, runner or pipeline_runner)
    except CourtroomError as exc:
        print(f"::error::{escape_data(f'courtroom: {exc}')}")
        return exc.exit_code
    except Exception as exc:  # last line of defence: one line, no traceback
        print(f"::error::{escape_data(f'courtroom: unexpected {type(exc).__name__}: {exc}')}")
        return EXIT_CRITICAL
