"""The one Claude request and the one reading of its answer, shared by live calls and the
Message Batches path: SDK objects and batch JSON read alike, and every bad answer named."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from courtroom.errors import JudgeOutputError
from courtroom.judges import envelope
from courtroom.judges.base import JudgeRequest
from courtroom.judges.claude_request import answer_text, first_messages, params, parse, to_opinion

from .conftest import make_criterion, mixed_evidence

GOOD = '{"score": 4, "argument": "Argument lists throughout.", "cited_evidence": ["e1"]}'


def test_the_request_carries_the_envelope_and_the_answer_schema() -> None:
    request = JudgeRequest(persona="Defense", criterion=make_criterion(), evidence=mixed_evidence())
    sent = params("claude-sonnet-5-5", 2048, first_messages(request))
    assert sent["output_config"]["format"] == {"type": "json_schema",
                                               "schema": envelope.OUTPUT_SCHEMA}
    assert sent["system"] == envelope.system_blocks()
    assert sent["messages"] == [{"role": "user", "content": envelope.user_content(request)}]
    assert not {"temperature", "top_p", "top_k"} & set(sent)


def test_answers_read_alike_from_batch_json_and_sdk_objects() -> None:
    batch = {"content": [{"type": "thinking", "thinking": "hm"},
                         {"type": "text", "text": " {\"a\":"}, {"type": "text", "text": "1} "}]}
    sdk = SimpleNamespace(content=[SimpleNamespace(type="text", text=GOOD)], stop_reason="end_turn")
    assert answer_text(batch) == '{"a":1}'
    assert parse(answer_text(sdk), sdk).score == 4
    assert answer_text({"content": None}) == ""


def test_a_fenced_answer_is_read_for_its_content() -> None:
    draft = parse(f"```json\n{GOOD}\n```", {"stop_reason": "end_turn"})
    assert draft.cited_evidence == ["e1"]


@pytest.mark.parametrize(("text", "stop", "says"), [
    (GOOD, "max_tokens", "cut off at max_tokens"),
    (GOOD, "refusal", "a refusal, not an opinion"),
    ('{"score": 4,', "end_turn", "not valid JSON (Expecting property name"),
    ('{"score": 9, "argument": "a", "cited_evidence": ["e"]}', "end_turn",
     "schema violation: score: Input should be less than or equal to 5"),
    ('{"score": 3, "argument": "a"}', "end_turn", "schema violation: cited_evidence: Field"),
    ("[1]", "end_turn", "schema violation: answer: "),
])
def test_each_bad_answer_says_what_is_wrong(text: str, stop: str, says: str) -> None:
    with pytest.raises(JudgeOutputError) as caught:
        parse(text, {"stop_reason": stop})
    assert says in str(caught.value)


def test_an_opinion_id_follows_its_content_and_round() -> None:
    draft = parse(GOOD, {})
    first = to_opinion("TechLead", "c", 0, draft)
    assert first == to_opinion("TechLead", "c", 0, draft)
    assert first.opinion_id != to_opinion("TechLead", "c", 1, draft).opinion_id
    other = draft.model_copy(update={"score": 3})
    assert first.opinion_id != to_opinion("TechLead", "c", 0, other).opinion_id
    assert (first.judge, first.criterion_id, first.score) == ("TechLead", "c", 4)
