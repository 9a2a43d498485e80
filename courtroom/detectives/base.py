"""What every detective receives and returns, and the plain registry they live in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom.findings import SecurityReport
from courtroom.models import Evidence

if TYPE_CHECKING:
    from courtroom.detectives.repo.workspace import Workspace
    from courtroom.detectives.report.image_claude import Transcriber
    from courtroom.diff import Diff
    from courtroom.rubric import Criterion


@dataclass(frozen=True)
class Case:
    """The material under investigation: a read-only workspace and an optional PDF."""

    workspace: Workspace
    pdf: Path | None = None
    pdf_display: str | None = None
    #: The rubric's criteria: the report detective reads its concepts from them.
    criteria: tuple[Criterion, ...] = ()
    #: Claude's reading of diagram images, set only when Claude judges the audit (the
    #: judges' client); None offline, and then no image leaves the machine.
    transcriber: Transcriber | None = None
    #: The change under review over its base commit (a pull request, ``--base REF``).
    diff: Diff | None = None


@dataclass(frozen=True)
class Detected:
    """What a detective hands back when it made more than facts: the security scan's report
    travels here, in the detective's own return value, to the verdict."""

    evidence: list[Evidence]
    security: SecurityReport | None = None


#: A detective returns its facts, or its facts with what else it made (``Detected``).
Detective = Callable[[Case], "list[Evidence] | Detected"]


@dataclass(frozen=True)
class Produces:
    """One kind of fact a detective declares: the tag it carries, the artifact it is about
    (``github_repo``, ``pdf_report``, ``pdf_images``) and what such a fact means."""

    tag: str
    artifact: str
    meaning: str


#: The profile of the Week-2 "Automaton Auditor" rubric: detectives that know LangGraph
#: graphs, judge personas and chief-justice code. A rubric selects it by name
#: (``rubric_metadata.profile``); no other rubric runs them or sees their facts.
AUTOMATON_AUDITOR = "automaton-auditor"


def declares(artifact: str, meanings: dict[str, str]) -> tuple[Produces, ...]:
    """A detective's declaration: every tag it puts on facts about ``artifact``, with what a
    fact so tagged means (the artifact tag itself, carried by every fact, is implied)."""
    return tuple(Produces(tag, artifact, meaning) for tag, meaning in meanings.items())


#: name -> detective. Filled by ``courtroom.detectives`` at import; plain on purpose.
REGISTRY: dict[str, Detective] = {}
#: name -> the kinds of fact the detective declares (the evidence contract).
CONTRACT: dict[str, tuple[Produces, ...]] = {}
#: name -> the profile whose rubrics select the detective; None: every rubric.
PROFILES: dict[str, str | None] = {}


def detective(name: str, *, produces: tuple[Produces, ...] = (),
              profile: str | None = None) -> Callable[[Detective], Detective]:
    """Register a detective function under ``name`` with what it declares it produces."""

    def register(fn: Detective) -> Detective:
        REGISTRY[name] = fn
        CONTRACT[name] = produces
        PROFILES[name] = profile
        return fn

    return register
