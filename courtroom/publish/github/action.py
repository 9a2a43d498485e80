"""The GitHub Action: audit the checked-out workspace, keep the verdict, then publish it.

``main`` only gathers real dependencies; ``action`` does the work with whatever it is given
(a fake publisher and audit in tests). The order is fixed so nothing is ever lost: files
first, then the job summary and outputs, then GitHub writes. Each of those is attempted on
its own: a comment GitHub refuses never stops the check run, which is the merge gate.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from courtroom.errors import (
    EXIT_CRITICAL,
    EXIT_OK,
    ConfigError,
    CourtroomError,
    PublishError,
    UsageError,
)
from courtroom.models import Verdict
from courtroom.publish.github.annotations import escape_data, plain
from courtroom.publish.github.checkout import checkout_mismatch, inside, resolve_pdf
from courtroom.publish.github.client import Publisher
from courtroom.publish.github.command import command_subject
from courtroom.publish.github.event import (
    ActionConfig,
    Subject,
    config_from_env,
    resolve_subject,
)
from courtroom.publish.github.publish import (
    append,
    hand_back,
    keep_files,
    publish,
    say,
)
from courtroom.publish.github.reuse import opinion_keys, seed_cache
from courtroom.publish.github.runners import (
    AuditRequest,
    Outcome,
    RunAudit,
    pipeline_runner,
    replay_runner,
)
from courtroom.publish.protocol import PublishTarget
from courtroom.render.files import check_folder
from courtroom.render.markdown import render_summary
from courtroom.render.state import PreviousAudit, cache_seeds, trusted_state
from courtroom.render.text import neutralise
from courtroom.resources import named_rubric
from courtroom.settings.base_commit import PullBase, fallback_warning, list_changes, locate_base
from courtroom.untrusted import inert_output

PublisherFactory = Callable[[ActionConfig], PublishTarget]


@dataclass
class Failed:
    """An audit that raised instead of returning: no verdict, and whatever it left."""

    exit_code: int
    error: str
    paths: dict[str, Path] = field(default_factory=dict)
    verdict: Verdict | None = None


def _previous(
    config: ActionConfig, github: PublishTarget, subject: Subject
) -> PreviousAudit | None:
    if subject.pr_number is None or not config.comment:
        return None
    try:
        body = github.previous_body(subject.pr_number)
    except PublishError as exc:  # reading the old comment is an optimisation only
        say(f"could not read the previous comment ({exc}); auditing from scratch")
        return None
    if body is None:
        return None
    return trusted_state(body, config.signing_key)


@contextmanager
def _cache_dir(config: ActionConfig) -> Iterator[Path]:
    try:
        holder = tempfile.TemporaryDirectory(prefix="courtroom-cache-", dir=config.temp_dir)
    except OSError as exc:
        say(f"cannot use RUNNER_TEMP ({exc.strerror or exc}); using the default temp folder")
        holder = tempfile.TemporaryDirectory(prefix="courtroom-cache-")
    with holder as name:
        yield Path(name)


def action(config: ActionConfig, publisher_factory: PublisherFactory, run_audit: RunAudit) -> int:
    """Run one action: audit, keep the files, summarise, publish; returns the exit status."""
    github = publisher_factory(config)
    if config.event_name == "issue_comment":
        command = command_subject(config, github)
        if command is None:
            return EXIT_OK
        subject = command
    else:
        subject = resolve_subject(config, github)
    previous = _previous(config, github, subject)
    with _cache_dir(config) as cache_dir:
        seeded = seed_cache(cache_dir, cache_seeds(previous))
        if seeded:
            say(f"{len(seeded)} opinion(s) from the previous audit may be reused")
        return _audit_and_publish(config, github, subject, previous, run_audit, cache_dir)


def _request(config: ActionConfig, subject: Subject, previous: PreviousAudit | None,
             cache_dir: Path) -> AuditRequest:
    pdf, refused = resolve_pdf(config)
    if refused:
        print(f"::warning::{escape_data(refused)}")
    named = config.settings.get("rubric_path")
    rubric = config.workspace / named if named else None
    # No such file in the checkout: the input may name a rubric the package ships.
    bundled = named_rubric(str(named)) if rubric and not os.path.lexists(rubric) else None
    rubric = bundled or rubric
    if rubric is not None and bundled is None and not inside(config.workspace, rubric):
        # The file is the PR's to replace: a link would read any file on the runner.
        raise ConfigError(f"input rubric: {named} is a symbolic link or lies "
                          "outside the workspace; Courtroom reads only files in the checkout")
    resolved = {"pdf": pdf, "rubric_path": rubric}
    return AuditRequest(
        workspace=config.workspace,
        out_dir=config.out_dir,
        display_name=config.repository,
        commit=subject.head_sha,
        api_key=config.anthropic_api_key,
        cache_dir=cache_dir,
        settings={k: v for k, v in {**config.settings, **resolved}.items() if v is not None},
    )


def _pull_base(config: ActionConfig, github: PublishTarget, subject: Subject) -> PullBase | None:
    """A pull request's base commit, read for its config; without it, the files the PR
    changes (they tell whether the checkout's config is the base's); a warning when not."""
    if subject.pr_number is None:
        return None
    base = list_changes(locate_base(config.workspace, subject.base_sha), subject.pr_number,
                        github.pull_files)
    warning = fallback_warning(base)
    if warning:
        print(f"::warning::{escape_data(warning)}")
        append(config.summary_path, f"> **Warning:** {neutralise(warning)}\n\n")
    return base


def _run(run_audit: RunAudit, request: AuditRequest) -> Outcome:
    """The audit's outcome; an audit that raises becomes a failed outcome, never a crash.

    Caught broadly on purpose: whatever stops the audit, the gate must still show a
    failed check run, and the step log must say why. An audit that raised names no file:
    whatever lies in the report folder may be the checkout's own. A report folder the
    checkout made a link (or filled with a folder where a file of ours goes) stops the
    audit before it starts: fail closed, nothing written.
    """
    try:
        check_folder(request.out_dir, request.workspace)
        return run_audit(request)
    except CourtroomError as exc:
        return Failed(exc.exit_code, str(exc))
    except Exception as exc:
        return Failed(EXIT_CRITICAL, f"unexpected {type(exc).__name__}: {exc}")


def _audit_and_publish(
    config: ActionConfig,
    github: PublishTarget,
    subject: Subject,
    previous: PreviousAudit | None,
    run_audit: RunAudit,
    cache_dir: Path,
) -> int:
    request = _request(config, subject, previous, cache_dir)  # bad inputs stop us first
    if not config.verdict:
        warning = checkout_mismatch(config.workspace, subject.head_sha)
        if warning:
            print(f"::warning::{escape_data(warning)}")
        request = replace(request, pull=_pull_base(config, github, subject))
    outcome = _run(run_audit, request)
    if outcome.verdict is None:
        return _critical(config, github, subject, outcome)
    verdict = outcome.verdict
    try:
        paths = keep_files(verdict, outcome.paths, config.out_dir)
    except (OSError, UsageError) as exc:
        say(f"could not write the report files: {getattr(exc, 'strerror', None) or exc}")
        paths = dict(outcome.paths)
    hand_back(config.out_dir, config.workspace, paths)
    append(config.summary_path, render_summary(verdict))
    _outputs(config, f"{verdict.overall_score:.2f}", verdict.conclusion, paths.get("report"),
             paths.get("sarif"))
    publish(config, github, subject, verdict, previous, opinion_keys(cache_dir))
    return outcome.exit_code


def _shown(config: ActionConfig, path: Path | None) -> str:
    if path is None:
        return ""
    inside = path.is_relative_to(config.workspace)
    return (path.relative_to(config.workspace) if inside else path).as_posix()


def _outputs(config: ActionConfig, score: str, conclusion: str, report: Path | None,
             sarif: Path | None) -> None:
    """The step's outputs; the paths are files this run wrote, never what it found there."""
    lines = (
        f"score={score}\nconclusion={conclusion}\nreport-path={_shown(config, report)}\n"
        f"sarif-path={_shown(config, sarif)}\n"
    )
    append(config.output_path, lines)


