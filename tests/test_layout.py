"""The package's imports run one way: no module imports, at run time, one that imports it back.

Imports under ``if TYPE_CHECKING:`` are left out: they never run, and a recursive evaluator
(the taint package's frame and its statement/expression handlers) names its caller's type
that way on purpose.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "courtroom"


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree: ast.Module) -> list[ast.AST]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return [node for node in ast.walk(tree) if id(node) not in skipped]


def _imports(path: Path, known: set[str]) -> set[str]:
    name = _name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"):
            found.add(str(node.args[0].value))
    return {other for other in found if other in known and other != name}


def _graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {_name(path) for path in paths}
    return {_name(path): _imports(path, known) for path in paths}


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(graph[current])
    return seen


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = _graph()
    loops = sorted(name for name in graph if name in _reaches(graph, name))
    assert loops == []


def test_the_check_sees_a_loop() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [name for name in graph if name in _reaches(graph, name)] == ["a", "b", "c"]


def test_the_graph_holds_the_known_one_way_edges() -> None:
    graph = _graph()
    assert "courtroom.court.hearing_rules" in graph["courtroom.judges.offline"]
    assert "courtroom.cohort.settings" in graph["courtroom.cohort.batch_api"]
    assert "courtroom.judges.offline" not in graph["courtroom.court.hearing_rules"]
