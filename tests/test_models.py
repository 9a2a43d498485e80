"""The data contract: stable ids from what makes a fact that fact, frozen evidence, bounded
scores, the fixed fallback opinion, and a verdict that survives its own JSON."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from verdict_builders import make_verdict

from courtroom.models import (
    FALLBACK_ARGUMENT,
    Evidence,
    JudicialOpinion,
    Verdict,
    evidence_id,
    opinion_id,
)


def fact(**changes: object) -> Evidence:
    fields: dict[str, object] = {
        "detective": "source", "goal": "state is typed", "found": True,
        "location": "src/state.py:4", "rationale": "read the class", "confidence": 0.8,
        "content": "class AgentState(TypedDict)", "tags": ("state",)}
    return Evidence.make(**{**fields, **changes})  # type: ignore[arg-type]


def test_an_evidence_id_is_the_same_on_every_run_and_machine() -> None:
    # A fixed value: a changed namespace or key layout would orphan every cited id.
    assert evidence_id("d", "g", "l", None) == "6ab530c1-550f-582e-80a5-860c0aca8489"
    assert fact().id == fact().id


@pytest.mark.parametrize("change", [
    {"detective": "tools"}, {"goal": "state is a dict"}, {"location": "src/state.py:5"},
    {"content": "class AgentState(BaseModel)"}])
def test_what_makes_the_fact_changes_its_id(change: dict[str, object]) -> None:
    assert fact(**change).id != fact().id


@pytest.mark.parametrize("change", [
    {"direction": "adverse"}, {"confidence": 0.2}, {"rationale": "other words"},
    {"found": False}, {"tags": ("other",)}])
def test_how_a_fact_is_read_is_not_part_of_its_id(change: dict[str, object]) -> None:
    assert fact(**change).id == fact().id


def test_evidence_is_frozen_its_tags_a_sorted_set_its_direction_context() -> None:
    item = fact(tags=("b", "a", "b"))
    assert item.tags == ["a", "b"] and item.direction == "context"
    with pytest.raises(ValidationError):
        item.goal = "rewritten"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        fact(confidence=1.5)


def test_an_opinion_id_depends_on_judge_criterion_and_salt() -> None:
    ids = {opinion_id(j, c, s) for j in ("Prosecutor", "Defense") for c in ("a", "b")
           for s in ("1", "2")}
    assert len(ids) == 8 and opinion_id("Defense", "a", "1") in ids


def test_the_fallback_opinion_is_fixed_and_flagged() -> None:
    first = JudicialOpinion.fallback_for("TechLead", "c")
    assert first == JudicialOpinion.fallback_for("TechLead", "c")
    assert (first.score, first.argument, first.cited_evidence) == (3, FALLBACK_ARGUMENT, [])
    other = JudicialOpinion.fallback_for("Defense", "c")
    assert first.fallback and first.opinion_id != other.opinion_id


@pytest.mark.parametrize("score", [0, 6])
def test_a_score_outside_one_to_five_is_refused(score: int) -> None:
    with pytest.raises(ValidationError):
        JudicialOpinion(opinion_id="o", judge="Defense", criterion_id="c", score=score,
                        argument="a")


def test_a_verdict_survives_its_own_json() -> None:
    verdict = make_verdict(findings=3)
    again = Verdict.model_validate_json(verdict.model_dump_json())
    assert again == verdict
