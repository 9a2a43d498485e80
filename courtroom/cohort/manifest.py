"""Read a cohort manifest (CSV or JSON) into submission rows, and split it into shards.

A manifest lists submissions: ``repo`` (a local path or a git URL), an optional ``pdf``
(absolute, relative to the manifest, else relative to the repository) and an optional
``name``. Every row gets a unique, filesystem-safe folder name before any sharding, so
shards audited on different machines never disagree about where a submission lives.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path

from courtroom.errors import UsageError

COLUMNS = ("repo", "pdf", "name")


@dataclass(frozen=True)
class Row:
    """One submission of a cohort, as the batch will audit it."""

    index: int  # 0-based position in the manifest; sharding and ordering key
    repo: str
    name: str
    pdf: str | None = None
    #: True when ``pdf`` is to be found inside the repository's checkout at audit time.
    pdf_in_repo: bool = False


def is_url(repo: str) -> bool:
    """Whether a repo entry is something to clone rather than a local path."""
    return "://" in repo or repo.startswith("git@")


def slug(text: str) -> str:
    """A filesystem-safe folder name (letters, digits, dot, dash, underscore)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")


def _derived_name(repo: str) -> str:
    # "owner/name" is more telling than "name" alone: whole cohorts fork the same template.
    parts = [p for p in re.split(r"[/:]", repo.rstrip("/")) if p]
    parts = [p.removesuffix(".git") for p in parts[-2:]] if is_url(repo) else parts[-1:]
    return slug("-".join(parts)) or "submission"


def _raw_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """(line or item number, fields) for every entry of the file, without validation."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: manifest not found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read manifest: {exc}") from exc
    if path.suffix.lower() == ".json" or text.lstrip().startswith("["):
        return _json_rows(path, text)
    reader = csv.DictReader(text.splitlines())
    header = [h.strip().lower() for h in reader.fieldnames or []]
    if "repo" not in header:
        raise UsageError(f"{path}: row 1: header must name a 'repo' column (repo,pdf,name)")
    unknown = sorted(set(header) - set(COLUMNS) - {""})
    if unknown:
        raise UsageError(f"{path}: row 1: unknown column(s) {', '.join(unknown)}")
    reader.fieldnames = header
    rows: list[tuple[int, dict[str, str]]] = []
    for record in reader:
        if record.get(None):
            raise UsageError(f"{path}: row {reader.line_num}: more fields than the header")
        fields = {k: (v or "").strip() for k, v in record.items() if k}
        if any(fields.values()):
            rows.append((reader.line_num, fields))
    return rows


def _json_rows(path: Path, text: str) -> list[tuple[int, dict[str, str]]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(data, list):
        raise UsageError(f"{path}: a JSON manifest must be a list of submissions")
    rows: list[tuple[int, dict[str, str]]] = []
    for number, item in enumerate(data, start=1):
        if isinstance(item, str):
            item = {"repo": item}
        if not isinstance(item, dict):
            raise UsageError(f"{path}: item {number}: expected an object or a string")
        unknown = sorted(set(item) - set(COLUMNS))
        if unknown:
            raise UsageError(f"{path}: item {number}: unknown field(s) {', '.join(unknown)}")
        fields: dict[str, str] = {}
        for key, value in item.items():
            if value is not None and not isinstance(value, str):
                raise UsageError(f"{path}: item {number}: {key} must be a string")
            fields[key] = (value or "").strip()
        rows.append((number, fields))
    return rows


def _locate(base: Path, repo: str) -> str:
    """A local repo path relative to the manifest's folder, else to the current one."""
    if is_url(repo) or Path(repo).is_absolute():
        return repo
    beside = base / repo
    return str(beside.resolve()) if beside.exists() or not Path(repo).exists() else repo


def _pdf(base: Path, pdf: str) -> tuple[str, bool]:
    """A PDF as given (absolute, or beside the manifest), else one to find inside the target.

    `courtroom audit --pdf` resolves the same way; the in-target lookup happens on the
    checkout at audit time (a clone only exists then), never through a symlink or `..`.
    """
    if Path(pdf).is_absolute():
        return pdf, False
    if (base / pdf).is_file():
        return str((base / pdf).resolve()), False
    return pdf, True


def load_manifest(path: Path) -> list[Row]:
    """Read and validate a manifest; raise UsageError naming file, row and problem."""
    base = path.resolve().parent
    rows: list[Row] = []
    given: dict[str, int] = {}
    for number, fields in _raw_rows(path):
        repo = fields.get("repo", "")
        if not repo:
            raise UsageError(f"{path}: row {number}: repo is empty")
        if repo.startswith("-"):
            raise UsageError(f"{path}: row {number}: repo must not start with '-'")
        repo = _locate(base, repo)
        pdf, in_repo = _pdf(base, fields["pdf"]) if fields.get("pdf") else (None, False)
        name = slug(fields.get("name", ""))
        if fields.get("name") and not name:
            raise UsageError(f"{path}: row {number}: name has no usable characters")
        if name:
            if name in given:
                raise UsageError(
                    f"{path}: row {number}: name {name!r} already used by row {given[name]}"
                )
            given[name] = number
        rows.append(Row(len(rows), repo, name, pdf, in_repo))
    if not rows:
        raise UsageError(f"{path}: manifest lists no submissions")
    return _name_rows(rows, set(given))


def _name_rows(rows: list[Row], taken: set[str]) -> list[Row]:
    """Give unnamed rows a derived name, suffixed -2, -3 ... when it is already taken."""
    named: list[Row] = []
    for row in rows:
        if not row.name:
            stem = _derived_name(row.repo)
            name, n = stem, 1
            while name in taken:
                n += 1
                name = f"{stem}-{n}"
            taken.add(name)
            row = Row(row.index, row.repo, name, row.pdf, row.pdf_in_repo)
        named.append(row)
    return named


def parse_shard(spec: str) -> tuple[int, int]:
    """Parse "i/n" (1-based i); raise UsageError when it is not a valid shard."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", spec)
    if not match:
        raise UsageError(f"--shard {spec!r}: expected i/n, for example 2/4")
    i, n = int(match.group(1)), int(match.group(2))
    if n < 1 or not 1 <= i <= n:
        raise UsageError(f"--shard {spec!r}: need 1 <= i <= n")
    return i, n


def shard(rows: list[Row], spec: str) -> list[Row]:
    """The rows of shard "i/n": manifest position modulo n; shards partition the manifest."""
    i, n = parse_shard(spec)
    return [row for row in rows if row.index % n == i - 1]
