"""The tests detective: test files and test functions, their ratio to the modules, and which
modules have a test file named after them (a mirrored test folder). Read, never run."""

from __future__ import annotations

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.generic import measures
from courtroom.models import Evidence

NAME = "tests"
TAG = "tests"
#: Modules without a test file named after them, listed one fact each.
MAX_UNTESTED = 10
#: How sure a fact read from file names and ``def test*`` is: a test can be named otherwise.
CONFIDENCE = 0.85


def _mirrored(module: str, tests: set[str]) -> bool:
    """Whether a test file is named after the module (``test_<stem>.py``, ``<stem>_test.py``)."""
    stem = module.rsplit("/", 1)[-1].removesuffix(".py")
    return bool({f"test_{stem}.py", f"{stem}_test.py"} & tests)


def _untested(modules: list[str], tests: list[str]) -> tuple[int, list[Evidence]]:
    names = {rel.rsplit("/", 1)[-1] for rel in tests}
    missing = [m for m in modules if not _mirrored(m, names)]
    facts = [make(NAME, "Module without a test file named after it", True, rel,
                  f"No test_{rel.rsplit('/', 1)[-1]} or *_test.py of that name in the tree.",
                  CONFIDENCE, (REPO, TAG), content=rel, direction="adverse",
                  fix=f"add a test file for {rel}.") for rel in missing[:MAX_UNTESTED]]
    return len(modules) - len(missing), facts


@detective(NAME, produces=(
    Produces(TAG, REPO, "test files and test functions (supports), their ratio to the "
             "modules (context), a module without a test file named after it (adverse), "
             "no test at all (adverse)"),))
def suite(case: Case) -> list[Evidence]:
    """Located facts about the tree's tests."""
    ws = case.workspace
    files, functions, modules = measures.test_files(ws), measures.test_functions(ws), \
        measures.modules(ws)
    if not functions:
        return [make(NAME, "Test functions present", False, ".",
                     f"No test function (def test*) in {len(files)} test file(s); "
                     f"{len(modules)} module(s) have no test.", 0.9, (REPO, TAG),
                     direction="adverse",
                     fix="add tests (pytest collects def test_* in test_*.py).")]
    ratio = len(functions) / len(modules) if modules else float(len(functions))
    mirrored, untested = _untested(modules, files)
    return [
        make(NAME, "Test functions present", True, functions[0].location,
             f"{len(functions)} test function(s) in {len(files)} test file(s).", 0.9,
             (REPO, TAG), content=", ".join(f.location for f in functions[:10]),
             direction="supports"),
        make(NAME, "Test functions per module", True, ".",
             f"{len(functions)} test function(s) for {len(modules)} module(s): "
             f"{ratio:.2f} per module; {mirrored} of {len(modules)} module(s) have a test "
             "file named after them.", CONFIDENCE, (REPO, TAG),
             content=f"{ratio:.2f} tests per module; {mirrored}/{len(modules)} mirrored"),
        *untested,
    ]
