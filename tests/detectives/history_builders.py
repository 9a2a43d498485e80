"""Histories for the history detective's claims: a finished tree split into commits with
forged dates, and the same files built step by step (earlier files revised)."""

from __future__ import annotations

from pathlib import Path

from builders import Commit, make_repo

from detectives.submissions import DETECTIVES, GRAPH, JUDGES, JUSTICE, STATE, TOOLS


def _module(name: str, functions: int) -> str:
    return "".join(f"def {name}_{i}(x):\n    return x + {i}\n\n" for i in range(functions))


def finished_files() -> list[tuple[str, str]]:
    """A finished agent system, setup and tools first, the graph last: 17 files."""
    return [("pyproject.toml", "[project]\nname='auditor'\n"), ("src/state.py", STATE),
            ("src/config.py", _module("cfg", 10)), ("src/tools/repo_tools.py", TOOLS),
            ("src/tools/pdf_tools.py", _module("pdf", 20)),
            ("src/tools/ast_parse.py", _module("ast", 20)),
            ("src/nodes/detectives.py", DETECTIVES), ("src/tools/git_forensics.py",
                                                        _module("git", 15)),
            ("src/nodes/judges.py", JUDGES), ("src/justice.py", JUSTICE),
            ("src/report_writer.py", _module("rep", 15)), ("src/graph.py", GRAPH),
            ("src/retry.py", _module("retry", 8)), ("src/cli.py", _module("cli", 8)),
            ("tests/test_tools.py", _module("test_t", 10)), ("src/__init__.py", ""),
            ("README.md", "# Auditor\n")]


def forged_date(i: int) -> str:
    # Forged: four tidy sessions a day, five hours apart, over five days.
    return f"2026-02-{1 + i // 4:02d}T{(i % 4) * 5 + 1:02d}:00:00+00:00"


def forged_history(root: Path) -> Path:
    """One finished file per commit, never an edit to an earlier one."""
    return make_repo(root, [Commit(f"Add {p}", {p: c}, date=forged_date(i))
                            for i, (p, c) in enumerate(finished_files())])


def built_history(root: Path) -> Path:
    """The same files, but most commits also wire or fix a file an earlier one wrote."""
    commits: list[Commit] = []
    for i, (path, content) in enumerate(finished_files()):
        change = {path: content}
        if i >= 2:
            change["src/config.py"] = _module("cfg", 10 + i)  # a setting per new part
        commits.append(Commit(f"step {i}", change, date=forged_date(i)))
    return make_repo(root, commits)
