"""The detectives: sandboxed workspace, git history, tree-sitter source facts, security,
PDF report and diagrams. Importing this package fills ``base.REGISTRY``.

Public API for the pipeline and the court:

- ``open_workspace(target, *, timeout, ignore=())`` -> context manager yielding a
  ``Workspace``;
- ``run_detectives(case, *, trace=None, max_workers=None, retries=3, deadline=300)`` ->
  ``(evidence, errors)``;
- ``investigate(case, requests)`` -> evidence answering a court remand.
"""

from __future__ import annotations

from courtroom.detectives import (  # noqa: F401 - imported for their @detective registration
    diagrams,
    history,
    judging,
    orchestration,
    report,
    security,
    source,
    tools,
)
from courtroom.detectives.base import REGISTRY, Case, detective
from courtroom.detectives.remand import investigate
from courtroom.detectives.runner import LAST_TIMINGS, run_detectives
from courtroom.detectives.workspace import Workspace, open_workspace

__all__ = [
    "LAST_TIMINGS",
    "REGISTRY",
    "Case",
    "Workspace",
    "detective",
    "investigate",
    "open_workspace",
    "run_detectives",
]
