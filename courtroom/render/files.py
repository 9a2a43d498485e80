"""The audit's files: verdict.json, findings.sarif, report.md and the trace, or, after a
critical failure, the partial state, so nothing already computed is lost.

The output folder often lies in the audited checkout, whose author may have committed a
symbolic link where a folder or a file of ours goes: followed, it would have us write (and,
as root, hand over) files anywhere. So no link is ever followed: the folder is opened with
O_NOFOLLOW, each file is written under a fresh name in it and renamed over its place (a
rename replaces a link, never writes through it), and an entry point checks the folders
between its trusted root and the output folder first (``check_folder``). What a write
function returns is exactly what this run wrote: entry points name nothing else.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

from courtroom.errors import UsageError
from courtroom.models import Evidence, JudicialOpinion, Target, Verdict
from courtroom.render import sarif
from courtroom.render.markdown import render_report
from courtroom.trace import Trace

#: The files an audit writes, by kind: their one spelling, for every writer.
FILE_NAMES = {
    "verdict": "verdict.json",
    "sarif": "findings.sarif",
    "report": "report.md",
    "trace": "trace.jsonl",
    "partial": "partial_state.json",
}


def _refuse(out: Path, why: str) -> UsageError:
    return UsageError(f"cannot write the report to {out}: {why}; Courtroom never writes "
                      "through a symbolic link (remove it, or choose another folder)")


def check_folder(out: Path, root: Path) -> None:
    """Refuse ``out`` if a folder on the way from ``root`` (excluded) to it, or a file name
    of ours in it, is a link or not what it must be; what is missing is made later.

    ``root`` is the deepest folder the caller trusts (the Action's workspace, the CLI's
    working folder): everything below it may be the audited author's.
    """
    step = root
    for part in out.relative_to(root).parts:
        step = step / part
        try:
            mode = step.lstat().st_mode
        except (FileNotFoundError, NotADirectoryError):  # made later, or said then
            return
        if stat.S_ISLNK(mode):
            raise _refuse(out, f"{step} is a symbolic link")
        if not stat.S_ISDIR(mode):
            raise _refuse(out, f"{step} is not a folder")
    for name in FILE_NAMES.values():
        if (out / name).is_dir() and not (out / name).is_symlink():  # a link is replaced
            raise _refuse(out, f"{out / name} is a folder")


def _open_folder(out: Path) -> int:
    """The output folder, made if missing, opened without following a link."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with suppress(FileExistsError):
            out.mkdir()
    except OSError as exc:
        raise UsageError(f"cannot write the report to {out}: {exc.strerror or exc}") from exc
    try:
        return os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise _refuse(out, f"it is a symbolic link or not a folder ({exc.strerror})") from exc


def _put(folder: int, name: str, text: str) -> None:
    temp = f".{name}.{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    handle = os.open(temp, flags, 0o666, dir_fd=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        os.unlink(temp, dir_fd=folder)
        raise


def write_files(out: Path, texts: Mapping[str, str]) -> dict[str, Path]:
    """Write each kind's text under its FILE_NAMES name in ``out``; returns what was written.

    Nothing is written if any name is taken by a folder (the error names it).
    """
    folder = _open_folder(out)
    try:
        for kind in texts:
            try:
                mode = os.stat(FILE_NAMES[kind], dir_fd=folder, follow_symlinks=False).st_mode
            except FileNotFoundError:
                continue
            if stat.S_ISDIR(mode):
                raise _refuse(out, f"{out / FILE_NAMES[kind]} is a folder")
        for kind, text in texts.items():
            _put(folder, FILE_NAMES[kind], text)
    finally:
        os.close(folder)
    return {kind: out / FILE_NAMES[kind] for kind in texts}


def verdict_text(verdict: Verdict) -> str:
    return verdict.model_dump_json(indent=2) + "\n"


def write_outputs(out: Path, verdict: Verdict, trace: Trace) -> dict[str, Path]:
    """Write verdict.json, findings.sarif, report.md and trace.jsonl into ``out``."""
    with trace.span("render", "report"):
        report = render_report(verdict)
    texts = {"verdict": verdict_text(verdict), "sarif": sarif.dumps(verdict.security),
             "report": report}
    return write_files(out, {**texts, "trace": trace.jsonl()})


def write_partial(
    out: Path,
    target: Target,
    pool: Mapping[str, Evidence],
    opinions: Mapping[str, list[JudicialOpinion]],
    errors: list[str],
    trace: Trace,
) -> dict[str, Path]:
    state = {
        "status": "critical_failure",
        "target": target.model_dump(mode="json"),
        "evidences": {k: v.model_dump(mode="json") for k, v in sorted(pool.items())},
        "opinions": {k: [o.model_dump(mode="json") for o in v] for k, v in opinions.items()},
        "errors": errors,
    }
    return write_files(out, {"partial": json.dumps(state, indent=2) + "\n",
                             "trace": trace.jsonl()})
