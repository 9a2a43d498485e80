"""The chief justice: deterministic synthesis of opinions into scores (DESIGN §4).

Pure by design: no I/O, no clock, no randomness, no model call. Arithmetic is done in
``Decimal`` so that "round half up" means exactly that (2.5 -> 3, 2.49 -> 2) whatever
binary floats would have made of the weights.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from courtroom.dissent import dissent_summary
from courtroom.errors import SynthesisError
from courtroom.models import (
    JUDGES,
    NO_EVIDENCE,
    SECURITY_TAG,
    Conclusion,
    CriterionResult,
    Evidence,
    ExecutionLog,
    JudicialOpinion,
    PenaltyEvent,
)
from courtroom.problems import Problem
from courtroom.rubric import SynthesisParameters


def _dec(value: float | int) -> Decimal:
    # str() first: Decimal(0.1) would carry the binary error we are avoiding.
    return Decimal(str(value))


def round_half_up(value: Decimal, places: int = 0) -> Decimal:
    """Round exactly half up (away from zero for our positive scores)."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def round_score(value: float) -> int:
    """A non-negative score rounded exactly half up (2.5 -> 3), as the rules round."""
    return int(round_half_up(_dec(value)))


def invalid_citations(opinion: JudicialOpinion, pool: Mapping[str, Evidence]) -> list[str]:
    """Cited ids that are not in the pool or whose evidence was not found (rule 2)."""
    bad: list[str] = []
    for cited in opinion.cited_evidence:
        if cited == NO_EVIDENCE:
            continue
        evidence = pool.get(cited)
        if (evidence is None or not evidence.found) and cited not in bad:
            bad.append(cited)
    return bad


@lru_cache(maxsize=64)
def _keyword_pattern(keywords: tuple[str, ...]) -> re.Pattern[str]:
    # Whole word or phrase, case-insensitive; any run of whitespace between phrase words.
    alternatives = [r"\s+".join(map(re.escape, kw.split())) for kw in keywords if kw.strip()]
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def keyword_in(text: str, keywords: Sequence[str]) -> str | None:
    """The first of ``keywords`` named in ``text`` (whole words, any case), lower-cased."""
    if not keywords:
        return None
    match = _keyword_pattern(tuple(keywords)).search(text)
    return match.group(0).lower() if match else None


def security_keyword(opinion: JudicialOpinion, keywords: Sequence[str]) -> str | None:
    """The first security keyword named in the opinion's argument or charges, if any."""
    for text in [opinion.argument, *(opinion.charges or [])]:
        found = keyword_in(text, keywords)
        if found:
            return found
    return None


def cites_found_security(opinion: JudicialOpinion, pool: Mapping[str, Evidence]) -> bool:
    """Whether the opinion cites evidence that was found and is tagged security."""
    for cited in opinion.cited_evidence:
        evidence = pool.get(cited)
        if evidence is not None and evidence.found and SECURITY_TAG in evidence.tags:
            return True
    return False


def _weighted(scores: Mapping[str, int], weights: Mapping[str, float]) -> Decimal:
    """Rule 3: weighted mean of three judges, plain mean of two, the score of one."""
    if len(scores) >= 3:
        total_weight = sum((_dec(weights.get(j, 1.0)) for j in scores), Decimal(0))
        total = sum((_dec(weights.get(j, 1.0)) * s for j, s in scores.items()), Decimal(0))
        return total / total_weight
    return sum((Decimal(s) for s in scores.values()), Decimal(0)) / len(scores)


def _remediation(opinions: Iterable[JudicialOpinion]) -> str:
    """Rule 7: the unique remediation texts of all judges, combined in judge order."""
    seen: list[str] = []
    for opinion in opinions:
        text = (opinion.remediation or "").strip()
        if text and text not in seen:
            seen.append(text)
    if not seen:
        return "No remediation proposed."
    return "\n".join(f"- {text}" for text in seen)


def _penalise(
    participating: Sequence[JudicialOpinion],
    pool: Mapping[str, Evidence],
    params: SynthesisParameters,
) -> tuple[list[PenaltyEvent], dict[str, int]]:
    """Rule 3: each judge's score after the hallucination penalty, and the events logged."""
    penalties: list[PenaltyEvent] = []
    penalised: dict[str, int] = {}
    for opinion in participating:
        bad = invalid_citations(opinion, pool)
        score = opinion.score
        if bad:
            after = max(1, score - params.hallucination_penalty)
            penalties.append(
                PenaltyEvent(
                    judge=opinion.judge,
                    opinion_id=opinion.opinion_id,
                    invalid_ids=bad,
                    reason="cited evidence that is not in the pool or was not found",
                    score_before=score,
                    score_after=after,
                )
            )
            score = after
        penalised[opinion.judge] = score
    return penalties, penalised


