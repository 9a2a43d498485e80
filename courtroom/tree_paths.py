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


def _class(body: str) -> str:
    negate = body.startswith("!")
    inner = "".join(ch if ch == "-" else re.escape(ch) for ch in body[negate:])
    return f"[{'^' if negate else ''}{inner}]"


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Compile a gitignore-like glob over repo-relative POSIX paths.

    ``*`` and ``?`` stay inside one path part, ``**`` spans parts, a pattern without a
    slash matches a name at any depth, and a match on a folder covers everything under it.
    """
    text = pattern.strip().strip("/")
    anchored = "/" in text
    out: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif text.startswith("**", i):
            out.append(".*")
            i += 2
        elif text[i] == "*":
            out.append("[^/]*")
            i += 1
        elif text[i] == "?":
            out.append("[^/]")
            i += 1
        elif text[i] == "[" and text.find("]", i + 2) != -1:
            end = text.find("]", i + 2)
            out.append(_class(text[i + 1 : end]))
            i = end + 1
        else:
            out.append(re.escape(text[i]))
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"{prefix}{''.join(out)}(?:/.*)?", re.DOTALL)


def matcher(globs: Iterable[str]) -> Callable[[str], bool]:
    """A predicate: does a repo-relative path match any of ``globs``?"""
    compiled = [glob_regex(g) for g in globs if g.strip()]
    return lambda rel: any(rx.fullmatch(rel) for rx in compiled)


def glob_problem(pattern: str) -> str | None:
    """Why a glob cannot name paths inside a tree, or None when it can."""
    text = pattern.strip()
    if not text:
        return "is empty"
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        return "must be relative to the repository root"
    if ".." in PurePosixPath(text).parts or "\x00" in text:
        return "must not contain '..'"
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
