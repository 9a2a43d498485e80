"""The checks that read files: a tree-sitter query, a path glob, a substring in files.

They read the workspace's listing and its parsed trees (never a path outside the tree,
never a file ``--ignore`` hides) and run nothing. A query's matches are bounded per file
(``MATCH_LIMIT``), a text check reads at most ``MAX_TEXT_FILES`` files, each within the
workspace's size cap.
"""

from __future__ import annotations

import tree_sitter

from courtroom.checks import PathCheck, QueryCheck, TextCheck, python_language
from courtroom.detectives.base import Case, detective
from courtroom.detectives.checks.facts import MAX_FACTS, capped, checks_of, declared
from courtroom.detectives.parsing import source_index
from courtroom.models import Evidence
from courtroom.tree_paths import Globs

#: In-progress matches tree-sitter keeps per file: a query written to match everywhere
#: stops there instead of holding the audit.
MATCH_LIMIT = 256
#: Most files one text check reads.
MAX_TEXT_FILES = 5_000


def _query_hits(case: Case, check: QueryCheck) -> list[tuple[str, str]]:
    query = tree_sitter.Query(python_language(), check.query)
    wanted = Globs([check.glob])
    found: list[tuple[str, str]] = []
    for sf in source_index(case.workspace).files:
        if not wanted(sf.path):
            continue
        cursor = tree_sitter.QueryCursor(query, match_limit=MATCH_LIMIT)
        for name, nodes in sorted(cursor.captures(sf.root).items()):
            if check.capture is not None and name != check.capture:
                continue
            found += [(sf.loc(node), f"@{name} {sf.text(node)}")
                      for node in sorted(nodes, key=lambda n: n.start_byte)]
        if len(found) > MAX_FACTS * 10:
            break
    return sorted(set(found), key=lambda hit: _order(hit[0]))


def _order(location: str) -> tuple[str, int]:
    path, _, line = location.rpartition(":")
    return (path, int(line)) if line.isdigit() else (location, 0)


@detective("check_query", produces=declared("query"))
def query_checks(case: Case) -> list[Evidence]:
    """Each capture of a rubric's tree-sitter query, located at ``path:line``."""
    out: list[Evidence] = []
    for criterion, check in checks_of(case, QueryCheck):
        out += capped("check_query", criterion, check, _query_hits(case, check),
                      f"no {check.language} file matching {check.glob} holds a match")
    return out


@detective("check_path", produces=declared("path"))
def path_checks(case: Case) -> list[Evidence]:
    """Each file a rubric's glob matches, or the fact that none does."""
    out: list[Evidence] = []
    files = case.workspace.files()
    for criterion, check in checks_of(case, PathCheck):
        wanted = Globs([check.glob])
        out += capped("check_path", criterion, check,
                      [(rel, f"{rel} matches {check.glob}") for rel in files if wanted(rel)],
                      f"no file matches {check.glob}")
    return out


def _text_hits(case: Case, check: TextCheck) -> list[tuple[str, str]]:
    wanted = Globs([check.glob])
    needles = [n.lower() for n in check.contains] if check.ignore_case else check.contains
    found: list[tuple[str, str]] = []
    paths = [rel for rel in case.workspace.files() if wanted(rel)][:MAX_TEXT_FILES]
    for rel in paths:
        text = case.workspace.read_text(rel)
        for number, line in enumerate((text or "").splitlines(), start=1):
            seen = line.lower() if check.ignore_case else line
            needle = next((n for n in needles if n in seen), None)
            if needle is not None:
                found.append((f"{rel}:{number}", f"{needle!r} in: {line.strip()}"))
        if len(found) > MAX_FACTS:
            break
    return found


@detective("check_text", produces=declared("text"))
def text_checks(case: Case) -> list[Evidence]:
    """Each line holding one of a rubric's substrings, in the files its glob matches."""
    out: list[Evidence] = []
    for criterion, check in checks_of(case, TextCheck):
        out += capped("check_text", criterion, check, _text_hits(case, check),
                      f"no file matching {check.glob} holds "
                      f"{' or '.join(repr(n) for n in check.contains)}")
    return out
