"""What the generic detectives and count checks measure: test files, modules, functions."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.generic import measures
from detectives.conftest import OpenCase

NESTED = '''def outer(x):
    if x and x > 1:
        return [y for y in x if y]

    def inner(z):
        if z:
            return 1
        elif z is None:
            return 2
        return 3
    return inner
'''


def test_test_files_by_name_or_folder() -> None:
    assert measures.is_test_file("tests/helpers.py") and measures.is_test_file("pkg/a_test.py")
    assert measures.is_test_file("src/test_a.py") and not measures.is_test_file("src/latest.py")


def test_branches_are_counted_per_function_not_through_nested_ones(
        tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={
        "pkg/__init__.py": "", "pkg/core.py": NESTED,
        "tests/test_core.py": "def test_outer():\n    pass\n\n\ndef helper():\n    pass\n"})
    ws = open_case(repo).workspace
    found = {f.name: (f.location, f.lines, f.branches) for f in measures.functions(ws)}
    # outer: if, the and, the comprehension's for and if; inner: if, elif.
    assert found["outer"] == ("pkg/core.py:1", 11, 4)
    assert found["inner"] == ("pkg/core.py:5", 6, 2)
    assert [f.name for f in measures.test_functions(ws)] == ["test_outer"]
    assert measures.modules(ws) == ["pkg/core.py"]
    assert measures.tests_per_module(ws) == 1.0
    assert [f.name for f in measures.branchy_functions(ws, 3)] == ["outer"]
    assert [f.name for f in measures.long_functions(ws, 10)] == ["outer"]