def _security_override(
    criterion_id: str,
    participating: Sequence[JudicialOpinion],
    pool: Mapping[str, Evidence],
    params: SynthesisParameters,
) -> str | None:
    """Rule 4: why the security cap applies (the first judge to name a flaw it backs with a
    found security fact), or None. Only a criterion about security is capped: a finding
    must not cap "dependencies pinned" because a judge there named it."""
    if params.security_criteria is not None and criterion_id not in params.security_criteria:
        return None
    for opinion in participating:
        keyword = security_keyword(opinion, params.security_keywords)
        if keyword and cites_found_security(opinion, pool):
            return f"{opinion.judge} named '{keyword}' citing found security evidence"
    return None


def rule(
    criterion_id: str,
    name: str,
    opinions: Sequence[JudicialOpinion],
    pool: Mapping[str, Evidence],
    params: SynthesisParameters,
) -> CriterionResult:
    """Turn one criterion's opinions into its result, applying the rules in order."""
    ordered = sorted(opinions, key=lambda o: JUDGES.index(o.judge))
    participating = [o for o in ordered if not o.fallback]
    if not participating:
        raise SynthesisError(f"criterion {criterion_id!r}: no judge could take part")

    penalties, penalised = _penalise(participating, pool, params)
    value = _weighted(penalised, params.weights)
    override_reason = _security_override(criterion_id, participating, pool, params)
    if override_reason is not None:
        value = min(value, _dec(params.security_cap))

    final_int = int(min(Decimal(5), max(Decimal(1), round_half_up(value))))
    raw: dict[str, int] = {o.judge: o.score for o in participating}
    variance = max(raw.values()) - min(raw.values())
    dissent = (
        dissent_summary(participating, variance, pool)
        if variance > params.variance_threshold
        else None
    )

    return CriterionResult(
        criterion_id=criterion_id,
        name=name,
        final_score=final_int,
        opinions=list(ordered),
        dissent_summary=dissent,
        remediation=_remediation(ordered),
        re_evaluation_required=dissent is not None,
        security_override=override_reason is not None,
        execution_log=ExecutionLog(
            criterion_id=criterion_id,
            raw_scores=raw,
            weights={j: params.weights.get(j, 1.0) for j in raw},
            penalty_events=penalties,
            override_triggered=override_reason is not None,
            override_reason=override_reason,
            final_float=float(value),
            final_int=final_int,
        ),
    )


def overall_score(results: Sequence[CriterionResult]) -> float:
    """Mean of the covered criteria's final scores, 2 decimals, half up; 0.0 with none (an
    uncovered criterion's score is a placeholder: nothing measured it)."""
    scored = [r.final_score for r in results if r.covered]
    if not scored:
        return 0.0
    mean = Decimal(sum(scored)) / len(scored)
    return float(round_half_up(mean, 2))


def unjudged_findings(
    results: Sequence[CriterionResult], pool: Mapping[str, Evidence]
) -> list[Problem]:
    """Confirmed security findings that no criterion's security override capped.

    A rubric with no criterion that judges security (or judges that never name the flaw)
    must not let a confirmed vulnerability through the gate: one problem each, and the
    conclusion fails closed. Empty when an override fired (the gate fails already).
    """
    if any(r.security_override for r in results):
        return []
    confirmed = sorted((e for e in pool.values() if e.found and SECURITY_TAG in e.tags),
                       key=lambda e: (e.location, e.id))
    return [Problem(kind="unjudged_finding", location=e.location, message=e.goal)
            for e in confirmed]


def conclude(
    results: Sequence[CriterionResult],
    overall: float,
    *,
    fail_below: float | None,
    incomplete: bool,
    scan_incomplete: bool = False,
) -> Conclusion:
    """The verdict's conclusion: failure, then neutral (incomplete or unsettled), then success.

    ``scan_incomplete`` (the security scan failed or left files unscanned) fails closed:
    a vulnerability the scan could not see must not pass the gate as "neutral".
    """
    if scan_incomplete or any(r.security_override for r in results):
        return "failure"
    if fail_below is not None and _dec(overall) < _dec(fail_below):
        return "failure"
    unsettled = any(
        r.re_evaluation_required
        or any(o.fallback for o in r.opinions)
        or (r.court is not None and r.court.path == "mistrial")
        for r in results
    )
    if incomplete or unsettled:
        return "neutral"
    return "success"
