"""What the generic detectives and the rubric's count checks measure over a source tree.

Test files and test functions, the modules they could test, and every function's size and
branches, read from the tree-sitter trees the workspace already parsed. Nothing is run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.common import is_test_path
from courtroom.detectives.nodes import SCOPES, walk
from courtroom.detectives.parsing import Node, SourceFile, captures, source_index
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.shared import per_workspace

_TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test)\.py$|(^|/)tests?/")
#: Files that hold no logic a test would be about.
_NOT_MODULES = frozenset({"__init__.py", "__main__.py", "conftest.py", "setup.py",
                          "manage.py", "noxfile.py", "conf.py"})
#: Nodes that add a path through a function (McCabe's decisions, read from the syntax).
BRANCHES = frozenset({"if_statement", "elif_clause", "for_statement", "while_statement",
                      "except_clause", "conditional_expression",
                      "boolean_operator", "case_clause", "for_in_clause", "if_clause"})


@dataclass(frozen=True)
class Function:
    """One function definition: where it starts, its size and its branches."""

    path: str
    line: int
    name: str
    lines: int
    branches: int

    @property
    def location(self) -> str:
        """``path:line`` of its ``def``."""
        return f"{self.path}:{self.line}"


def is_test_file(rel: str) -> bool:
    """Whether a repo-relative path is a Python test file by name or folder."""
    return bool(_TEST_FILE.search(rel))


def test_files(ws: Workspace) -> list[str]:
    """Every Python test file of the tree."""
    return [rel for rel in ws.files((".py",)) if is_test_file(rel)]


def modules(ws: Workspace) -> list[str]:
    """Python modules a test could be about: not tests, fixtures, examples or entry stubs."""
    return [rel for rel in ws.files((".py",)) if not is_test_path(rel)
            and not is_test_file(rel) and rel.rsplit("/", 1)[-1] not in _NOT_MODULES]


def _branches(body: Node) -> int:
    """Decisions inside a function body, not counting nested functions and classes."""
    return sum(node.type in BRANCHES for node in walk(body, SCOPES))


def _of_file(sf: SourceFile) -> list[Function]:
    out: list[Function] = []
    for node in captures("definitions", sf.root).get("function", []):
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is not None and body is not None:
            out.append(Function(sf.path, node.start_point[0] + 1, sf.text(name),
                                node.end_point[0] - node.start_point[0] + 1, _branches(body)))
    return out


@per_workspace
def functions(ws: Workspace) -> list[Function]:
    """Every function and method of every parsed Python file, by path and line."""
    return [f for sf in source_index(ws).files for f in _of_file(sf)]


def test_functions(ws: Workspace) -> list[Function]:
    """Test functions (``test*``) in test files."""
    return [f for f in functions(ws) if is_test_file(f.path) and f.name.startswith("test")]


def long_functions(ws: Workspace, lines: int) -> list[Function]:
    """Functions longer than ``lines`` lines, longest first, outside test files."""
    found = [f for f in functions(ws) if f.lines > lines and not is_test_file(f.path)]
    return sorted(found, key=lambda f: (-f.lines, f.path, f.line))


def branchy_functions(ws: Workspace, branches: int) -> list[Function]:
    """Functions with more than ``branches`` decisions, most first, outside test files."""
    found = [f for f in functions(ws) if f.branches > branches and not is_test_file(f.path)]
    return sorted(found, key=lambda f: (-f.branches, f.path, f.line))


def tests_per_module(ws: Workspace) -> float:
    """Test functions per module (0 when the tree has no module)."""
    count = len(modules(ws))
    return len(test_functions(ws)) / count if count else 0.0
