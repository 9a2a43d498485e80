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
from courtroom.render.files import FILE_NAMES
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
    """Make sure verdict.json and report.md exist on disk, whatever the audit wrote."""
    paths = dict(written)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not paths.get("verdict") or not paths["verdict"].is_file():
        paths["verdict"] = out_dir / FILE_NAMES["verdict"]
        paths["verdict"].write_text(verdict.model_dump_json(indent=2), encoding="utf-8")
    if not paths.get("report") or not paths["report"].is_file():
        paths["report"] = out_dir / FILE_NAMES["report"]
        paths["report"].write_text(render_report(verdict), encoding="utf-8")
    return paths


def hand_back(out_dir: Path, workspace: Path) -> None:
    """Give the report folder to the workspace's owner.

    A Docker action runs as root over a checkout owned by the runner's user: a root-owned
    folder left in the workspace is one the runner cannot empty before the next job.
    """
    try:
        owner = workspace.stat()
        if os.geteuid() != 0 or owner.st_uid == 0 or not out_dir.is_dir():
            return
        for folder, dirs, files in os.walk(out_dir):  # links are never followed
            for name in (folder, *(os.path.join(folder, n) for n in (*dirs, *files))):
                os.lchown(name, owner.st_uid, owner.st_gid)
    except OSError as exc:
        say(f"could not hand the report folder to the workspace's owner: {exc.strerror or exc}")


def left_in(out_dir: Path) -> dict[str, Path]:
    """The files an audit that raised still left in ``out_dir``, by kind."""
    kinds = ("report", "verdict", "partial", "trace")
    return {kind: out_dir / FILE_NAMES[kind] for kind in kinds
            if (out_dir / FILE_NAMES[kind]).is_file()}
