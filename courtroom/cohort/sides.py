"""The two sides of `courtroom compare`: a verdict.json or a Markdown report, read once.

A side is its criteria (id, name, score, what it cited), the text of all its evidence
(to test whether it covers what the other side names) and, for a verdict, what it audited
and with which rubric. Markdown reports, ours or a peer's, carry no such record.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from courtroom.cohort.peer_report import parse_markdown
from courtroom.errors import UsageError
from courtroom.untrusted import one_line

PATH_MENTION = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:py|md|json|toml|ya?ml|txt|cfg|ini|ipynb|sh|js|ts|pdf))"
    r"(?::\d+)?(?![\w/])"
)
CODE_MENTION = re.compile(r"`([^`\n]{3,60})`")


@dataclass
class View:
    """One criterion as one audit sees it."""

    key: str
    name: str
    score: float | None
    cited: list[str] = field(default_factory=list)  # evidence locations, or mentions
    text: str = ""


@dataclass(frozen=True)
class Subject:
    """What a verdict audited and with which yardstick (a Markdown report does not say)."""

    repo: str
    commit: str
    rubric: str  # name and version, as shown
    rubric_sha256: str


@dataclass
class Audit:
    """One side of the comparison: its criteria and everything its evidence covers."""

    source: str
    kind: str  # "verdict" or "markdown"
    criteria: list[View]
    haystack: str  # lower-cased text of all its evidence, to test whether it covers a mention
    subject: Subject | None = None


def normalise(name: str) -> str:
    """Lower-case words only: "Graph-Orchestration " and "graph_orchestration" agree."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())


def mentions(text: str) -> list[str]:
    """Files and code terms a piece of prose points at, in order, without repeats."""
    found = [m.group(1) for m in PATH_MENTION.finditer(text)]
    found += [m.group(1).strip() for m in CODE_MENTION.finditer(text)]
    return list(dict.fromkeys(f for f in found if f))


def _verdict(path: Path, data: dict[str, Any]) -> Audit:
    pool = data.get("evidences") or {}
    views = []
    for item in data.get("criteria") or []:
        cited: dict[str, None] = {}
        for opinion in item.get("opinions") or []:
            for eid in opinion.get("cited_evidence") or []:
                evidence = pool.get(eid)
                if isinstance(evidence, dict) and evidence.get("location"):
                    cited[str(evidence["location"])] = None
        views.append(
            View(
                key=str(item.get("criterion_id", "")),
                name=str(item.get("name") or item.get("criterion_id", "")),
                score=item.get("final_score"),
                cited=list(cited),
            )
        )
    haystack = " ".join(
        f"{e.get('location', '')} {e.get('content') or ''} {e.get('goal', '')}"
        for e in pool.values()
        if isinstance(e, dict)
    )
    return Audit(str(path), "verdict", views, haystack.lower(), _subject(data))


def _subject(data: dict[str, Any]) -> Subject:
    target, rubric = data.get("target"), data.get("rubric")
    target = target if isinstance(target, dict) else {}
    rubric = rubric if isinstance(rubric, dict) else {}
    return Subject(
        repo=one_line(str(target.get("repo") or "?")),
        commit=str(target.get("commit") or ""),
        rubric=one_line(f"{rubric.get('name') or '?'} {rubric.get('version') or '?'}"),
        rubric_sha256=str(rubric.get("sha256") or ""),
    )


def _pick(folder: Path) -> Path:
    """An audit folder stands for its verdict.json, else its report.md, else its one .md."""
    for name in ("verdict.json", "report.md"):
        if (folder / name).is_file():
            return folder / name
    reports = sorted(folder.glob("*.md"))
    if len(reports) == 1:
        return reports[0]
    raise UsageError(f"{folder}: no verdict.json or report.md, and not exactly one .md file")


def load_audit(path: Path) -> Audit:
    """Read a verdict.json or a Markdown report (or a folder holding one)."""
    if path.is_dir():
        path = _pick(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{path}: not valid JSON: {exc}") from exc
        except RecursionError as exc:  # a peer's file, nested past the decoder's stack
            raise UsageError(f"{path}: not valid JSON: nested too deeply") from exc
        if not isinstance(data, dict) or not isinstance(data.get("criteria"), list):
            raise UsageError(f"{path}: not a verdict (no 'criteria' list)")
        return _verdict(path, data)
    views = [
        View(
            key=(c.anchor or "").lstrip("#") or normalise(c.name),
            name=c.name,
            score=c.score,
            cited=mentions(c.text),
            text=c.text,
        )
        for c in parse_markdown(text)
    ]
    if not any(v.score is not None for v in views):
        raise UsageError(f"{path}: no per-criterion scores found in this report")
    return Audit(str(path), "markdown", views, text.lower())
