"""Hidden state carried in the sticky PR comment, so a re-audit can reuse unchanged work.

The comment ends with an HTML comment holding base64 of zlib-compressed JSON: the rubric
digest, the bench (model), the overall score, and per criterion its score, the digest of
its evidence and its opinions. On the next run the action reads it back: scores give the
"change since last audit" column, and opinions whose digest still matches are handed to
the audit as a pre-seeded cache, so unchanged criteria cost no model call.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from courtroom.models import CriterionResult, JudicialOpinion, Verdict

COMMENT_MARKER = "<!-- courtroom:comment -->"
STATE_VERSION = 1
_STATE = re.compile(r"<!-- courtroom:state v(\d+) ([A-Za-z0-9+/=]+) -->")


def criterion_digest(
    *,
    rubric_sha256: str,
    bench: str,
    criterion_id: str,
    evidence: Iterable[tuple[str, bool]],
    prompts: str = "",
) -> str:
    """The key under which a criterion's opinions may be reused.

    Covers everything an opinion depends on: the rubric file, the bench (which names the
    model), the prompt templates' digest, the criterion and its evidence (ids are content
    hashes, and ``found`` is part of what a judge saw).
    """
    h = hashlib.sha256()
    for part in (rubric_sha256, bench, prompts, criterion_id):
        h.update(part.encode("utf-8") + b"\x1f")
    for evidence_id, found in sorted(evidence):
        h.update(f"{evidence_id}:{int(found)}".encode() + b"\x1e")
    return h.hexdigest()


def digest_of(verdict: Verdict, result: CriterionResult) -> str:
    """The digest the pipeline recorded, else one derived from what the judges cited."""
    recorded = getattr(result, "evidence_digest", None)
    if recorded:
        return str(recorded)
    cited = {c for o in result.opinions for c in o.cited_evidence if c in verdict.evidences}
    return criterion_digest(
        rubric_sha256=verdict.rubric.sha256,
        bench=verdict.bench,
        criterion_id=result.criterion_id,
        evidence=[(c, verdict.evidences[c].found) for c in cited],
    )


@dataclass
class PreviousAudit:
    """What an earlier audit left in the comment."""

    overall_score: float | None
    scores: dict[str, int]
    rubric_sha256: str = ""
    bench: str = ""
    opinions: dict[str, list[JudicialOpinion]] = field(default_factory=dict)  # by digest

    @classmethod
    def from_verdict(cls, verdict: Verdict) -> PreviousAudit:
        """The same information taken straight from a verdict (tests, local compare)."""
        return cls(
            overall_score=verdict.overall_score,
            scores={c.criterion_id: c.final_score for c in verdict.criteria},
            rubric_sha256=verdict.rubric.sha256,
            bench=verdict.bench,
            opinions={digest_of(verdict, c): list(c.opinions) for c in verdict.criteria},
        )


def _pack(data: Mapping[str, Any]) -> str:
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def encode_state(verdict: Verdict, budget: int = 20000) -> str:
    """The hidden HTML comment; opinions are dropped (biggest first) to stay in budget."""
    criteria: dict[str, dict[str, Any]] = {}
    for c in verdict.criteria:
        reusable = not any(o.fallback for o in c.opinions)  # never cache a failure
        criteria[c.criterion_id] = {
            "score": c.final_score,
            "digest": digest_of(verdict, c),
            "opinions": [o.model_dump(mode="json") for o in c.opinions] if reusable else [],
        }
    data: dict[str, Any] = {
        "rubric": verdict.rubric.sha256,
        "bench": verdict.bench,
        "overall": verdict.overall_score,
        "criteria": criteria,
    }
    packed = _pack(data)
    by_size = sorted(criteria, key=lambda k: -len(json.dumps(criteria[k]["opinions"])))
    for key in by_size:
        if len(packed) + 40 <= budget:
            break
        criteria[key]["opinions"] = []
        packed = _pack(data)
    while len(packed) + 40 > budget and criteria:
        criteria.pop(next(iter(criteria)))
        packed = _pack(data)
    return f"<!-- courtroom:state v{STATE_VERSION} {packed} -->"


def decode_state(body: str) -> PreviousAudit | None:
    """Read the hidden state back; None when absent, foreign or damaged."""
    match = _STATE.search(body or "")
    if not match or int(match.group(1)) != STATE_VERSION:
        return None
    try:
        data = json.loads(zlib.decompress(base64.b64decode(match.group(2), validate=True)))
        criteria = data["criteria"]
        opinions: dict[str, list[JudicialOpinion]] = {}
        for entry in criteria.values():
            if entry.get("opinions"):
                found = [JudicialOpinion.model_validate(o) for o in entry["opinions"]]
                opinions[entry["digest"]] = found
        return PreviousAudit(
            overall_score=data.get("overall"),
            scores={k: int(v["score"]) for k, v in criteria.items()},
            rubric_sha256=str(data.get("rubric", "")),
            bench=str(data.get("bench", "")),
            opinions=opinions,
        )
    except (binascii.Error, zlib.error, ValueError, KeyError, TypeError, ValidationError):
        # A hand-edited or truncated comment is no reason to fail an audit.
        return None


def previous_opinions_from_comment(
    body: str, *, rubric_sha256: str | None = None, bench: str | None = None
) -> dict[str, list[JudicialOpinion]]:
    """Opinions from an earlier audit, by criterion digest, for a pre-seeded opinion cache.

    When ``rubric_sha256`` or ``bench`` are given and differ from the earlier audit's,
    nothing is reused: a new rubric or model must judge afresh.
    """
    state = decode_state(body)
    if state is None:
        return {}
    if rubric_sha256 is not None and state.rubric_sha256 != rubric_sha256:
        return {}
    if bench is not None and state.bench != bench:
        return {}
    return state.opinions
