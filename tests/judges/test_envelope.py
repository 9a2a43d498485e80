"""The request envelope: a prefix the three personas share, a hearing only in a hearing,
cut text that says it was cut, and an answer schema that agrees with its validator."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from courtroom.judges.base import JudgeRequest
from courtroom.judges.envelope import (
    EVIDENCE_TAG,
    MAX_CONTENT,
    MAX_PEER_ARGUMENT,
    OUTPUT_SCHEMA,
    PEERS_TAG,
    PREVIOUS_TAG,
    OpinionDraft,
    evidence_data,
    opinion_data,
    system_blocks,
    user_content,
)
from courtroom.models import JUDGES, JudgeName, JudicialOpinion, opinion_id

from .conftest import ev, make_criterion, mixed_evidence


def peer(judge: JudgeName = "Defense", argument: str = "Partial credit.") -> JudicialOpinion:
    return JudicialOpinion(opinion_id=opinion_id(judge, "c", "p"), judge=judge,
                           criterion_id="c", score=4, argument=argument, cited_evidence=["e"])


def data_of(text: str, tag: str) -> Any:
    return json.loads(text.split(f"<{tag}>\n", 1)[1].split(f"\n</{tag}>", 1)[0])


def test_the_three_personas_share_one_cached_prefix_then_differ() -> None:
    firsts, seconds = [], []
    for persona in JUDGES:
        blocks = user_content(JudgeRequest(persona=persona, criterion=make_criterion(),
                                           evidence=mixed_evidence()))
        assert len(blocks) == 2 and "cache_control" in blocks[0]
        assert "cache_control" not in blocks[1]
        firsts.append(blocks[0]["text"])
        seconds.append(blocks[1]["text"])
    assert len(set(firsts)) == 1 and len(set(seconds)) == 3
    (system,) = system_blocks()
    assert system["cache_control"] == {"type": "ephemeral"}


def test_a_hearing_round_adds_the_peers_and_the_judges_own_last_word() -> None:
    request = JudgeRequest(persona="Prosecutor", criterion=make_criterion(), evidence=[],
                           round=1, peers=[peer()], previous=peer("Prosecutor"))
    *_shared, hearing = user_content(request)
    (shown,) = data_of(hearing["text"], PEERS_TAG)
    assert shown["judge"] == "Defense" and shown["score"] == 4
    assert data_of(hearing["text"], PREVIOUS_TAG)["judge"] == "Prosecutor"
    first = request.model_copy(update={"previous": None})
    assert PREVIOUS_TAG not in user_content(first)[-1]["text"]


def test_what_was_left_out_is_in_the_data_sorted() -> None:
    request = JudgeRequest(persona="Defense", criterion=make_criterion(), evidence=mixed_evidence(),
                           omitted={"tools, supports": 2, "git, context": 5})
    data = data_of(user_content(request)[0]["text"], EVIDENCE_TAG)
    assert list(data["left_out"].items()) == [("git, context", 5), ("tools, supports", 2)]
    plain = request.model_copy(update={"omitted": {}})
    assert "left_out" not in data_of(user_content(plain)[0]["text"], EVIDENCE_TAG)


def test_long_text_is_cut_with_a_marker_the_judge_can_see() -> None:
    (item,) = evidence_data([ev("big file", content="x" * (MAX_CONTENT + 50))])
    assert item["content"] == "x" * MAX_CONTENT + " …[truncated]"
    assert evidence_data([ev("no content")])[0]["content"] is None
    shown = opinion_data(peer(argument="y" * 1000))["argument"]
    assert shown == "y" * MAX_PEER_ARGUMENT + " …[truncated]"


def test_the_answer_schema_names_exactly_the_drafts_fields() -> None:
    fields = OpinionDraft.model_fields
    assert set(OUTPUT_SCHEMA["properties"]) == set(fields)
    assert set(OUTPUT_SCHEMA["required"]) == {n for n, f in fields.items() if f.is_required()}


@pytest.mark.parametrize("answer", [
    {"score": 6, "argument": "a", "cited_evidence": ["e"]},
    {"score": 3, "argument": "   ", "cited_evidence": ["e"]},
    {"score": 3, "argument": "a", "cited_evidence": []},
    {"score": 3, "cited_evidence": ["e"]},
])
def test_an_answer_outside_the_contract_is_refused(answer: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        OpinionDraft.model_validate(answer)
