"""Paths into the audited tree, which its author controls: globs, in-tree lookups, the PDF.

Everything named from inside the tree (the repository's config file, its rubric and PDF
settings, a repo-relative ``--pdf``) is resolved here, lexically and one component at a
time, so that no ``..``, absolute path or symlink can lead a read outside the tree.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

GLOB_CHARS = frozenset("*?[")


#: Longest glob a configuration may hold: no real ignore rule comes near it, and matching
#: costs the pattern's length for every character of every path.
MAX_GLOB_CHARS = 200
#: Steps followed past the memo, summed over every path, before a list of globs stops
#: matching. Globs built so that each character of each path is new work (many long,
#: starry patterns) give up here and hide nothing more: the audit covers more, never less.
MAX_GLOB_WORK = 10_000_000
#: Steps the memo may hold in all (memory stays bounded); past it the memo starts over.
_MEMO_STEPS = 1_000_000

_State = frozenset[int]


def _class(body: str) -> re.Pattern[str]:
    negate = body.startswith("!")
    inner = "".join(ch if ch == "-" else re.escape(ch) for ch in body[negate:])
    return re.compile(f"[{'^' if negate else ''}{inner}]", re.DOTALL)


def _steps(text: str) -> list[tuple[str, str | re.Pattern[str]]]:
    """A glob as steps: a character, ``one`` (``?``), a class, ``star`` (``*``, inside one
    path part), ``any`` (``**``, across parts) or ``dirs`` (``**/``: whole parts, maybe none)."""
    out: list[tuple[str, str | re.Pattern[str]]] = []
    i = 0
    while i < len(text):
        if text.startswith("**/", i):
            out.append(("dirs", ""))
            i += 3
        elif text.startswith("**", i):
            out.append(("any", ""))
            i += 2
        elif text[i] in "*?":
            out.append(("star" if text[i] == "*" else "one", ""))
            i += 1
        elif text[i] == "[" and text.find("]", i + 2) != -1:
            end = text.find("]", i + 2)
            out.append(("class", _class(text[i + 1 : end])))
            i = end + 1
        else:
            out.append(("char", text[i]))
            i += 1
    return out


class Globs:
    """Gitignore-like globs over repo-relative POSIX paths, matched in linear time.

    ``*`` and ``?`` stay inside one path part, ``**`` spans parts, a pattern without a
    slash matches a name at any depth, and a match on a folder covers everything under it.
    Every step of every glob the path could be at is followed at once, one character at
    a time (the sets met are memoised), so a pattern of many stars costs at most the
    path's length times the patterns', never the retries a backtracking regular
    expression makes, and many globs cost about what one does. Past MAX_GLOB_WORK the
    globs match nothing more (they only ever narrow an audit).
    """

    def __init__(self, patterns: Iterable[str]) -> None:
        self._steps: list[tuple[str, str | re.Pattern[str]]] = []
        starts: set[int] = set()
        for pattern in patterns:
            text = pattern.strip().strip("/")
            if text:
                starts.add(len(self._steps))
                self._steps += ([] if "/" in text else [("dirs", "")]) + _steps(text)
                self._steps.append(("end", ""))
        self._ends = frozenset(i for i, (kind, _) in enumerate(self._steps) if kind == "end")
        self._memo: dict[tuple[_State, str], _State] = {}
        self._memo_steps = self._work = 0
        self._start = self._closure(starts)

    def __call__(self, rel: str) -> bool:
        if self._work > MAX_GLOB_WORK:
            return False
        state = self._start
        for ch in rel:
            if ch == "/" and not self._ends.isdisjoint(state):
                return True  # a folder matched: everything under it is covered
            following = self._memo.get((state, ch))
            if following is None:
                following = self._advance(state, ch)
            if not following:
                return False
            state = following
        return not self._ends.isdisjoint(state)

    def _closure(self, found: set[int]) -> _State:
        """``found`` plus every step reached by letting stars match nothing."""
        todo = list(found)
        while todo:
            at = todo.pop()
            if at >= 0 and self._steps[at][0] in ("star", "any", "dirs") and at + 1 not in found:
                found.add(at + 1)
                todo.append(at + 1)
        return frozenset(found)

    def _advance(self, state: _State, ch: str) -> _State:
        """The steps reached from ``state`` by reading ``ch`` (then memoised)."""
        found: set[int] = set()
        for at in state:
            if at < 0:  # inside a ``dirs`` step, past its last slash
                found.add(-1 - at if ch == "/" else at)
                continue
            kind, arg = self._steps[at]
            if kind == "dirs":
                # ``at`` is where the step may end (its start, after a slash); ``-1 - at``
                # is inside a part, where it may not.
                found.add(at if ch == "/" else -1 - at)
            elif kind == "any" or (kind == "star" and ch != "/"):
                found.add(at)
            elif (kind == "char" and ch == arg) or (kind == "one" and ch != "/") or (
                    isinstance(arg, re.Pattern) and arg.fullmatch(ch)):
                found.add(at + 1)
        following = self._closure(found)
        self._work += len(state)
        self._memo_steps += len(following)
        if self._memo_steps > _MEMO_STEPS:
            self._memo.clear()
            self._memo_steps = len(following)
        self._memo[(state, ch)] = following
        return following


def matcher(globs: Iterable[str]) -> Callable[[str], bool]:
    """A predicate: does a repo-relative path match any of ``globs``?"""
    return Globs(globs)


def glob_problem(pattern: str) -> str | None:
    """Why a glob cannot name paths inside a tree, or None when it can."""
    text = pattern.strip()
    if not text:
        return "is empty"
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        return "must be relative to the repository root"
    if ".." in PurePosixPath(text).parts or "\x00" in text:
        return "must not contain '..'"
    if len(text) > MAX_GLOB_CHARS:
        return f"is longer than {MAX_GLOB_CHARS} characters"
    return None


def inside_tree(root: Path, rel: str | Path) -> Path | None:
    """``root/rel`` when every part of it stays in the tree and none is a symlink, else None.

    The file itself need not exist; callers check. Lexical on purpose: a symlink anywhere
    on the way (even one pointing back inside) is refused, so nothing can be redirected.
    """
    rel_path = Path(rel)
    if rel_path.is_absolute() or not rel_path.parts or "\x00" in str(rel):
        return None
    if any(part in ("..", "") for part in rel_path.parts):
        return None
    here = root
    for part in rel_path.parts:
        if part == ".":
            continue
        here = here / part
        if os.path.islink(here):
            return None
    return here


def glob_in_tree(root: Path, pattern: str) -> Path | None:
    """The first file (sorted) matching ``pattern`` inside the tree, never via a symlink."""
    if glob_problem(pattern) is not None:
        return None
    for found in sorted(root.glob(pattern.strip())):
        rel = found.relative_to(root)
        safe = inside_tree(root, rel)
        if safe is not None and safe.is_file():
            return safe
    return None


@dataclass(frozen=True)
class PdfLookup:
    """Where a PDF setting led: the file found (or None) and every path tried, in order."""

    path: Path | None
    tried: tuple[Path, ...]
    #: A candidate that exists in the tree but only through a symlink (never read).
    refused: Path | None = None

    def missing(self, given: str | Path) -> str:
        """One line saying the PDF was not found, naming each path tried."""
        return f"pdf {given} not found (tried: {', '.join(str(p) for p in self.tried)})"


def find_pdf(given: str | Path, *, base: Path | None, root: Path) -> PdfLookup:
    """Resolve a PDF the same way everywhere: as given (from ``base``), then inside the tree.

    ``base`` is where the operator named it from (the current folder, a manifest's or a
    config file's folder); None when only the tree may hold it. A candidate that lies in the
    tree is read only through the symlink-free lookup, whoever named it.
    """
    root = root.resolve()
    tried: list[Path] = []
    refused: Path | None = None
    candidates: list[Path] = []
    if Path(given).is_absolute() or base is not None:
        candidates.append(Path(os.path.abspath((base or Path.cwd()) / given)))
    if not Path(given).is_absolute():
        candidates.append(root / given)
    for candidate in candidates:
        if candidate in tried:
            continue
        tried.append(candidate)
        if candidate.is_relative_to(root):
            safe = inside_tree(root, candidate.relative_to(root))
            if safe is not None and safe.is_file():
                return PdfLookup(safe, tuple(tried))
            if safe is None and os.path.lexists(candidate):
                refused = refused or candidate
        elif candidate.is_file():
            return PdfLookup(candidate, tuple(tried))
    return PdfLookup(None, tuple(tried), refused)
