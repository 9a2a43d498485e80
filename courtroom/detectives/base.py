"""What every detective receives and returns, and the plain registry they live in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom.models import Evidence

if TYPE_CHECKING:
    from courtroom.detectives.repo.workspace import Workspace
    from courtroom.detectives.report.image_claude import Transcriber
    from courtroom.rubric import Dimension


@dataclass(frozen=True)
class Case:
    """The material under investigation: a read-only workspace and an optional PDF."""

    workspace: Workspace
    pdf: Path | None = None
    pdf_display: str | None = None
    #: The rubric's dimensions: the report detective reads its concepts from them.
    dimensions: tuple[Dimension, ...] = ()
    #: Claude's reading of diagram images, set only when Claude judges the audit (the
    #: judges' client); None offline, and then no image leaves the machine.
    transcriber: Transcriber | None = None


Detective = Callable[[Case], list[Evidence]]

#: name -> detective. Filled by ``courtroom.detectives`` at import; plain on purpose.
REGISTRY: dict[str, Detective] = {}


def detective(name: str) -> Callable[[Detective], Detective]:
    """Register a detective function under ``name``."""

    def register(fn: Detective) -> Detective:
        REGISTRY[name] = fn
        return fn

    return register
