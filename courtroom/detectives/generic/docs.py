"""The README's sections and the licence, read from the root of the tree.

A section is a Markdown heading (``#``) or a reStructuredText title (a line underlined
with ``=``, ``-`` or ``~``); each kind of section a newcomer looks for is a fact at its
heading's line. The licence is a file at the root, named by its first words when they are
those of a well-known licence, else by the ``license`` key of pyproject.toml.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.repo.workspace import Workspace
from courtroom.models import Evidence
from courtroom.untrusted import one_line

README_TAG, LICENSE_TAG = "readme", "license"
#: The kinds of section a README is read for, with the words of their headings. The first
#: two tell a newcomer how to start: a README without them is an adverse fact.
SECTIONS = (("installation", re.compile(r"install|setup|getting started|quick ?start", re.I)),
            ("usage", re.compile(r"usage|how to use|running|example", re.I)),
            ("testing", re.compile(r"test", re.I)),
            ("configuration", re.compile(r"config|settings|environment", re.I)),
            ("contributing", re.compile(r"contribut|development", re.I)),
            ("licence", re.compile(r"licen[cs]e", re.I)))
_UNDERLINE = re.compile(r"^([=\-~^])\1{2,}\s*$")
_LICENCES = (("MIT", "mit license"), ("Apache-2.0", "apache license"),
             ("GPL", "gnu general public license"), ("LGPL", "gnu lesser general public"),
             ("AGPL", "gnu affero general public"), ("MPL-2.0", "mozilla public license"),
             ("BSD", "bsd "), ("BSD", "redistribution and use in source and binary"),
             ("Unlicense", "free and unencumbered software"), ("ISC", "isc license"))
_LICENCE_KEY = re.compile(r"""^\s*license\s*=\s*(?:\{\s*text\s*=\s*)?["']([^"']{1,80})""")


def _readme(ws: Workspace) -> str | None:
    names = [rel for rel in ws.files() if "/" not in rel and rel.lower().startswith("readme")]
    return min(names, key=lambda rel: (not rel.lower().endswith(".md"), rel), default=None)


def headings(text: str) -> list[tuple[int, str]]:
    """(line, title) of every Markdown heading and reStructuredText title, in order."""
    lines = text.splitlines()
    out: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            out.append((number, line.lstrip("#").strip()))
        elif not fenced and number > 1 and _UNDERLINE.match(line) and lines[number - 2].strip():
            out.append((number - 1, lines[number - 2].strip()))
    return out


@detective("readme", produces=(
    Produces(README_TAG, REPO, "a README (supports) or none (adverse); each section a "
             "newcomer looks for, at its heading (supports); no installation or usage "
             "section (adverse)"),))
def readme(case: Case) -> list[Evidence]:
    """The README and its sections, located at their headings."""
    rel = _readme(case.workspace)
    text = case.workspace.read_text(rel) if rel else None
    if rel is None or text is None:
        return [make("readme", "README present", False, ".", "No README at the root of the "
                     "tree.", 0.95, (REPO, README_TAG), direction="adverse",
                     fix="add a README.md saying what the project is, how to install it and "
                     "how to use it.")]
    found = headings(text)
    out = [make("readme", "README present", True, f"{rel}:1",
                f"{rel} has {len(text.splitlines())} lines and {len(found)} section(s).", 0.95,
                (REPO, README_TAG), content=one_line("; ".join(t for _, t in found), 400),
                direction="supports")]
    for kind, words in SECTIONS:
        at = next(((n, t) for n, t in found if words.search(t)), None)
        if at is not None:
            out.append(make("readme", f"README section: {kind}", True, f"{rel}:{at[0]}",
                            f"The heading {one_line(at[1], 80)!r} starts a {kind} section.",
                            0.8, (REPO, README_TAG), content=one_line(at[1], 120),
                            direction="supports"))
        elif kind in ("installation", "usage"):
            out.append(make("readme", f"README section: {kind}", False, f"{rel}:1",
                            f"No heading of {rel} reads as a {kind} section.",
                            0.7, (REPO, README_TAG), direction="adverse", fix="add one."))
    return out


def _licence_name(text: str) -> str | None:
    start = " ".join(text[:600].lower().split())
    return next((name for name, words in _LICENCES if words in start), None)


@detective("licence", produces=(
    Produces(LICENSE_TAG, REPO, "a licence file or a pyproject licence key, named when it is "
             "a well-known licence (supports); none (adverse)"),))
def licence(case: Case) -> list[Evidence]:
    """The licence file at the root, or the licence pyproject.toml declares."""
    ws = case.workspace
    files = [rel for rel in ws.files() if "/" not in rel
             and re.match(r"(licen[cs]e|copying)(\.|$)", rel.lower())]
    if files:
        rel = files[0]
        name = _licence_name(ws.read_text(rel) or "")
        return [make("licence", "Licence present", True, f"{rel}:1",
                     f"{rel} holds {name or 'a licence this detective does not name'}.", 0.9,
                     (REPO, LICENSE_TAG), content=name or rel, direction="supports")]
    for number, line in enumerate((ws.read_text("pyproject.toml") or "").splitlines(), 1):
        key = _LICENCE_KEY.match(line)
        if key is not None:
            return [make("licence", "Licence present", True, f"pyproject.toml:{number}",
                         "pyproject.toml declares the licence; no licence file is at the "
                         "root.", 0.75, (REPO, LICENSE_TAG), content=key.group(1),
                         direction="supports")]
    return [make("licence", "Licence present", False, ".", "No LICENSE, LICENCE or COPYING "
                 "file at the root and no licence in pyproject.toml.", 0.9, (REPO, LICENSE_TAG),
                 direction="adverse", fix="add a LICENSE file.")]
