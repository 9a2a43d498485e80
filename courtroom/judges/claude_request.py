"""The one Claude Messages request of a judge, and the one reading of its answer.

Used by the live backend (``anthropic_backend``) and the Message Batches path
(``cohort.batch_api``), so both send byte-identical bodies and read answers alike. No SDK
import here: an answer is either an SDK message or the plain JSON of a batch result.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from courtroom.errors import JudgeOutputError
from courtroom.judges import envelope
from courtroom.judges.base import JudgeRequest
from courtroom.judges.digest import content_digest
from courtroom.models import JudgeName, JudicialOpinion, opinion_id


def first_messages(request: JudgeRequest) -> list[dict[str, Any]]:
    """The conversation of a first ask: the envelope of evidence and instructions."""
    return [{"role": "user", "content": envelope.user_content(request)}]


def params(model: str, max_tokens: int, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The Messages API parameters of one judge call (structured output by JSON schema)."""
    return {
        "model": model,
        "max_tokens": max_tokens,
        "system": envelope.system_blocks(),
        "messages": messages,
        "output_config": {"format": {"type": "json_schema", "schema": envelope.OUTPUT_SCHEMA}},
    }


def _field(item: Any, name: str, default: Any = None) -> Any:
    return item.get(name, default) if isinstance(item, Mapping) else getattr(item, name, default)


def answer_text(message: Any) -> str:
    """The text blocks of an answer, joined and stripped."""
    blocks = _field(message, "content") or []
    return "".join(_field(b, "text", "") for b in blocks if _field(b, "type", "") == "text").strip()


def parse(text: str, message: Any) -> envelope.OpinionDraft:
    """The opinion draft in an answer; JudgeOutputError says what is wrong with it."""
    stop = _field(message, "stop_reason")
    if stop == "max_tokens":
        raise JudgeOutputError("the answer was cut off at max_tokens; answer more briefly")
    if stop == "refusal":
        raise JudgeOutputError("the answer was a refusal, not an opinion")
    body = text
    if body.startswith("```"):
        # Tolerate a fenced answer: the content is what matters, not the wrapping.
        body = body.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise JudgeOutputError(f"not valid JSON ({exc.msg} at position {exc.pos})") from exc
    try:
        return envelope.OpinionDraft.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'answer'}: {e['msg']}" for e in exc.errors()
        )
        raise JudgeOutputError(f"schema violation: {problems}") from exc


def to_opinion(
    judge: JudgeName, criterion_id: str, round_: int, draft: envelope.OpinionDraft
) -> JudicialOpinion:
    """The judicial opinion a validated draft makes (its id derived from its content)."""
    fields = draft.model_dump(mode="json")
    return JudicialOpinion(
        opinion_id=opinion_id(judge, criterion_id, content_digest(fields, round_)),
        judge=judge,
        criterion_id=criterion_id,
        **fields,
    )
