"""Best-effort reading of per-criterion scores from a Markdown audit report written by anyone.

Peers' reports come in a few common shapes, all handled here:

* a table with a criterion column and a score column (``| Graph | 4/5 |``);
* headings carrying the score (``## Graph Orchestration — 4/5``, ``### 2. State (3/5)``);
* a heading followed by a score line (``Score: 3/5``, ``**Final score:** 4``);
* bullets (``- **Graph Orchestration**: 4/5``).

Scores on another scale (``7/10``) are brought to 1..5. What each section says is kept,
so the comparison can look for files and terms the peer mentioned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
#: "4/5", "4 / 5", "3.5/5", "7 out of 10"
FRACTION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:/|out of)\s*(\d+)(?![\w.])", re.I)
SCORE_LINE = re.compile(
    r"(final\s+)?(?:score|rating|grade|mark)\s*\**\s*[:=—–-]?\s*\**\s*(\d+(?:\.\d+)?)"
    r"(?:\s*(?:/|out of)\s*(\d+))?",
    re.I,
)
BULLET = re.compile(r"^\s*[-*+]\s+(.+?)\s*[:—–-]\s*\**\s*(\d+(?:\.\d+)?\s*(?:/|out of)\s*\d+)")
LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
NAME_WORDS = ("criterion", "criteria", "dimension", "category", "area", "rubric", "name")


@dataclass
class PeerCriterion:
    """One criterion as a peer's report shows it."""

    name: str
    score: float | None = None
    text: str = ""
    anchor: str | None = None  # a link target such as "#graph_orchestration", if any


def _scaled(value: str, scale: str | None) -> float | None:
    number, top = float(value), float(scale) if scale else 5.0
    if top <= 0 or number > top:
        return None
    # A 0..10 or 0..100 scale is mapped onto the rubric's 1..5.
    return round(number if top == 5 else max(1.0, number * 5 / top), 2)


def clean(text: str) -> str:
    """Cell or heading text without links, emphasis, code ticks and leading numbering."""
    text = LINK.sub(r"\1", text)
    text = re.sub(r"[*_`]+", "", text).strip()
    return re.sub(r"^(?:\d+[.)]|[IVX]+\.|dimension\s+\d+\s*[:.-])\s*", "", text, flags=re.I)


def _table_rows(lines: list[str]) -> list[PeerCriterion]:
    found: list[PeerCriterion] = []
    i = 0
    while i + 1 < len(lines):
        sep = lines[i + 1].strip()
        is_rule = bool(re.fullmatch(r"\|?[\s:|-]+\|?", sep)) and "-" in sep
        if lines[i].lstrip().startswith("|") and is_rule:
            header = [clean(c).lower() for c in lines[i].strip().strip("|").split("|")]
            score_col = next((k for k, h in enumerate(header) if "score" in h), None)
            name_col = next((k for k, h in enumerate(header) if any(w in h for w in NAME_WORDS)), 0)
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                found.extend(_table_row(cells, name_col, score_col))
                i += 1
            continue
        i += 1
    return found


def _table_row(cells: list[str], name_col: int, score_col: int | None) -> list[PeerCriterion]:
    if name_col >= len(cells):
        return []
    columns = [score_col] if score_col is not None else range(len(cells))
    for k in columns:
        if k is None or k >= len(cells) or k == name_col:
            continue
        match = FRACTION.search(cells[k]) or re.fullmatch(r"\**\s*(\d(?:\.\d+)?)\s*\**", cells[k])
        if match:
            scale = match.group(2) if match.re is FRACTION else None
            anchor = LINK.search(cells[name_col])
            return [
                PeerCriterion(
                    clean(cells[name_col]),
                    _scaled(match.group(1), scale),
                    text=" | ".join(c for n, c in enumerate(cells) if n != name_col),
                    anchor=anchor.group(2) if anchor else None,
                )
            ]
    return []


def _sections(lines: list[str]) -> list[PeerCriterion]:
    """Every heading with its own text (up to the next heading of the same or higher level)."""
    heads = [
        (n, len(m.group(1)), m.group(2))
        for n, line in enumerate(lines)
        if (m := HEADING.match(line))
    ]
    found: list[PeerCriterion] = []
    for k, (start, level, title) in enumerate(heads):
        end = next((n for n, lvl, _t in heads[k + 1 :] if lvl <= level), len(lines))
        body = "\n".join(lines[start + 1 : end])
        own = "\n".join(lines[start + 1 : heads[k + 1][0]]) if k + 1 < len(heads) else body
        score = None
        match = FRACTION.search(title)
        if match:
            score = _scaled(match.group(1), match.group(2))
            title = title[: match.start()]
        else:
            # Only the heading's own text: a parent heading must not borrow a child's score.
            score = _section_score(own)
        name = clean(re.sub(r"[\s(:—–-]+$", "", title))
        found.append(PeerCriterion(name, score, body))
    return found


def _section_score(body: str) -> float | None:
    matches = list(SCORE_LINE.finditer(body))
    # A "final score" line beats the judges' individual scores quoted above it.
    best = next((m for m in matches if m.group(1)), matches[0] if matches else None)
    return _scaled(best.group(2), best.group(3)) if best else None


def parse_markdown(text: str) -> list[PeerCriterion]:
    """Every criterion-like entry with a score, from tables, headings and bullets.

    Entries are merged by cleaned name: a table's score and a heading's section text
    for the same criterion become one entry.
    """
    lines = text.splitlines()
    merged: dict[str, PeerCriterion] = {}
    for entry in _table_rows(lines) + _sections(lines) + _bullets(lines):
        key = entry.name.lower()
        if not key:
            continue
        old = merged.get(key)
        if old is None:
            merged[key] = entry
            continue
        old.score = old.score if old.score is not None else entry.score
        old.text = "\n".join(t for t in (old.text, entry.text) if t)
        old.anchor = old.anchor or entry.anchor
    return [c for c in merged.values() if c.score is not None or c.text]


def _bullets(lines: list[str]) -> list[PeerCriterion]:
    found = []
    for line in lines:
        match = BULLET.match(line)
        if match:
            fraction = FRACTION.search(match.group(2))
            if fraction:
                score = _scaled(fraction.group(1), fraction.group(2))
                found.append(PeerCriterion(clean(match.group(1)), score, line))
    return found
