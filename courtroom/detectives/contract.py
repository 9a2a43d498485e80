"""The evidence contract: which detectives a rubric runs, which tags their facts carry,
and the check a rubric's ``evidence_tags`` must pass before any work starts.

Every detective declares the tags it puts on facts (``base.declares``); a profile's
detectives run only for a rubric that names that profile (``rubric_metadata.profile``).
A rubric naming a tag none of its detectives produces would be judged on nothing it
asked for, so loading it fails with one line instead (DESIGN §4, rubric fields).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from pathlib import Path

from courtroom.checks import criterion_tag
from courtroom.detectives import coverage, remand
from courtroom.detectives.base import CONTRACT, PROFILES, Produces
from courtroom.detectives.common import IMAGES, PDF, REPO
from courtroom.errors import RubricError
from courtroom.resources import bundled_rubrics
from courtroom.rubric import Rubric, load_rubric

#: Facts that come from the runner and the court, not from a registered detective.
OWN_FACTS: dict[str, tuple[Produces, ...]] = {
    coverage.NAME: coverage.PRODUCES,
    remand.NAME: remand.PRODUCES,
}


def profiles() -> set[str]:
    """Every profile some registered detective belongs to."""
    return {p for p in PROFILES.values() if p is not None}


def detectives_for(profile: str | None) -> list[str]:
    """The registered detectives a rubric with ``profile`` runs: the general ones and that
    profile's."""
    return sorted(name for name, own in PROFILES.items() if own is None or own == profile)


def produced(profile: str | None) -> set[str]:
    """Every tag the facts of a rubric with ``profile`` may carry."""
    declared = [*OWN_FACTS.values(), *(CONTRACT[n] for n in detectives_for(profile))]
    return {REPO, PDF, IMAGES} | {p.tag for kinds in declared for p in kinds}


def is_general(detective_name: str) -> bool:
    """Whether a fact's detective belongs to no profile (the runner's own facts included)."""
    return PROFILES.get(detective_name) is None


def check_rubric(rubric: Rubric, source: str = "rubric",
                 declared: Mapping[str, Set[str]] | None = None) -> None:
    """Raise RubricError, one line, on an unknown profile or an ``evidence_tags`` entry no
    detective the rubric runs produces. A criterion with declarative checks may name its
    own ``criterion:<id>``; ``declared`` adds further tags per criterion id."""
    profile = rubric.rubric_metadata.profile
    if profile is not None and profile not in profiles():
        known = ", ".join(sorted(profiles())) or "none"
        raise RubricError(f"{source}: rubric_metadata.profile: unknown profile {profile!r} "
                          f"(known: {known})")
    tags = produced(profile)
    extra = declared or {}
    for i, criterion in enumerate(rubric.criteria):
        own = {criterion_tag(criterion.id)} if criterion.checks else set()
        mine = tags | own | set(extra.get(criterion.id, ()))
        for tag in criterion.evidence_tags or ():
            if tag not in mine:
                raise RubricError(f"{source}: dimensions[{i}]({criterion.id}).evidence_tags: "
                                  f"{_why_unknown(tag, profile)}")


def _why_unknown(tag: str, profile: str | None) -> str:
    owners = sorted({own for name, own in PROFILES.items() if own is not None
                     and own != profile and any(p.tag == tag for p in CONTRACT[name])})
    if owners:
        return (f"{tag!r} is produced only by the {owners[0]!r} profile's detectives; "
                f"set rubric_metadata.profile to {owners[0]!r} or drop the tag")
    return f"no detective produces {tag!r} (docs/ARCHITECTURE.md lists the tags)"


def with_profile(rubric: Rubric) -> Rubric:
    """The rubric with what its profile covers: an untagged criterion takes the tags the
    profile's own bundled rubric (``rubrics/<profile>.json``) gives the criterion of the
    same id, so a team's copy of that rubric without tags is judged as the original."""
    profile = rubric.rubric_metadata.profile
    own = bundled_rubrics().get(profile) if profile else None
    if own is None:
        return rubric
    tags = {d.id: d.evidence_tags for d in load_rubric(own).criteria}
    criteria = [d if d.evidence_tags or not tags.get(d.id)
                else d.model_copy(update={"evidence_tags": tags[d.id]}) for d in rubric.criteria]
    return rubric.model_copy(update={"criteria": criteria})


def load_checked(path: Path, declared: Mapping[str, Set[str]] | None = None) -> Rubric:
    """Load a rubric, fill in what its profile covers, and hold it to the evidence
    contract (RubricError, exit 2)."""
    rubric = with_profile(load_rubric(path))
    check_rubric(rubric, str(path), declared)
    return rubric
