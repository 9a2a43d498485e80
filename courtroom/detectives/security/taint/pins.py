"""Which version of a library the repository asks for, read from its dependency files.

A library's defaults can change what a call does: lxml resolved external entities by
default before 5.0 and resolves only internal ones since. A repository that pins the
library below the version that changed it gets the old default; one that pins nothing
gets the current release.
"""

from __future__ import annotations

import re

#: Files that declare dependencies (matched by their name).
MANIFESTS = re.compile(r"(^|/)(requirements[^/]*(/[^/]+)?\.(txt|in)|pyproject\.toml|setup\.cfg"
                       r"|Pipfile|Pipfile\.lock|poetry\.lock|uv\.lock|environment\.ya?ml)$")
_CLAUSE = re.compile(r"(===|==|~=|<=|>=|!=|<|>|\^|~|=)\s*[\"']?\s*(\d+(?:\.\d+)*)")
#: Operators that cap the version at their number (``==4.9``, ``^4.9``: below 5).
_CAPS = frozenset({"===", "==", "~=", "^", "~", "="})


def _caps_below(operator: str, version: str, major: int) -> bool:
    parts = [int(p) for p in version.split(".")]
    if operator in _CAPS or operator == "<=":
        return parts[0] < major
    # ``<5`` and ``<5.0`` cap below 5; ``<5.2`` lets 5.1 in.
    return operator == "<" and (parts[0] < major or (parts[0] == major and not any(parts[1:])))


def below(files: dict[str, str], name: str, major: int) -> bool:
    """Whether a dependency file pins ``name`` to a release before ``major``: its
    requirement's clauses (``lxml>=4,<5``, ``lxml = "^4.9"``) up to a marker or comment,
    or a lock file's ``version`` line after ``name = "lxml"``."""
    token = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", re.I)
    for path, text in files.items():
        if not MANIFESTS.search(path):
            continue
        for found in token.finditer(text):
            if "#" in text[text.rfind("\n", 0, found.start()) + 1:found.start()]:
                continue  # a comment
            for clause in _CLAUSE.finditer(_clauses(text, found.end())):
                if _caps_below(clause.group(1), clause.group(2), major):
                    return True
    return False


def _clauses(text: str, start: int) -> str:
    """The version clauses after a requirement's name: its line up to a marker or comment,
    and a lock file's next line when it is the ``version``."""
    end = _line_end(text, start)
    clauses = re.split(r"[;#]", text[start:end])[0]
    after = text[end + 1:_line_end(text, end + 1)]
    return f"{clauses} {after}" if re.match(r"\s*version\s*=", after) else clauses


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end
