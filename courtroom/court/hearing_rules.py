"""Deterministic hearing rules of the offline bench: how a judge revises during a hearing.

The offline backend hands every request with ``round > 0`` to :func:`revise`. The rules
are the court's (issue 6), applied in this order to the judge's previous opinion:

1. **Remand answered.** When the judge's earlier evidence requests (or a peer's) are now
   answered by found evidence, the judge takes a fresh look: its lens re-reads the whole,
   enlarged evidence (the not-found fact the answer supersedes is dropped, and the answer
   supports the criterion in its place) and its requests are dropped. Unanswered requests
   stand.
2. **Mitigation.** A Defense mitigation backed by found supporting evidence raises the
   Prosecutor by one (never past the Defense's own score).
3. **Security charge.** A Prosecutor charge backed by a found, adverse ``security`` finding
   lowers the Defense to at most 3.
4. **Asking.** In the first hearing round the TechLead, who needs facts to judge whether
   it works, asks the detectives for every fact the evidence shows as not found.

Peers' text is never read for meaning, only their structured fields, so nothing a peer
writes can steer these rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from courtroom.court.rules import answers
from courtroom.errors import JudgeError
from courtroom.judges.base import JudgeRequest
from courtroom.judges.digest import content_digest
from courtroom.judges.facts import Facts
from courtroom.judges.lenses import BY_PERSONA
from courtroom.models import (
    NO_EVIDENCE,
    SECURITY_TAG,
    Direction,
    Evidence,
    EvidenceRequest,
    JudicialOpinion,
    location_path,
    opinion_id,
)

#: The security-charge rule's ceiling for the Defense.
DEFENSE_CEILING = 3
#: Most requests one judge files in a round (keeps a remand targeted).
MAX_REQUESTS = 3
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


def _backed(opinion: JudicialOpinion, evidence: Mapping[str, Evidence], direction: Direction,
            tag: str | None = None) -> bool:
    """Whether the opinion cites found evidence pointing ``direction`` (and carrying ``tag``).

    A mitigation is backed only by a supporting fact and a charge only by an adverse one:
    citing a fact that points the other way (or nowhere) backs nothing.
    """
    for cited in opinion.cited_evidence:
        item = evidence.get(cited)
        if item is None or not item.found or item.direction != direction:
            continue
        if tag is None or tag in item.tags:
            return True
    return False


def _superseded(item: Evidence, answered: Iterable[EvidenceRequest]) -> bool:
    """Whether a not-found fact sits where an answered request pointed."""
    path = location_path(item.location)
    return any(r.path == path or (r.symbol and r.symbol in item.goal) for r in answered)


def _requests_for(facts: Facts) -> list[EvidenceRequest]:
    """One request per repository file where a wanted fact was looked for and not found."""
    asked: list[EvidenceRequest] = []
    for item in facts.missing:
        path = location_path(item.location)
        # Only real repository paths can be looked at again (not ".", PDF pages, commits).
        if path in ("", ".") or path.startswith("pdf") or _SHA.match(path):
            continue
        asked.append(EvidenceRequest(path=path, question=f"Is it there after all: {item.goal}?"))
    return asked[:MAX_REQUESTS]


def _second_look(request: JudgeRequest, answered: list[EvidenceRequest]) -> Facts:
    """The evidence as the remand leaves it: a "not found" at a place the remand has now
    found something at no longer counts, and what was found again supports the criterion."""
    kept = [e for e in request.evidence if e.found or not _superseded(e, answered)]
    found_again = {e.id for r in answered for e in answers(r, request.evidence) if e.found}
    return Facts(tuple(e.model_copy(update={"direction": "supports"})
                       if e.id in found_again and e.direction == "context" else e
                       for e in kept))


def revise(request: JudgeRequest) -> JudicialOpinion:
    """The judge's revised opinion for one hearing round (pure and deterministic)."""
    previous = request.previous
    if previous is None or request.round < 1:
        raise JudgeError("a hearing revision needs the judge's previous opinion and round > 0")
    notes: list[str] = []
    fields, pending = _after_remand(request, previous, notes)
    score = _weigh_peers(request, int(fields["score"]), notes)
    if request.persona == "TechLead" and request.round == 1 and not pending:
        pending = _requests_for(Facts(tuple(request.evidence)))
        if pending:
            notes.append(f"I ask the detectives to look again at {len(pending)} missing fact(s)")
    fields["score"] = max(1, min(5, score))
    return _revised(request, fields, pending, notes)


def _after_remand(
    request: JudgeRequest, previous: JudicialOpinion, notes: list[str]
) -> tuple[dict[str, Any], list[EvidenceRequest]]:
    """Rule 1: the judge's fields and its standing requests once the answered ones are in."""
    fields: dict[str, Any] = {
        "score": previous.score,
        "argument": previous.argument,
        "cited_evidence": list(previous.cited_evidence),
        "charges": previous.charges,
        "mitigations": previous.mitigations,
        "remediation": previous.remediation,
    }
    pending = list(previous.evidence_requests or [])
    raised = pending + [r for p in request.peers for r in (p.evidence_requests or [])]
    answered = [r for r in raised if answers(r, request.evidence)]
    if answered:
        fields = BY_PERSONA[request.persona](request.criterion, _second_look(request, answered))
        pending = [r for r in pending if not answers(r, request.evidence)]
        notes.append("the evidence the court asked for arrived, so I re-read all of it")
    return fields, pending


def _weigh_peers(request: JudgeRequest, score: int, notes: list[str]) -> int:
    """Rules 2 and 3: a backed mitigation lifts the Prosecutor, a backed security charge
    brings the Defense down; only the peers' structured fields are read."""
    by_id = {e.id: e for e in request.evidence}
    peers = {p.judge: p for p in request.peers if not p.fallback}
    defense, prosecutor = peers.get("Defense"), peers.get("Prosecutor")
    if request.persona == "Prosecutor" and defense is not None:
        if defense.mitigations and _backed(defense, by_id, "supports") and score < defense.score:
            score += 1
            notes.append("the Defense's mitigations rest on found evidence, so I add one point")
    if request.persona == "Defense" and prosecutor is not None:
        if prosecutor.charges and _backed(prosecutor, by_id, "adverse", SECURITY_TAG):
            if score > DEFENSE_CEILING:
                score = DEFENSE_CEILING
                notes.append("the Prosecutor's charge rests on a confirmed security finding, "
                             f"so I concede down to {DEFENSE_CEILING}")
    return score


def _revised(
    request: JudgeRequest, fields: dict[str, Any], pending: list[EvidenceRequest],
    notes: list[str],
) -> JudicialOpinion:
    """The revision as an opinion: the round's rebuttal appended, citations never empty."""
    rebuttal = "; ".join(notes) if notes else "the other judges' points do not change the facts"
    fields["argument"] = f"{fields['argument']} [Round {request.round}: {rebuttal}.]"
    fields["cited_evidence"] = [c for c in fields.get("cited_evidence") or [] if c] or [
        NO_EVIDENCE
    ]
    fields.setdefault("charges", None)
    fields.setdefault("mitigations", None)
    fields.setdefault("remediation", None)
    fields["evidence_requests"] = [r.model_dump() for r in pending] or None
    return JudicialOpinion(
        opinion_id=opinion_id(
            request.persona, request.criterion.id, content_digest(fields, request.round)
        ),
        judge=request.persona,
        criterion_id=request.criterion.id,
        **fields,
    )
