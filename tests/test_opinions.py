from __future__ import annotations

from courtroom.models import JudicialOpinion
from courtroom.opinions import opinion_id


def test_opinion_ids_keep_the_value_cached_opinions_were_stored_under() -> None:
    # A cache keyed by opinion id survives releases only if the id's namespace never moves.
    assert opinion_id("Prosecutor", "c1", "fallback") == "74d04387-3491-54b6-9dcf-f938715a6372"


def test_the_contract_module_hands_out_the_same_opinion_model() -> None:
    fallback = JudicialOpinion.fallback_for("Defense", "c1")
    assert fallback.fallback and fallback.score == 3
    assert fallback.opinion_id == opinion_id("Defense", "c1", "fallback")