def _critical(
    config: ActionConfig, github: PublishTarget, subject: Subject, outcome: Outcome
) -> int:
    """No verdict: say so everywhere we can, and fail the check so nobody merges blind."""
    # The reason may quote the submission (a file name, a payload value): inert text only,
    # plain in the log, defused Markdown in the summary and the check run.
    error = plain(str(outcome.error or "the audit could not complete"))
    print(f"::error::{escape_data(f'courtroom: the audit could not complete: {error}')}")
    shown = neutralise(error)
    left = dict(outcome.paths)
    hand_back(config.out_dir, config.workspace, left)
    kept = next((left[k] for k in ("report", "verdict", "partial", "trace") if k in left), None)
    where = f"What it left is in `{_shown(config, kept.parent)}`." if kept else "It left no files."
    append(config.summary_path, f"# Courtroom audit did not complete\n\n{shown}\n\n{where}\n")
    _outputs(config, "", "failure", kept, left.get("sarif"))
    try:
        github.publish_check_run(
            name=config.check_name,
            head_sha=subject.head_sha,
            conclusion="failure",
            title="The audit could not complete",
            summary=shown[:60000],
            text="",
            annotations=[],
        )
    except PublishError as exc:
        say(f"could not publish the failure check run: {exc}")
    return outcome.exit_code


def publisher_from_config(config: ActionConfig) -> Publisher:
    """The real publisher for the configured repository and API."""
    return Publisher(config.token, config.api_url, config.repository)


def main(env: Mapping[str, str] | None = None) -> int:
    """Entry point of the Docker action; with ``_run``, the only place that catches broadly.

    stdout carries only the workflow commands built here and in ``publish`` (data escaped
    with ``escape_data``); stderr, the log, quotes the submission, so it is defused.
    """
    with inert_output(stdout=False):
        try:
            config = config_from_env(os.environ if env is None else env)
            verdict = config.workspace / config.verdict if config.verdict else None
            runner = replay_runner(verdict, config.signing_key) if verdict else None
            return action(config, publisher_from_config, runner or pipeline_runner)
        except CourtroomError as exc:
            print(f"::error::{escape_data(f'courtroom: {exc}')}")
            return exc.exit_code
        except Exception as exc:  # last line of defence: one line, no traceback
            print(f"::error::{escape_data(f'courtroom: unexpected {type(exc).__name__}: {exc}')}")
            return EXIT_CRITICAL
