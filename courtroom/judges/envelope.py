"""What a Claude judge is sent and what it must send back, as plain data (no SDK import).

Layout of one request, in order, so the untrusted data always follows the instructions
and the three personas of a criterion share one cacheable prefix:

    system    shared task block (identical for every call)            cache breakpoint
    user      criterion block + <criterion_evidence> JSON data        cache breakpoint
              persona block (the seat's philosophy + rubric guidance)
              [hearing round: instruction + <peer_opinions> / <previous_opinion> data]

Untrusted text (repository files, commit messages, PDF text, other judges' arguments) only
ever appears JSON-encoded inside a data block, with every ``<`` and ``>`` escaped and
conversation markers ("Human:", "Assistant:", "System:") marked as quoted, so no data can
close its block or open a turn. Nothing from the environment or configuration is included.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

from courtroom.detectives.repo.changes import DIFF_TAG
from courtroom.judges import personas
from courtroom.judges.base import JudgeRequest
from courtroom.models import Evidence, EvidenceRequest, JudicialOpinion

EVIDENCE_TAG = "criterion_evidence"
PEERS_TAG = "peer_opinions"
PREVIOUS_TAG = "previous_opinion"

#: Longest evidence excerpt sent (characters); the full text stays in verdict.json.
MAX_CONTENT = 4000
#: Longest peer argument shown during a hearing (untrusted and length-limited by design).
MAX_PEER_ARGUMENT = 600

_TURN_MARKER = re.compile(r"(?im)^([ \t>#*_-]*)(human|assistant|system)(\s*):")
#: Credential shapes a submission may have committed: never forwarded to a third party.
_CREDENTIAL = re.compile(
    r"sk-ant-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9]{20,}|gh[pousr]_[A-Za-z0-9]{20,}"
    r"|github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[abpr]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
)
_CACHE = {"type": "ephemeral"}


def neutralise(text: str) -> str:
    """Defuse turn look-alikes and redact credentials in untrusted text (brackets: encode)."""
    text = _CREDENTIAL.sub("[redacted credential]", text)
    return _TURN_MARKER.sub(lambda m: f"{m.group(1)}{m.group(2)} (quoted){m.group(3)}:", text)


def encode_data(value: Any) -> str:
    """JSON-encode data for a data block: every < and > escaped, so no tag can be formed."""
    # Compact: whitespace would be paid for as tokens on every call.
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def _clip(text: str | None, limit: int) -> str | None:
    # Not courtroom.untrusted.clip: the model must see that text was cut (a visible marker),
    # and these exact request bodies are what the recorded cassettes and the batch fake match.
    if text is None:
        return None
    clean = neutralise(text)
    return clean if len(clean) <= limit else clean[:limit] + " …[truncated]"


def evidence_data(items: list[Evidence]) -> list[dict[str, Any]]:
    """The structured form of the evidence a judge is shown (order kept)."""
    return [
        {
            "id": e.id,
            "goal": neutralise(e.goal),
            "found": e.found,
            # The same directed reading the offline lenses use: only "supports" is credit.
            "direction": e.direction,
            "location": neutralise(e.location),
            "confidence": e.confidence,
            "tags": list(e.tags),
            "rationale": _clip(e.rationale, MAX_CONTENT),
            "content": _clip(e.content, MAX_CONTENT),
            # Only where a detective named one: a fact without a fix reads as before.
            **({"fix": _clip(e.fix, MAX_CONTENT)} if e.fix else {}),
            # Only with a base to compare with: request bodies without one stay as recorded.
            **({} if e.in_diff is None else {"in_diff": e.in_diff}),
        }
        for e in items
    ]


def opinion_data(opinion: JudicialOpinion) -> dict[str, Any]:
    """A peer's opinion as data: scores, citations, charges; argument length-limited."""
    return {
        "judge": opinion.judge,
        "score": opinion.score,
        "cited_evidence": list(opinion.cited_evidence),
        "charges": [neutralise(c) for c in opinion.charges or []],
        "mitigations": [neutralise(m) for m in opinion.mitigations or []],
        "argument": _clip(opinion.argument, MAX_PEER_ARGUMENT),
    }


def _block(tag: str, value: Any) -> str:
    return f"<{tag}>\n{encode_data(value)}\n</{tag}>"


def user_content(request: JudgeRequest) -> list[dict[str, Any]]:
    """The user turn's content blocks for a request, shared part first."""
    criterion = request.criterion
    data: dict[str, Any] = {"criterion_id": criterion.id, "items": evidence_data(request.evidence)}
    if request.omitted:
        data["left_out"] = dict(sorted(request.omitted.items()))
    changes = sum(DIFF_TAG in e.tags for e in request.evidence)
    shared = personas.criterion_block(
        criterion, len(request.evidence), sum(request.omitted.values()), changes
    ) + "\n\n" + _block(EVIDENCE_TAG, data)
    blocks: list[dict[str, Any]] = [
        {"type": "text", "text": shared, "cache_control": dict(_CACHE)},
        {"type": "text", "text": personas.persona_block(request.persona, criterion)},
    ]
    if request.round > 0:
        hearing = [personas.hearing_block(request.round)]
        hearing.append(_block(PEERS_TAG, [opinion_data(p) for p in request.peers]))
        if request.previous is not None:
            hearing.append(_block(PREVIOUS_TAG, opinion_data(request.previous)))
        blocks.append({"type": "text", "text": "\n\n".join(hearing)})
    return blocks


def system_blocks() -> list[dict[str, Any]]:
    """The system parameter: the shared task block, cached across every call of an audit."""
    return [{"type": "text", "text": personas.task_block(), "cache_control": dict(_CACHE)}]


class OpinionDraft(BaseModel):
    """What the model must return; validated before it becomes a JudicialOpinion."""

    score: int = Field(ge=1, le=5, description="1 (absent or broken) to 5 (exemplary).")
    argument: str = Field(min_length=1, description="Why, naming the facts relied on.")
    cited_evidence: list[str] = Field(
        min_length=1, description='Evidence ids relied on, exactly as shown, or ["NO_EVIDENCE"].'
    )
    charges: list[str] | None = None
    mitigations: list[str] | None = None
    remediation: str | None = None
    evidence_requests: list[EvidenceRequest] | None = None

    @field_validator("argument")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("argument must not be blank")
        return value


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}

#: The JSON schema sent as output_config.format (written out so the cache key is stable).
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["score", "argument", "cited_evidence"],
    "properties": {
        "score": {"type": "integer", "description": "Integer from 1 to 5."},
        "argument": {"type": "string"},
        "cited_evidence": {**_STRINGS, "description": 'Evidence ids, or ["NO_EVIDENCE"].'},
        "charges": _nullable(_STRINGS),
        "mitigations": _nullable(_STRINGS),
        "remediation": _nullable({"type": "string"}),
        "evidence_requests": _nullable(
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["question"],
                    "properties": {
                        "path": _nullable({"type": "string"}),
                        "symbol": _nullable({"type": "string"}),
                        "question": {"type": "string"},
                    },
                },
            }
        ),
    },
}
