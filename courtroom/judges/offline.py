"""The offline bench: deterministic judges over the evidence, so Courtroom runs without a key.

Same request, same opinion, always: no clock, no randomness, no network. The lenses live
in lenses.py; hearing rounds (``round > 0``) are decided by hearing_rules.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from courtroom.judges import lenses
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.digest import content_digest
from courtroom.judges.facts import Facts
from courtroom.models import JudgeName, JudicialOpinion, opinion_id
from courtroom.rubric import Dimension

LENSES: dict[JudgeName, Callable[[Dimension, Facts], lenses.Fields]] = {
    "Prosecutor": lenses.prosecutor,
    "Defense": lenses.defense,
    "TechLead": lenses.tech_lead,
}


def first_opinion(request: JudgeRequest) -> JudicialOpinion:
    """The persona's opening opinion on a criterion, from its lens alone."""
    fields = LENSES[request.persona](request.dimension, Facts(tuple(request.evidence)))
    fields.setdefault("charges", None)
    fields.setdefault("mitigations", None)
    return JudicialOpinion(
        opinion_id=opinion_id(
            request.persona, request.dimension.id, content_digest(fields, request.round)
        ),
        judge=request.persona,
        criterion_id=request.dimension.id,
        **fields,
    )


def _hearing(request: JudgeRequest) -> JudicialOpinion:
    try:
        # Imported here: hearing_rules belongs to the court phase and may be absent.
        rules = importlib.import_module("courtroom.court.hearing_rules")
    except ModuleNotFoundError as exc:
        if exc.name != "courtroom.court.hearing_rules":
            raise
        # Without hearing rules a judge simply stands by its previous opinion.
        return request.previous or first_opinion(request)
    opinion: JudicialOpinion = rules.revise(request)
    return opinion


class OfflineBackend:
    """Deterministic evidence-driven judges (bench name "offline")."""

    name = "offline"
    #: Not cached: the rules are cheap and a cache would outlive a change of the rules.
    cacheable = False
    model: str | None = None
    api_version: str | None = None

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """The persona's opinion by rule; never raises for well-formed requests."""
        opinion = _hearing(request) if request.round > 0 else first_opinion(request)
        return opinion, JudgeUsage()
