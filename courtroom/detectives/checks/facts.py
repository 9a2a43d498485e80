"""How a declarative check becomes facts: which checks a case holds, and one fact's shape.

Every fact names its criterion in its tags (``criterion:<id>``, so the docket shows it to
that criterion alone) and in its content (so two criteria holding the same check get two
facts with two ids). A hit points the way the check's ``hit`` says; the one fact saying
nothing was found points the way of its ``miss``, and it is ``found`` only when that
absence is what the criterion wants (an established absence is credit; a gap is not).
"""

from __future__ import annotations

from typing import Literal, TypeVar

from courtroom.checks import CHECK_TAG, BaseCheck, criterion_tag
from courtroom.detectives.base import Case, Produces
from courtroom.detectives.common import REPO, make
from courtroom.models import Evidence
from courtroom.untrusted import one_line

#: Most facts one check yields; its summary says how many there were in all.
MAX_FACTS = 20
#: How sure a check is of what it read: it reads the tree exactly, but a rubric's query or
#: pattern may catch more, or less, than its author meant.
CONFIDENCE = 0.9

C = TypeVar("C", bound=BaseCheck)


def declared(kind: Literal["query", "path", "text", "count", "git", "security"]
             ) -> tuple[Produces, ...]:
    """The evidence contract of the detective running one kind of check."""
    return (Produces(CHECK_TAG, REPO, f"a rubric's {kind} check held (or not), also tagged "
                     "criterion:<id> for the criterion declaring it"),)


def checks_of(case: Case, kind: type[C]) -> list[tuple[str, C]]:
    """The (criterion id, check) pairs of one kind in the case's rubric, in rubric order."""
    return [(criterion.id, check) for criterion in case.criteria for check in criterion.checks
            if isinstance(check, kind)]


def hit(name: str, criterion: str, check: BaseCheck, location: str, detail: str,
        extra_tags: tuple[str, ...] = ()) -> Evidence:
    """One thing the check found, at ``location``."""
    fix = f"change it so that the check no longer finds {check.meaning!r}." \
        if check.hit == "adverse" else None
    return make(name, check.meaning, True, location,
                f"The rubric's {check.kind} check of criterion {criterion} found this: "
                f"{one_line(detail, 200)}.", CONFIDENCE,
                (CHECK_TAG, criterion_tag(criterion), *extra_tags),
                content=f"{criterion}: {one_line(detail, 300)}", direction=check.direction(True),
                fix=fix)


def miss(name: str, criterion: str, check: BaseCheck, detail: str, location: str = ".",
         confidence: float = CONFIDENCE) -> Evidence:
    """The fact that the check found nothing (or its number fell outside the bound);
    ``confidence`` lower when part of the tree could not be read."""
    direction = check.direction(False)
    fix = f"make the tree show {check.meaning!r}." if direction == "adverse" else None
    return make(name, f"Not found: {check.meaning}", direction == "supports", location,
                f"The rubric's {check.kind} check of criterion {criterion} found nothing: "
                f"{one_line(detail, 200)}.", confidence,
                (CHECK_TAG, criterion_tag(criterion)),
                content=f"{criterion}: {one_line(detail, 300)}", direction=direction, fix=fix)


def capped(name: str, criterion: str, check: BaseCheck, found: list[tuple[str, str]],
           nothing: str) -> list[Evidence]:
    """Hits as (location, detail), at most MAX_FACTS of them, or the one miss."""
    if not found:
        return [miss(name, criterion, check, nothing)]
    out = [hit(name, criterion, check, where, what) for where, what in found[:MAX_FACTS]]
    if len(found) > MAX_FACTS:
        out.append(hit(name, criterion, check, ".", f"more than {MAX_FACTS} places; the "
                       f"first {MAX_FACTS} are listed"))
    return out
