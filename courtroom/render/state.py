"""Hidden state carried in the sticky PR comment, so a re-audit can reuse unchanged work.

The comment ends with an HTML comment holding base64 of zlib-compressed JSON: the rubric
digest, the bench (model), the commit, the overall score, per criterion its score and
evidence digest, and the judges' opinions keyed by their opinion-cache key (the sha256 of
every input that shaped the answer: criterion, evidence, persona, prompt, model, round).
On the next run the action reads it back: scores give the "change since last audit"
column, and the opinions pre-seed the opinion cache, which serves one only when its key
matches the new input exactly, so unchanged criteria cost no model call and changed ones
are judged afresh.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from courtroom.models import CriterionResult, JudicialOpinion, Verdict

COMMENT_MARKER = "<!-- courtroom:comment -->"
STATE_VERSION = 1
#: The state's one place: the very end of the body, after everything rendered, optionally
#: followed by its HMAC. A marker anywhere else is never read, and never signed.
_TAIL = re.compile(
    r"(?:\A|\n)<!-- courtroom:state v(?P<version>\d+) (?P<packed>[A-Za-z0-9+/=]+) -->"
    r"(?:\r?\n<!-- courtroom:state-hmac (?P<mac>[0-9a-f]{64}) -->)?\s*\Z"
)
#: Room a signature takes at the end of a comment (the renderer fits the rest under it).
SIGNATURE_ROOM = 100


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
    """The criterion's digest, derived from the evidence the judges cited."""
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
    commit: str | None = None
    cache: dict[str, JudicialOpinion] = field(default_factory=dict)  # by cache key

    @classmethod
    def from_verdict(cls, verdict: Verdict) -> PreviousAudit:
        """The same information taken straight from a verdict (tests, local compare)."""
        return cls(
            overall_score=verdict.overall_score,
            scores={c.criterion_id: c.final_score for c in verdict.criteria},
            rubric_sha256=verdict.rubric.sha256,
            bench=verdict.bench,
            commit=verdict.target.commit,
        )


def _pack(data: Mapping[str, Any]) -> str:
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def _all_opinions(result: CriterionResult) -> list[JudicialOpinion]:
    """Final opinions and every hearing round's: each is a reusable answer to some input."""
    rounds = result.court.rounds if result.court else []
    return [*result.opinions, *(o for r in rounds for o in r.opinions)]


def encode_state(
    verdict: Verdict, budget: int = 20000, keys: Mapping[str, Sequence[str]] | None = None
) -> str:
    """The hidden HTML comment. ``keys`` maps opinion ids to their opinion-cache keys.

    Opinions without a known key are kept under ``opinion:<id>`` (they still show what was
    said, but can never be served from the cache). Entries are dropped, biggest criterion
    first, until the state fits in ``budget``.
    """
    keys = keys or {}
    criteria: dict[str, dict[str, Any]] = {}
    cache: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for c in verdict.criteria:
        final: list[str] = []
        for o in _all_opinions(c):
            if o.fallback:
                continue  # a failure is never reused: the judge is asked again
            dumped = o.model_dump(mode="json", exclude_none=True)
            known = list(keys.get(o.opinion_id) or [f"opinion:{o.opinion_id}"])
            for key in known:
                cache[key] = dumped
                owner[key] = c.criterion_id
            if o in c.opinions and known[0] not in final:
                final.append(known[0])
        criteria[c.criterion_id] = {
            "score": c.final_score,
            "digest": digest_of(verdict, c),
            "final": final,
        }
    data: dict[str, Any] = {
        "rubric": verdict.rubric.sha256,
        "bench": verdict.bench,
        "commit": verdict.target.commit,
        "overall": verdict.overall_score,
        "criteria": criteria,
        "cache": cache,
    }
    return f"<!-- courtroom:state v{STATE_VERSION} {_fit(data, owner, budget)} -->"


