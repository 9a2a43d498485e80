"""The detectives: sandboxed workspace, git history, tree-sitter source facts, security,
PDF report and diagrams. Importing this package fills ``base.REGISTRY``.

Public API for the pipeline and the court:

- ``open_workspace(target, *, timeout, ignore=())`` -> context manager yielding a
  ``Workspace``;
- ``run_detectives(case, *, trace=None, max_workers=None, retries=3, deadline=300)`` ->
  a ``Detection`` (evidence, problems, the security report);
- ``investigate(case, requests)`` -> evidence answering a court remand.
"""

from __future__ import annotations

from courtroom.detectives.base import REGISTRY, Case, detective
from courtroom.detectives.checks import files, measured  # noqa: F401
from courtroom.detectives.generic import (
    code,  # noqa: F401
    dependencies,  # noqa: F401
    docs,  # noqa: F401
    secrets,  # noqa: F401
    tests,  # noqa: F401
    tooling,  # noqa: F401
)
from courtroom.detectives.remand import investigate

# Detective modules imported for their @detective registration (the noqa lines).
from courtroom.detectives.repo import (
    changes,  # noqa: F401
    history,  # noqa: F401
    judge_code,  # noqa: F401
    orchestration,  # noqa: F401
    source,  # noqa: F401
    state_flow,  # noqa: F401
    tools,  # noqa: F401
)
from courtroom.detectives.repo.workspace import Workspace, open_workspace
from courtroom.detectives.report import detective as report  # noqa: F401
from courtroom.detectives.report import diagrams  # noqa: F401
from courtroom.detectives.runner import run_detectives
from courtroom.detectives.security import detective as security  # noqa: F401

__all__ = [
    "REGISTRY",
    "Case",
    "Workspace",
    "detective",
    "investigate",
    "open_workspace",
    "run_detectives",
]
