"""`courtroom compare A B`: where two audits of one submission disagree, and on what evidence.

Each side is our ``verdict.json`` or a Markdown report (ours or a peer's), read by
``courtroom.cohort.sides``. Two verdicts of different code or rubrics are said to be so
in the first line. Criteria are matched by id, then by normalised name. For each
criterion the output says both scores, the gap, what each side cited, and flags what the
second audit (usually the peer's) points at that the first audit's evidence never looked
at: that is where the auditor itself can be improved. Reports conventionally live in the
SELF_DIR, PEER_DIR and RECEIVED_DIR folders of ``courtroom.settings.config``.
"""

from __future__ import annotations

import argparse
import difflib
import re
from pathlib import Path

from courtroom.cohort.sides import Audit, View, load_audit, normalise
from courtroom.errors import EXIT_OK


def _repo_key(repo: str) -> str:
    """One spelling per GitHub repository: a URL, an SSH address and owner/name agree."""
    key = repo.strip().lower().rstrip("/").removesuffix(".git")
    return re.sub(r"^(?:https?://github\.com/|git@github\.com:)", "", key)


def target_mismatch(a: Audit, b: Audit) -> str | None:
    """One line when two verdicts measured different code or used different rubrics.

    The same commit under another name (a fork, a local path) is the same code; a rubric
    is the same only when its content hash is.
    """
    x, y = a.subject, b.subject
    if x is None or y is None:
        return None
    differs = []
    if _repo_key(x.repo) != _repo_key(y.repo) and (not x.commit or x.commit != y.commit):
        differs.append(f"repo {x.repo} vs {y.repo}")
    if x.rubric_sha256 != y.rubric_sha256:
        differs.append(f"rubric {x.rubric} ({x.rubric_sha256[:12] or '?'}) vs "
                       f"{y.rubric} ({y.rubric_sha256[:12] or '?'})")
    if not differs:
        return None
    return ("WARNING: A and B audited different targets (" + "; ".join(differs)
            + "): their scores do not measure the same thing.")


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
    mismatch = target_mismatch(a, b)
    lines = [*([mismatch] if mismatch else []),
             f"A: {a.source} ({a.kind})", f"B: {b.source} ({b.kind})", ""]
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
