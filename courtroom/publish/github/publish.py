"""Publishing a verdict: the PR comment, the check run and the runner's files.

Each write is attempted on its own, so a comment GitHub refuses (422, a 502 every time, a
read-only token) never stops the check run, which is the merge gate, nor the job summary
or the step outputs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from courtroom.errors import PublishError
from courtroom.models import Verdict
from courtroom.publish.github.annotations import (
    escape_data,
    findings,
    workflow_commands,
)
from courtroom.publish.github.client import ReadOnlyTokenError
from courtroom.publish.github.event import ActionConfig, Subject
from courtroom.publish.protocol import PublishTarget
from courtroom.render.files import verdict_text, write_files
from courtroom.render.markdown import (
    COMMENT_LIMIT,
    render_check_run,
    render_comment,
    render_report,
)
from courtroom.render.state import SIGNATURE_ROOM, PreviousAudit, sign_state


def say(line: str) -> None:
    print(f"courtroom: {line}", file=sys.stderr)


def append(path: Path | None, text: str) -> None:
    if path is None:
        return
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:  # one runner file failing must not stop the others
        say(f"could not write {path.name}: {exc.strerror or exc}")


def _check_run(
    config: ActionConfig, github: PublishTarget, subject: Subject, verdict: Verdict
) -> None:
    notes = findings(verdict)
    title, summary, text = render_check_run(verdict)
    run = github.publish_check_run(
        name=config.check_name,
        head_sha=subject.head_sha,
        conclusion=verdict.conclusion,
        title=title,
        summary=summary,
        text=text,
        annotations=notes,
    )
    added = len(notes) - run.annotations_failed
    say(
        f"check run {config.check_name!r} #{run.id} on {subject.head_sha[:12]}: "
        f"{verdict.conclusion}, {added} annotation(s)"
    )
    if run.annotations_failed:
        print(f"::warning::{run.annotations_failed} annotation(s) could not be added to the run")


def publish(
    config: ActionConfig,
    github: PublishTarget,
    subject: Subject,
    verdict: Verdict,
    previous: PreviousAudit | None,
    keys: Mapping[str, list[str]],
) -> None:
    writes: list[tuple[str, Callable[[], None]]] = []
    if subject.pr_number is not None and config.comment:
        number = subject.pr_number
        key = config.signing_key
        room = COMMENT_LIMIT - (SIGNATURE_ROOM if key else 0)
        body = sign_state(
            render_comment(verdict, previous=previous, cache_keys=keys, limit=room), key
        )
        writes.append(("comment", lambda: say(f"comment: {github.upsert_comment(number, body)}")))
    writes.append(("check run", lambda: _check_run(config, github, subject, verdict)))
    refused: list[str] = []
    for what, write in writes:
        try:
            write()
        except ReadOnlyTokenError as exc:
            refused.append(what)
            say(f"{exc}; falling back to workflow annotations and the job summary")
        except PublishError as exc:
            message = f"Courtroom could not publish the {what} to GitHub: {exc}. " + (
                "The verdict is in the job summary and the report files."
            )
            print(f"::warning::{escape_data(message)}")
    if "check run" in refused:  # a fork PR's token: the runner turns these into annotations
        for line in workflow_commands(findings(verdict)):
            print(line)
    if refused:
        append(
            config.summary_path,
            f"\n> GitHub refused to write the {' and the '.join(refused)} (the token is "
            "read-only here: a fork PR, or missing `pull-requests: write` / `checks: write`); "
            "this summary is the verdict.\n",
        )


def keep_files(verdict: Verdict, written: Mapping[str, Path], out_dir: Path) -> dict[str, Path]:
    """Make sure this run wrote verdict.json and report.md, whatever the audit wrote.

    Only what this run wrote counts: a file of that name already in the folder (the
    checkout's own, perhaps) is replaced, never trusted.
    """
    missing: dict[str, str] = {}
    if "verdict" not in written:
        missing["verdict"] = verdict_text(verdict)
    if "report" not in written:
        missing["report"] = render_report(verdict)
    return {**written, **(write_files(out_dir, missing) if missing else {})}


def hand_back(out_dir: Path, workspace: Path, written: Mapping[str, Path]) -> None:
    """Give the files this run wrote, and their folder, to the workspace's owner.

    A Docker action runs as root over a checkout owned by the runner's user: a root-owned
    file left in the workspace is one the runner cannot remove before the next job. Only
    what this run wrote is handed over, through the folder opened without following a link,
    each name changed without following one: a link would hand over its target.
    """
    if not written:
        return
    try:
        owner = workspace.stat()
        if os.geteuid() != 0 or owner.st_uid == 0:
            return
        folder = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.fchown(folder, owner.st_uid, owner.st_gid)
            for path in written.values():
                if path.parent == out_dir:
                    os.chown(path.name, owner.st_uid, owner.st_gid, dir_fd=folder,
                             follow_symlinks=False)
        finally:
            os.close(folder)
    except OSError as exc:
        say(f"could not hand the report folder to the workspace's owner: {exc.strerror or exc}")
