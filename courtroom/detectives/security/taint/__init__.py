"""A taint engine on tree-sitter: attacker data followed from sources to sinks.

``analyse(files)`` interprets every function of the repository over abstract values
(:mod:`values`): constants are folded so dead branches are skipped, containers are tracked
element by element, sanitisers and guards clear the kinds they defend, and calls into
other modules are followed. It never runs the audited code.
"""

from __future__ import annotations

from courtroom.detectives.parsing import SourceFile
from courtroom.detectives.security.taint.engine import Engine
from courtroom.detectives.security.taint.program import Flow
from courtroom.detectives.security.taint.values import Step


def analyse(files: list[SourceFile]) -> list[Flow]:
    """Every flow of attacker data into a sink, sorted by location."""
    return Engine(files).run()


__all__ = ["Engine", "Flow", "Step", "analyse"]