def _fit(data: dict[str, Any], owner: Mapping[str, str], budget: int) -> str:
    """``data`` packed, its cache emptied biggest criterion first (then criteria dropped)
    until it fits in ``budget``."""
    criteria: dict[str, dict[str, Any]] = data["criteria"]
    cache: dict[str, Any] = data["cache"]
    packed = _pack(data)
    weight = {
        cid: sum(len(json.dumps(cache[k])) for k in cache if owner[k] == cid) for cid in criteria
    }
    for cid in sorted(criteria, key=lambda k: -weight[k]):
        if len(packed) + 40 <= budget:
            break
        for key in [k for k in cache if owner[k] == cid]:
            del cache[key]
        criteria[cid]["final"] = []
        packed = _pack(data)
    while len(packed) + 40 > budget and criteria:
        criteria.pop(next(iter(criteria)))
        packed = _pack(data)
    return packed


@dataclass(frozen=True)
class _Block:
    version: int
    packed: str
    mac: str | None


def _block(body: str | None) -> _Block | None:
    """The state at the end of ``body``; None when absent or when the body holds any other
    HTML comment than the comment marker at its start.

    The renderer lets no untrusted text spell an HTML comment, so a second one means the
    body is not what we rendered (or a renderer bug): nothing in it is trusted.
    """
    match = _TAIL.search(body or "")
    if match is None:
        return None
    head = (body or "")[: match.start()].lstrip().removeprefix(COMMENT_MARKER)
    if "<!--" in head:
        return None
    return _Block(int(match.group("version")), match.group("packed"), match.group("mac"))


def decode_state(body: str) -> PreviousAudit | None:
    """Read the hidden state back; None when absent, foreign, misplaced or damaged."""
    block = _block(body)
    return None if block is None else _decode(block)


def _decode(block: _Block) -> PreviousAudit | None:
    if block.version != STATE_VERSION:
        return None
    try:
        data = json.loads(zlib.decompress(base64.b64decode(block.packed, validate=True)))
        cache = {k: JudicialOpinion.model_validate(v) for k, v in data["cache"].items()}
        criteria = data["criteria"]
        return PreviousAudit(
            overall_score=data.get("overall"),
            scores={k: int(v["score"]) for k, v in criteria.items()},
            rubric_sha256=str(data.get("rubric", "")),
            bench=str(data.get("bench", "")),
            commit=data.get("commit"),
            cache=cache,
        )
    except (binascii.Error, zlib.error, ValueError, KeyError, TypeError, ValidationError):
        # A hand-edited or truncated comment is no reason to fail an audit.
        return None


def cache_seeds(state: PreviousAudit | None) -> dict[str, JudicialOpinion]:
    """The opinions that may pre-seed the opinion cache: those with a real cache key."""
    if state is None:
        return {}
    return {k: o for k, o in state.cache.items() if re.fullmatch(r"[0-9a-f]{64}", k)}


def _state_mac(packed: str, key: bytes) -> str:
    return hmac.new(key, packed.encode("ascii"), hashlib.sha256).hexdigest()


def sign_state(body: str, key: bytes | None) -> str:
    """``body`` with an HMAC of its hidden state appended; unchanged without a key, without
    a state at the body's end, or when the body holds any other HTML comment.

    With COURTROOM_SIGNING_KEY set, only a state carrying this HMAC is read back, so text
    posted under the same bot account by another workflow cannot seed opinions either.
    """
    block = _block(body)
    if key is None or block is None or block.mac is not None:
        return body
    return f"{body.rstrip()}\n<!-- courtroom:state-hmac {_state_mac(block.packed, key)} -->"


def trusted_state(body: str, key: bytes | None) -> PreviousAudit | None:
    """The hidden state of our own comment; with ``key``, only when its HMAC verifies."""
    block = _block(body)
    if block is None:
        return None
    if key is not None and (
        block.mac is None or not hmac.compare_digest(block.mac, _state_mac(block.packed, key))
    ):
        return None
    return _decode(block)
