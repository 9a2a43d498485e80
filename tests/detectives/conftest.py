"""Shared fixtures for detective tests: opened workspaces over built submissions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from courtroom.detectives import Case, open_workspace

OpenCase = Callable[..., Case]


@pytest.fixture
def open_case() -> Iterator[OpenCase]:
    """Open a Case over a repository path (and optional PDF); closed after the test."""
    stack = ExitStack()

    def opener(repo: Path, pdf: Path | None = None) -> Case:
        ws = stack.enter_context(open_workspace(str(repo), timeout=30))
        return Case(workspace=ws, pdf=pdf, pdf_display=pdf.name if pdf else None)

    with stack:
        yield opener


def by_goal(evidence: list, goal: str) -> list:
    """Evidence items whose goal starts with ``goal``."""
    return [e for e in evidence if e.goal.startswith(goal)]
