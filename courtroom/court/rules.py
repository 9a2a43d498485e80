"""Pure rules of the court phase: its limits, who is contested, what peers may see, gaps.

No I/O and no clock here: ``court.py`` drives the stages and asks these functions what
to do, so the rules can be tested on plain opinions without a bench.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from pydantic import ValidationError

from courtroom.chief_justice import cites_found_security
from courtroom.errors import ConfigError
from courtroom.models import (
    JUDGES,
    Evidence,
    EvidenceGap,
    EvidenceRequest,
    JudicialOpinion,
    location_path,
)
from courtroom.rubric import CourtParameters, Rubric
from courtroom.untrusted import clip

#: Variance at or under which the first round counts as agreement (plea deal).
PLEA_VARIANCE = 1
#: Variance over which the judges are contested; the hearing stops at or under it.
HEARING_VARIANCE = 2
#: Peers' free text is shown to the other judges, so it is cut short (untrusted input).
MAX_ARGUMENT_CHARS = 600
MAX_POINT_CHARS = 240
MAX_POINTS = 6
#: Most pool items one remand request pulls into a criterion's evidence.
MAX_POOL_ANSWERS = 8

#: Which way the court takes a criterion after the first round.
Route = Literal["plea", "hearing", "skipped"]


def limits_for(rubric: Rubric, overrides: Mapping[str, object] | None = None) -> CourtParameters:
    """The rubric's court limits with any configured overrides applied (validated)."""
    base = {**rubric.court.model_dump(), **{k: v for k, v in (overrides or {}).items()
                                            if v is not None}}
    try:
        return CourtParameters.model_validate(base)
    except ValidationError as exc:
        raise ConfigError(f"court limits: {exc.errors()[0]['msg']}") from exc


def participating(opinions: Iterable[JudicialOpinion]) -> list[JudicialOpinion]:
    """The opinions that take part in scoring (fallbacks never do), in judge order."""
    return sorted((o for o in opinions if not o.fallback), key=lambda o: JUDGES.index(o.judge))


def variance(opinions: Iterable[JudicialOpinion]) -> int:
    """max - min of the participating judges' raw scores; 0 with fewer than two judges."""
    scores = [o.score for o in participating(opinions)]
    return max(scores) - min(scores) if len(scores) > 1 else 0


def by_judge(opinions: Iterable[JudicialOpinion]) -> dict[str, JudicialOpinion]:
    """Index opinions by judge name (the last one wins)."""
    return {o.judge: o for o in opinions}


def security_dispute(opinions: Iterable[JudicialOpinion], pool: Mapping[str, Evidence]) -> bool:
    """The Defense scores above a Prosecutor who charges with found security evidence."""
    seats = by_judge(participating(opinions))
    prosecutor, defense = seats.get("Prosecutor"), seats.get("Defense")
    if prosecutor is None or defense is None or not prosecutor.charges:
        return False
    return defense.score > prosecutor.score and cites_found_security(prosecutor, pool)


def defense_concedes(opinions: Iterable[JudicialOpinion]) -> bool:
    """The Defense scores at or below the Prosecutor: nothing left to argue about."""
    seats = by_judge(participating(opinions))
    prosecutor, defense = seats.get("Prosecutor"), seats.get("Defense")
    return prosecutor is not None and defense is not None and defense.score <= prosecutor.score


def classify(opinions: Sequence[JudicialOpinion], pool: Mapping[str, Evidence]) -> Route:
    """How a criterion enters the court: plea deal, hearing, or straight past it.

    Agreement and concession win first (they cost nothing); a spread over two points or
    a disputed security charge calls a hearing; a spread of exactly two is left to the
    chief justice as it is, since it is not a dissent under §4.6.
    """
    if len(participating(opinions)) < 2:
        return "skipped"
    if variance(opinions) <= PLEA_VARIANCE or defense_concedes(opinions):
        return "plea"
    if variance(opinions) > HEARING_VARIANCE or security_dispute(opinions, pool):
        return "hearing"
    return "skipped"


def _shown(text: str, limit: int) -> str:
    # Peer text reaches other judges' prompts: made inert like every untrusted text.
    return clip(text.strip(), limit)


def peer_view(opinion: JudicialOpinion) -> JudicialOpinion:
    """What another judge may see of this opinion: structured data, free text cut short.

    Remediation stays private to its author: it is advice to the submitter, not part of
    the case the other judges answer. Evidence requests stay, so every judge knows what
    a remand was asked for.
    """
    requests = [
        r.model_copy(update={"question": _shown(r.question, MAX_POINT_CHARS)})
        for r in (opinion.evidence_requests or [])[:MAX_POINTS]
    ]
    return opinion.model_copy(
        update={
            "argument": _shown(opinion.argument, MAX_ARGUMENT_CHARS),
            "charges": _points(opinion.charges),
            "mitigations": _points(opinion.mitigations),
            "remediation": None,
            "evidence_requests": requests or None,
        }
    )


def _points(points: list[str] | None) -> list[str] | None:
    if points is None:
        return None
    return [_shown(p, MAX_POINT_CHARS) for p in points[:MAX_POINTS]]


