"""A case whose rubric holds given checks, for the check detectives' tests."""

from __future__ import annotations

from pathlib import Path

from courtroom.detectives import Case
from courtroom.rubric import Criterion
from detectives.conftest import OpenCase


def case_with(open_case: OpenCase, repo: Path, **checks: list[dict[str, object]]) -> Case:
    """Open ``repo`` with one criterion per keyword, each holding its checks."""
    criteria = tuple(Criterion.model_validate({
        "id": ident, "name": ident, "target_artifact": "github_repo",
        "forensic_instruction": "Look.", "checks": items}) for ident, items in checks.items())
    case = open_case(repo)
    return Case(workspace=case.workspace, criteria=criteria)
