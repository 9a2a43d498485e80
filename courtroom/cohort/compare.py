"""`courtroom compare A B`: where two audits of one submission disagree, and on what evidence.

Each side is our ``verdict.json`` or a Markdown report (ours or a peer's). Criteria are
matched by id, then by normalised name. For each criterion the output says both scores,
the gap, what each side cited, and flags what the second audit (usually the peer's)
points at that the first audit's evidence never looked at: that is where the auditor
itself can be improved. Reports conventionally live in the SELF_DIR, PEER_DIR and
RECEIVED_DIR folders of ``courtroom.config``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from courtroom.cohort.peer_report import parse_markdown
from courtroom.errors import EXIT_OK, UsageError

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


@dataclass
class Audit:
    """One side of the comparison: its criteria and everything its evidence covers."""

    source: str
    kind: str  # "verdict" or "markdown"
    criteria: list[View]
    haystack: str  # lower-cased text of all its evidence, to test whether it covers a mention


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
    return Audit(str(path), "verdict", views, haystack.lower())


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


def match(ours: list[View], theirs: list[View]) -> list[tuple[View | None, View | None]]:
    """Pair criteria by id, then normalised name, then containment or close spelling."""
    left = list(theirs)
    pairs: list[tuple[View | None, View | None]] = []
    for view in ours:
        found = _find(view, left)
        if found is not None:
            left.remove(found)
        pairs.append((view, found))
    pairs.extend((None, v) for v in left if v.score is not None)
    return pairs


def _tier(ident: str, name: str, other: View) -> int | None:
    """How well ``other`` matches: 0 id, 1 same name, 2 containment, 3 close spelling."""
    theirs = normalise(other.name)
    if ident and (normalise(other.key) == ident or ident in theirs):
        return 0
    if name and theirs == name:
        return 1
    if name and len(theirs) > 3 and (name in theirs or theirs in name):
        return 2
    if name and difflib.SequenceMatcher(None, name, theirs).ratio() >= 0.8:
        return 3
    return None


def _find(view: View, candidates: list[View]) -> View | None:
    ident, name = normalise(view.key), normalise(view.name)
    ranked = [
        (t, n, c) for n, c in enumerate(candidates) if (t := _tier(ident, name, c)) is not None
    ]
    if not ranked:
        return None
    best = min(t for t, _n, _c in ranked)
    hits = [c for t, _n, c in ranked if t == best]
    # Prefer an entry that carries a score over a bare section of the same name.
    return next((c for c in hits if c.score is not None), hits[0])


def covered(mention: str, haystack: str) -> bool:
    """Whether the first audit's evidence touches a file or term the other one names.

    A path counts as covered when it appears whole or as the tail of a longer path
    ("detectives/graph.py" in "courtroom/detectives/graph.py"), never by its file name
    alone ("src/graph.py" is not covered by "courtroom/graph.py"); a bare file name or
    term matches anywhere.
    """
    lowered = mention.lower()
    if "/" in lowered:
        return re.search(r"(?<![\w.-])" + re.escape(lowered), haystack) is not None
    return lowered in haystack


def _points(view: View) -> list[str]:
    """What a side points at: its cited locations (without line numbers) or its mentions."""
    points = [re.sub(r":\d+(?:-\d+)?$", "", c) for c in view.cited]
    # A commit sha is shown short; a bare "." (the whole repository) says nothing.
    points = [p[:7] if re.fullmatch(r"[0-9a-f]{40}", p) else p for p in points]
    return [p for p in dict.fromkeys(points) if p and p != "."]


def _checkable(point: str) -> bool:
    """Whether a point names a file or term worth checking (not a commit or a PDF page)."""
    return not re.fullmatch(r"[0-9a-f]{7,40}", point) and not point.startswith("pdf")


def _score(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:g}"


def compare_lines(a: Audit, b: Audit, *, limit: int = 8) -> list[str]:
    """The comparison as text lines: disagreements first, then agreements, then extras."""
    pairs = match(a.criteria, b.criteria)
    lines = [f"A: {a.source} ({a.kind})", f"B: {b.source} ({b.kind})", ""]
    gaps: list[float] = []
    flagged = 0
    both = [(x, y) for x, y in pairs if x is not None and y is not None]
    # Largest disagreement first: that is where one of the two audits is most likely wrong.
    both.sort(key=lambda p: -abs((p[0].score or 0) - (p[1].score or 0)))
    for x, y in both:
        if x.score is None or y.score is None:
            head = f"{x.name} [{x.key}]: A {_score(x.score)}, B {_score(y.score)} (no score)"
        else:
            gap = y.score - x.score
            gaps.append(abs(gap))
            higher = "B" if gap > 0 else "A"
            word = "agree" if gap == 0 else f"disagree by {abs(gap):g} ({higher} higher)"
            head = f"{x.name} [{x.key}]: A {_score(x.score)}, B {_score(y.score)} — {word}"
        lines.append(head)
        lines.append("  A cited: " + (", ".join(_points(x)[:limit]) or "nothing"))
        lines.append("  B cited: " + (", ".join(_points(y)[:limit]) or "nothing"))
        missing = [m for m in _points(y) if _checkable(m) and not covered(m, a.haystack)]
        if missing:
            flagged += 1
            lower = x.score is not None and y.score is not None and y.score < x.score
            why = "B scored lower and names" if lower else "B names"
            lines.append(
                f"  FLAG: {why} what A's evidence does not cover: " + ", ".join(missing[:limit])
            )
    only_a = [x for x, y in pairs if y is None and x is not None]
    only_b = [y for x, y in pairs if x is None and y is not None]
    if only_a:
        lines.append("")
        lines.append("Only in A: " + ", ".join(f"{v.name} ({_score(v.score)})" for v in only_a))
    if only_b:
        lines.append("Only in B: " + ", ".join(f"{v.name} ({_score(v.score)})" for v in only_b))
    lines.append("")
    agree = sum(1 for g in gaps if g == 0)
    mean = sum(gaps) / len(gaps) if gaps else 0.0
    lines.append(
        f"{len(both)} criteria matched: {agree} agree, {len(gaps) - agree} disagree, "
        f"mean gap {mean:.2f}; {flagged} flagged for evidence A does not cover."
    )
    return lines


def compare_command(args: argparse.Namespace) -> int:
    """Run `courtroom compare A B`; prints the comparison and exits 0."""
    a, b = load_audit(Path(args.a)), load_audit(Path(args.b))
    print("\n".join(compare_lines(a, b)))
    return EXIT_OK