def hearing_evidence(
    shown: Sequence[Evidence], peers: Iterable[JudicialOpinion], pool: Mapping[str, Evidence]
) -> list[Evidence]:
    """The criterion's evidence plus whatever the peers cited from the pool besides it."""
    chosen = list(shown)
    seen = {e.id for e in chosen}
    for peer in peers:
        for cited in peer.cited_evidence:
            evidence = pool.get(cited)
            if evidence is not None and cited not in seen:
                seen.add(cited)
                chosen.append(evidence)
    return chosen


def request_key(request: EvidenceRequest) -> tuple[str, str, str]:
    """Identity of a request, so the same question is not remanded twice."""
    return (request.path or "", request.symbol or "", request.question.strip().lower())


def describe(request: EvidenceRequest) -> str:
    """One line saying what a request is missing."""
    subject = []
    if request.path:
        subject.append(f"file {_shown(request.path, MAX_POINT_CHARS)}")
    if request.symbol:
        subject.append(f"symbol {_shown(request.symbol, MAX_POINT_CHARS)}")
    what = ", ".join(subject)
    question = _shown(request.question, MAX_POINT_CHARS)
    if what and question:
        return f"{what}: {question}"
    return what or question or "unspecified evidence"


def outstanding(
    opinions: Iterable[JudicialOpinion], asked: set[tuple[str, str, str]]
) -> list[tuple[str, EvidenceRequest]]:
    """(judge, request) pairs not yet sent to the detectives, first asker wins."""
    found: list[tuple[str, EvidenceRequest]] = []
    seen = set(asked)
    for opinion in participating(opinions):
        for request in opinion.evidence_requests or []:
            key = request_key(request)
            if key not in seen:
                seen.add(key)
                found.append((opinion.judge, request))
    return found


def answers(request: EvidenceRequest, evidence: Iterable[Evidence]) -> list[Evidence]:
    """Found evidence that answers a request: at (or naming) its path, or naming its symbol."""
    path = (request.path or "").strip().lstrip("./").rstrip("/")
    hits: list[Evidence] = []
    for item in evidence:
        if not item.found:
            continue
        where = location_path(item.location)
        text = f"{item.goal} {item.content or ''}"
        at_path = bool(path) and (where == path or where.endswith("/" + path) or path in text)
        if at_path or (bool(request.symbol) and str(request.symbol) in text):
            hits.append(item)
    return hits


def from_pool(
    requests: Iterable[EvidenceRequest], pool: Mapping[str, Evidence], known: set[str]
) -> list[Evidence]:
    """Evidence already collected that answers the requests but was not shown yet."""
    unseen = [e for e in pool.values() if e.id not in known]
    found: dict[str, Evidence] = {}
    for request in requests:
        for item in answers(request, unseen)[:MAX_POOL_ANSWERS]:
            found.setdefault(item.id, item)
    return list(found.values())


def standing_requests(opinions: Iterable[JudicialOpinion]) -> list[tuple[str, EvidenceRequest]]:
    """Every (judge, request) the final opinions still carry."""
    return [
        (o.judge, r) for o in participating(opinions) for r in (o.evidence_requests or [])
    ]


def spread_gap(opinions: Sequence[JudicialOpinion], stage: str) -> EvidenceGap:
    """The gap a deadlock leaves when nobody named what is missing."""
    scores = ", ".join(f"{o.judge} {o.score}" for o in participating(opinions))
    return EvidenceGap(
        missing=f"evidence that settles the disagreement ({scores})",
        raised_by="court",
        stage=stage,
    )


def defense_challenges(rounds: Iterable[Sequence[JudicialOpinion]]) -> list[str]:
    """The Defense's mitigations over all rounds, de-duplicated and cut short."""
    seen: list[str] = []
    for opinions in rounds:
        for opinion in opinions:
            if opinion.judge != "Defense" or opinion.fallback:
                continue
            for point in opinion.mitigations or []:
                text = _shown(point, MAX_POINT_CHARS)
                if text and text not in seen:
                    seen.append(text)
    return seen[:MAX_POINTS * 2]


def prosecution_best(rounds: Iterable[Sequence[JudicialOpinion]]) -> int | None:
    """The highest score the Prosecutor conceded at any stage (the floor both can meet)."""
    scores = [
        o.score for ops in rounds for o in ops if o.judge == "Prosecutor" and not o.fallback
    ]
    return max(scores) if scores else None


def gaps(
    reason: str,
    unanswered: Sequence[EvidenceGap],
    final: Sequence[JudicialOpinion],
    *,
    stage: str,
    ttl_seconds: float,
) -> list[EvidenceGap]:
    """Every gap of a mistrial: unanswered remands, standing requests, time, the spread."""
    found = list(unanswered)
    reported = {(g.raised_by, g.missing) for g in found}
    for judge, request in standing_requests(final):
        gap = EvidenceGap(missing=describe(request), raised_by=judge, stage=stage)
        if (gap.raised_by, gap.missing) not in reported:
            reported.add((gap.raised_by, gap.missing))
            found.append(gap)
    if reason == "time_exhausted":
        found.append(
            EvidenceGap(missing=f"time: the {ttl_seconds:g}s TTL ran out", raised_by="court",
                        stage=stage)
        )
    if not found or reason == "deliberation_exhausted":
        found.append(spread_gap(final, stage))
    return found
