"""The offline bench: deterministic judges over the evidence, so Courtroom runs without a key.

Same request, same opinion, always: no clock, no randomness, no network. The lenses live
in lenses.py; hearing rounds (``round > 0``) are decided by court/hearing_rules.py.
"""

from __future__ import annotations

from courtroom.court import hearing_rules
from courtroom.judges import lenses
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.digest import content_digest
from courtroom.judges.facts import Facts
from courtroom.models import JudicialOpinion, opinion_id


def first_opinion(request: JudgeRequest) -> JudicialOpinion:
    """The persona's opening opinion on a criterion, from its lens alone."""
    fields = lenses.BY_PERSONA[request.persona](request.criterion, Facts(tuple(request.evidence)))
    fields.setdefault("charges", None)
    fields.setdefault("mitigations", None)
    return JudicialOpinion(
        opinion_id=opinion_id(
            request.persona, request.criterion.id, content_digest(fields, request.round)
        ),
        judge=request.persona,
        criterion_id=request.criterion.id,
        **fields,
    )


def _hearing(request: JudgeRequest) -> JudicialOpinion:
    # Read at call time: the court's rules import the judges package this module is part of.
    return hearing_rules.revise(request)


class OfflineBackend:
    """Deterministic evidence-driven judges (bench name "offline")."""

    name = "offline"
    #: Not cached: the rules are cheap and a cache would outlive a change of the rules.
    cacheable = False
    model: str | None = None
    api_version: str | None = None

    def estimate_usd(self, request: JudgeRequest, output_tokens: int | None = None) -> None:
        """Free: rules make no request."""
        return None

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """The persona's opinion by rule; never raises for well-formed requests."""
        opinion = _hearing(request) if request.round > 0 else first_opinion(request)
        return opinion, JudgeUsage()
