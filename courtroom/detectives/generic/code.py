"""Facts about how the code is written, read from its tree-sitter trees: functions over a
size or branch bound, bare or swallowed exceptions, and logging use. Test files are left
out of the first two: a long test or a ``pytest.raises`` idiom is not production code."""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, is_test_path, make
from courtroom.detectives.generic import measures
from courtroom.detectives.parsing import Node, SourceFile, captures, source_index
from courtroom.models import Evidence
from courtroom.untrusted import one_line

SIZE_TAG, EXCEPTIONS_TAG, LOGGING_TAG = "complexity", "exceptions", "logging"
#: A function over this many lines, or with more decisions than this, is a fact.
MAX_LINES, MAX_BRANCHES = 50, 10
#: Facts of one kind listed; the summary counts them all.
MAX_LISTED = 15
#: Statements that do nothing with the exception they follow.
_SILENT = frozenset({"pass_statement", "continue_statement"})
#: Exception classes that catch whatever goes wrong: dropping one of them hides every bug.
#: Dropping a named, expected exception (skip a file that vanished) is handling, not a fact.
_BROAD = re.compile(r"\b(Base)?Exception\b")
_LOGGING = re.compile(r"^(import\s+(logging|structlog|loguru)\b|from\s+(logging|structlog|"
                      r"loguru)\s+import\b)")


@detective("function_size", produces=(
    Produces(SIZE_TAG, REPO, f"a function over {MAX_LINES} lines or {MAX_BRANCHES} branches "
             "(adverse); every function within both bounds (supports)"),))
def function_size(case: Case) -> list[Evidence]:
    """Functions over the size or branch bound, longest first, each at its ``def``."""
    ws = case.workspace
    long = measures.long_functions(ws, MAX_LINES)
    branchy = measures.branchy_functions(ws, MAX_BRANCHES)
    counted = [f for f in measures.functions(ws) if not measures.is_test_file(f.path)]
    if not long and not branchy:
        return [make("function_size", "Functions within the size bounds", bool(counted), ".",
                     f"All {len(counted)} function(s) outside tests have at most {MAX_LINES} "
                     f"lines and {MAX_BRANCHES} branches.", 0.9, (REPO, SIZE_TAG),
                     direction="supports" if counted else "context")]
    out = [make("function_size", "Function over the size bound", True, f.location,
                f"{f.name} has {f.lines} lines (bound {MAX_LINES}).", 0.9, (REPO, SIZE_TAG),
                content=f"{f.name}: {f.lines} lines", direction="adverse",
                fix=f"split {f.name} along a seam.") for f in long[:MAX_LISTED]]
    out += [make("function_size", "Function over the branch bound", True, f.location,
                 f"{f.name} has {f.branches} branches (bound {MAX_BRANCHES}).", 0.85,
                 (REPO, SIZE_TAG), content=f"{f.name}: {f.branches} branches",
                 direction="adverse", fix=f"split {f.name} or replace branches with a table.")
            for f in branchy[:MAX_LISTED]]
    return out


def _handlers(sf: SourceFile) -> list[tuple[Node, bool, bool]]:
    """Each except clause with whether it is bare and whether it swallows every exception
    (a broad class caught, and a body that only passes or continues)."""
    out: list[tuple[Node, bool, bool]] = []
    for node in captures("handlers", sf.root).get("handler", []):
        named = [c for c in node.named_children if c.type != "comment"]
        body = named[-1] if named and named[-1].type == "block" else None
        statements = [c for c in body.named_children if c.type != "comment"] if body else []
        silent = bool(statements) and all(
            s.type in _SILENT or (s.type == "expression_statement"
                                  and [c.type for c in s.named_children] == ["ellipsis"])
            for s in statements)
        bare = len(named) == 1
        broad = bare or bool(_BROAD.search(sf.text(named[0])))
        out.append((node, bare, silent and broad))
    return out


@detective("exceptions", produces=(
    Produces(EXCEPTIONS_TAG, REPO, "a bare except, or an except of Exception whose body "
             "only passes (adverse); none in the code (supports)"),))
def exceptions(case: Case) -> list[Evidence]:
    """Bare ``except:`` clauses and handlers that swallow every exception, at their line."""
    files = [sf for sf in source_index(case.workspace).files if not is_test_path(sf.path)
             and not measures.is_test_file(sf.path)]
    found = [(sf, node, bare, silent) for sf in files
             for node, bare, silent in _handlers(sf) if bare or silent]
    if not found:
        return [make("exceptions", "Exceptions handled explicitly", bool(files), ".",
                     f"No bare except and no broad handler that only passes in {len(files)} "
                     "Python file(s) outside tests.", 0.85, (REPO, EXCEPTIONS_TAG),
                     direction="supports" if files else "context")]
    out: list[Evidence] = []
    for sf, node, bare, silent in found[:MAX_LISTED]:
        what = " and ".join(w for w, on in (("bare", bare), ("swallowed", silent)) if on)
        why = "A bare except catches every exception, KeyboardInterrupt and SystemExit " \
            "included" if bare else "The handler drops every exception, bugs included"
        if bare and silent:
            why += ", and its body only passes"
        out.append(make("exceptions", f"Exception handler {what}", True, sf.loc(node),
                        f"{why}.", 0.9, (REPO, EXCEPTIONS_TAG),
                        content=one_line(sf.text(node), 120), direction="adverse",
                        fix="catch the exceptions you expect and log or re-raise the rest."))
    return out


@detective("logging", produces=(
    Produces(LOGGING_TAG, REPO, "a module importing logging, structlog or loguru (supports); "
             "no module that logs (adverse)"),))
def logging_use(case: Case) -> list[Evidence]:
    """Modules that import a logging library, at the import's line."""
    files = [sf for sf in source_index(case.workspace).files if not is_test_path(sf.path)]
    found: list[tuple[str, str]] = []
    for sf in files:
        lines = sf.source.decode("utf-8", "replace").splitlines()
        at = next((n for n, line in enumerate(lines, 1) if _LOGGING.match(line.strip())), None)
        if at is not None:
            found.append((f"{sf.path}:{at}", lines[at - 1].strip()))
    if not found:
        return [make("logging", "Logging used", False, ".", f"None of {len(files)} Python "
                     "file(s) outside tests imports logging, structlog or loguru.", 0.8,
                     (REPO, LOGGING_TAG), direction="adverse" if files else "context",
                     fix="log through the logging module.")]
    return [make("logging", "Logging used", True, where, f"{where.split(':')[0]} imports a "
                 f"logging library ({len(found)} of {len(files)} file(s) do).", 0.85,
                 (REPO, LOGGING_TAG), content=one_line(line, 120), direction="supports")
            for where, line in found[:MAX_LISTED]]
