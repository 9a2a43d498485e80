"""The package's layout: its imports run one way, its modules and functions keep to the
house sizes, and its tests mirror it.

Imports: no module imports one that imports it back, counting every import in the file:
at the top, inside a function (a lazy import), and under ``if TYPE_CHECKING:`` (a loop in
the types is a loop in the design, even if it never runs).

Tests: ``tests/<pkgpath>/test_<stem>.py`` or ``test_<stem>_<aspect>.py`` exercises
``courtroom/<pkgpath>/<stem>.py`` (or the subpackage ``courtroom/<pkgpath>/<stem>/``), so a
module's tests are found where the module is. Only the tests of the repository as a whole
(this file, the README's) stand outside, named below.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "courtroom"
#: Top-level test files that check the repository as a whole rather than one module.
WHOLE_REPOSITORY = ("test_layout.py", "test_readme.py")


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    name = _name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    # Importing a.b.c first runs a/__init__ and a/b/__init__: those are imports too, except
    # the importer's own packages, which are already running when it is imported.
    own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    found |= {".".join(other.split(".")[:i]) for other in list(found)
              for i in range(1, other.count(".") + 1)} - own
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


#: The house limits (docs/ARCHITECTURE.md, "Sizes"): split a module along a seam first.
MODULE_LINES, FUNCTION_LINES = 300, 50


def _oversized(package: Path) -> list[str]:
    """Modules over MODULE_LINES lines and functions over FUNCTION_LINES, each named."""
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        shown = path.relative_to(package.parent).as_posix()
        if len(text.splitlines()) > MODULE_LINES:
            found.append(f"{shown}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    found.append(f"{shown}:{node.lineno} {node.name}: {length} lines")
    return found


def test_no_module_or_function_outgrows_the_house_limits() -> None:
    assert _oversized(PACKAGE) == []


def test_the_size_check_names_what_outgrew_its_limit(tmp_path: Path) -> None:
    package = tmp_path / "courtroom"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES))
    (package / "long.py").write_text(f"def grown():\n{body}\n\ndef small():\n    pass\n",
                                     encoding="utf-8")
    (package / "big.py").write_text("X = 1\n" * (MODULE_LINES + 1), encoding="utf-8")
    assert _oversized(package) == [f"courtroom/big.py: {MODULE_LINES + 1} lines",
                                   f"courtroom/long.py:1 grown: {FUNCTION_LINES + 1} lines"]


def _mirrored(folder: Path) -> set[str]:
    """The stems a test file in the matching tests folder may be named after."""
    if not folder.is_dir():
        return set()
    return {path.stem for path in folder.glob("*.py") if path.stem != "__init__"} | {
        path.name for path in folder.iterdir() if (path / "__init__.py").is_file()}


def _misplaced(tests: Path, package: Path, whole: tuple[str, ...] = ()) -> list[str]:
    """Test files named after no module of the package folder they sit in, each with why."""
    found: list[str] = []
    for test in sorted(tests.rglob("test_*.py")):
        rel = test.relative_to(tests)
        if rel.as_posix() in whole:
            continue
        folder = package.joinpath(*rel.parts[:-1])
        name = rel.stem.removeprefix("test_")
        if not any(name == stem or name.startswith(f"{stem}_") for stem in _mirrored(folder)):
            shown = test.relative_to(tests.parent).as_posix()
            where = folder.relative_to(package.parent).as_posix()
            found.append(f"{shown}: no module {where}/<stem>.py or subpackage {where}/<stem>/ "
                         "for test_<stem>[_<aspect>].py")
    return found


def _uncollected(tests: Path) -> list[str]:
    """Files pytest never collects (not test_*.py) that define tests anyway, and the reverse."""
    found: list[str] = []
    for path in sorted(tests.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defines = any(isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
                      for node in ast.walk(tree))
        if defines != path.name.startswith("test_"):
            found.append(path.relative_to(tests.parent).as_posix())
    return found


def test_every_test_file_mirrors_the_module_it_exercises() -> None:
    assert _misplaced(TESTS, PACKAGE, WHOLE_REPOSITORY) == []


def test_the_whole_repository_tests_exist() -> None:
    assert all((TESTS / name).is_file() for name in WHOLE_REPOSITORY)


def test_tests_live_only_in_files_pytest_collects() -> None:
    assert _uncollected(TESTS) == []


def test_the_mirror_check_names_each_misplaced_file(tmp_path: Path) -> None:
    package, tests = tmp_path / "courtroom", tmp_path / "tests"
    for module in ("git.py", "judges/__init__.py", "judges/cache.py", "judges/taint/__init__.py"):
        (package / module).parent.mkdir(parents=True, exist_ok=True)
        (package / module).write_text("", encoding="utf-8")
    for test in ("test_git.py", "test_git_safety.py", "judges/test_cache_keys.py",
                 "judges/test_taint.py", "judges/test_caches.py", "test_fail_closed.py",
                 "cohort/test_batch.py", "test_readme.py", "judges/conftest.py"):
        (tests / test).parent.mkdir(parents=True, exist_ok=True)
        (tests / test).write_text("", encoding="utf-8")
    found = _misplaced(tests, package, ("test_readme.py",))
    assert [line.split(":")[0] for line in found] == [
        "tests/cohort/test_batch.py", "tests/judges/test_caches.py", "tests/test_fail_closed.py"]
    assert found[1] == ("tests/judges/test_caches.py: no module courtroom/judges/<stem>.py or "
                        "subpackage courtroom/judges/<stem>/ for test_<stem>[_<aspect>].py")


def test_the_collection_check_names_stray_tests_and_test_files_without_one(
    tmp_path: Path,
) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "helpers.py").write_text("def test_forgotten() -> None:\n    pass\n",
                                      encoding="utf-8")
    (tests / "test_empty.py").write_text("VALUE = 1\n", encoding="utf-8")
    (tests / "test_real.py").write_text("def test_real() -> None:\n    pass\n",
                                        encoding="utf-8")
    assert _uncollected(tests) == ["tests/helpers.py", "tests/test_empty.py"]
