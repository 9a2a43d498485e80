"""The base commit's security scan: its Python files copied out of git's objects, scanned.

Nothing of the base is checked out or run: each regular file the scan may read is copied,
from its blob, into a private temporary folder (no link, no path leaving the folder, no
``.git``), and the same security scan the audit runs reads it there. The result is kept in
the opinion cache folder under the base commit, Courtroom's version and the ignore globs,
so a second run against the same base reads it instead. Only ``fail-on-findings: new``
asks for it (``against_base`` says why).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ValidationError

from courtroom import __version__
from courtroom.baseline import (
    compare,
    fingerprints,
    line_reader,
    mark_diff,
    mark_findings,
    set_aside,
)
from courtroom.detectives.base import Case
from courtroom.detectives.parsing import MAX_PARSE_BYTES, TreeCache, source_index
from courtroom.detectives.repo.listing import MAX_SOURCE_FILES, may_be_python
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.security.detective import build_report, examined
from courtroom.errors import DiffError
from courtroom.findings import SecurityFinding, SecurityReport
from courtroom.git import git_bytes
from courtroom.judges.digest import sha256_of
from courtroom.models import Evidence
from courtroom.settings.config import AuditConfig

_ENTRY = re.compile(rb"(?P<mode>\d+) (?P<kind>\w+) (?P<oid>[0-9a-f]+) +(?P<size>-|\d+)")
_REGULAR = (b"100644", b"100755")
#: Most bytes copied out of the base. Past it the rest is not scanned: the head's findings
#: there then count as new, which can only fail the gate, never pass it.
MAX_BASE_BYTES = 256 << 20


class BaseFindings(BaseModel):
    """The base commit's findings, each with the fingerprint it is matched by."""

    base: str
    findings: list[tuple[str, SecurityFinding]]


def _safe(rel: bytes) -> PurePosixPath | None:
    path = PurePosixPath(os.fsdecode(rel))
    bad = {"", ".", "..", ".git"}
    return None if path.is_absolute() or bad.intersection(path.parts) else path


def copy_sources(root: Path, sha: str, into: Path) -> int:
    """Copy the base's files the security scan may read into ``into``; how many were."""
    listing = git_bytes(root, "ls-tree", "-r", "-z", "-l", "--full-tree", sha)
    if listing is None:
        raise DiffError(f"the tree of the base commit {sha[:12]} cannot be read")
    copied = total = 0
    for entry in filter(None, listing.split(b"\0")):
        meta, _, rel = entry.partition(b"\t")
        found = _ENTRY.fullmatch(meta)
        path = _safe(rel)
        if found is None or path is None or found["mode"] not in _REGULAR \
                or not may_be_python(path.as_posix()) or copied >= MAX_SOURCE_FILES:
            continue
        size = found["size"]
        if size == b"-" or int(size) > MAX_PARSE_BYTES or total + int(size) > MAX_BASE_BYTES:
            continue
        data = git_bytes(root, "cat-file", "blob", found["oid"].decode())
        if data is None:
            continue
        try:
            target = into.joinpath(*path.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as handle:  # x: never through anything already there
                handle.write(data)
        except OSError:
            continue  # a crafted tree naming one path twice: the first copy stands
        copied, total = copied + 1, total + len(data)
    return copied


def scan_base(root: Path, sha: str, config: AuditConfig) -> BaseFindings:
    """The base commit's findings, from the cache when a run already scanned it."""
    where = _cache_file(config, sha)
    if config.use_cache:
        try:
            return BaseFindings.model_validate_json(where.read_text(encoding="utf-8"))
        except (OSError, ValidationError, ValueError):
            pass  # absent or unreadable: scan again
    with tempfile.TemporaryDirectory(prefix="courtroom-base-scan-") as folder:
        copy_sources(root, sha, Path(folder))
        ws = Workspace(Path(folder), "base", ignore=config.skips())
        report = build_report(examined(ws, source_index(ws)), release=TreeCache())
        keys = fingerprints(report.findings, line_reader(ws.read_text))
    found = BaseFindings(base=sha, findings=list(zip(keys, report.findings, strict=True)))
    _store(where, found)
    return found


def _cache_file(config: AuditConfig, sha: str) -> Path:
    key = sha256_of({"version": __version__, "base": sha, "ignore": list(config.ignore),
                  "tree_ignore": list(config.tree_ignore)})
    return config.resolved_cache_dir / "baseline" / f"{key}.json"


def _store(path: Path, found: BaseFindings) -> None:
    """Write atomically; a cache that cannot be written is only a lost saving."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(found.model_dump_json())
        os.replace(tmp, path)
    except OSError:
        return


#: How the base commit's findings are had: ``scan_base``, or a test's counting fake.
BaseScan = Callable[[Path, str, AuditConfig], BaseFindings]


def base_findings(config: AuditConfig, case: Case, *, scan: BaseScan = scan_base
                  ) -> BaseFindings | None:
    """The base commit's findings when the gate needs them: a change with a base, under
    ``fail-on-findings: new``.

    Under ``all`` every confirmed finding fails the gate whether the base had it or not,
    so the base's scan (as long as the head's) could change no score and no conclusion:
    it would only label findings new or unchanged, and is not run. The pipeline asks
    before the head's detectives run, so the base's syntax trees are freed before the
    head's are built: the two trees of a large repository are never held at once.
    """
    if case.diff is None or config.fail_on_findings != "new":
        return None
    return scan(case.workspace.root, case.diff.base, config)


def against_base(config: AuditConfig, case: Case, pool: dict[str, Evidence],
                 report: SecurityReport | None, base: BaseFindings | None
                 ) -> tuple[dict[str, Evidence], SecurityReport | None]:
    """The pool and the security detective's report held against the change's base, when
    there is one: facts and findings marked in or out of the diff; with the base's
    findings (``base_findings``) findings new or unchanged too, and pre-existing ones set
    aside under ``fail-on-findings: new``."""
    diff = case.diff
    pool = mark_diff(pool, diff)
    if diff is None or report is None:
        return pool, report
    if base is None:
        return pool, mark_findings(report, diff)
    held = compare(report, line_reader(case.workspace.read_text), base.findings,
                   sha=diff.base, fail_on=config.fail_on_findings, diff=diff)
    return set_aside(pool, held), held
