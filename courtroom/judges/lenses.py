"""The three offline lenses: deterministic rules that read the same facts three ways.

Prosecutor charges what is missing, unverified or unsafe; Defense credits what exists,
partial work and the iteration history; TechLead weighs whether it works and can be kept
working. Each returns the fields of an opinion (no id): score, argument, cited_evidence,
charges, mitigations, remediation.

Citations: a lens cites the found facts it relies on. Facts with ``found: false`` are
named in the text (goal and place) but not cited, because the chief justice's
fact-supremacy rule treats a citation of an absent fact as building on nothing. With no
found fact at all, a lens cites ``NO_EVIDENCE``.
"""

from __future__ import annotations

from typing import Any

from courtroom.judges.facts import Facts, clamp, fact, half_up, ids, place, security_keyword, short
from courtroom.models import NO_EVIDENCE
from courtroom.rubric import Dimension

Fields = dict[str, Any]

_ARTIFACT_PLACE = {
    "github_repo": "the repository",
    "pdf_report": "the PDF report",
    "pdf_images": "the PDF report's diagrams",
}


def _where(dim: Dimension) -> str:
    return _ARTIFACT_PLACE.get(dim.target_artifact, "the submission")


def _cite(items: list[Any]) -> list[str]:
    return ids(items) or [NO_EVIDENCE]


def _sentence(parts: list[str]) -> str:
    # Not str.capitalize(): it would lowercase the file paths inside.
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def _unique(texts: list[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def _list(items: list[Any], limit: int = 3) -> str:
    return "; ".join(fact(e) for e in items[:limit])


def prosecutor(dim: Dimension, f: Facts) -> Fields:
    """Critical lens: every missing, unverified or unsafe fact is a charge."""
    n = len(f.items)
    if n == 0:
        return {
            "score": 1,
            "argument": f"No evidence at all was produced for {dim.name}. An unproven "
            "criterion earns the minimum: the burden of proof lies with the submission.",
            "cited_evidence": [NO_EVIDENCE],
            "charges": [f"Nothing in {_where(dim)} shows {dim.name}."],
            "remediation": f"Add to {_where(dim)} what {dim.name} asks for: "
            f"{short(dim.forensic_instruction, 140)}",
        }
    charges: list[str] = []
    for item in f.security:
        keyword = security_keyword(item)
        charges.append(f"Security flaw{f' ({keyword})' if keyword else ''}: {fact(item)}")
    charges += [f"Found: {fact(e)}" for e in f.flaws]
    charges += [f"Missing: {fact(e)}" for e in f.missing]
    charges += [f"Unverified (confidence {e.confidence:.2f}): {fact(e)}" for e in f.weak]
    proven = len(f.solid)
    # A bad thing not found earns no credit from this seat: it is simply not a charge.
    judged = n - len(f.cleared)
    ratio = proven / judged if judged else 1.0
    score = 1 + half_up(4 * ratio) - bool(f.missing) - bool(f.weak) - bool(f.flaws)
    if f.security:
        score = min(score, 2)
    parts = [
        f"Critical reading of {n} fact(s) for {dim.name}: {proven} confirmed, "
        f"{len(f.missing)} missing, {len(f.weak)} unverified, {len(f.flaws)} flaw(s), "
        f"{len(f.security)} security finding(s)."
    ]
    if f.security:
        keyword = security_keyword(f.security[0])
        parts.append(f"Unsafe code stands proven: {keyword or 'a security flaw'} at "
                     f"{fact(f.security[0])}.")
    if f.flaws:
        parts.append(f"Proven against the submission: {_list(f.flaws)}.")
    if f.missing:
        parts.append(f"Not found: {_list(f.missing)}.")
    if f.weak:
        parts.append(f"Resting on low confidence only: {_list(f.weak)}.")
    if not charges:
        example = fact((f.solid or f.cleared)[0])
        parts.append(f"Nothing left to charge; the facts hold, e.g. {example}.")
    fixes = [f"fix the {security_keyword(e) or 'security finding'} in {place(e.location)}"
             for e in f.security]
    fixes += [f"remove the cause of {short(e.goal, 70)} ({place(e.location)})" for e in f.flaws]
    fixes += [f"add {short(e.goal, 70)} (looked for in {place(e.location)})" for e in f.missing]
    fixes += [f"make {short(e.goal, 70)} verifiable in {place(e.location)}" for e in f.weak]
    fixes = _unique(fixes)[:5]
    remediation = _sentence(fixes) if fixes else (
        f"Keep {', '.join(f.files())} under test so the claim stays provable."
    )
    return {
        "score": clamp(score),
        "argument": " ".join(parts),
        "cited_evidence": _cite(f.security + f.flaws + f.weak + f.solid),
        "charges": charges or None,
        "remediation": remediation,
    }


def defense(dim: Dimension, f: Facts) -> Fields:
    """Optimistic lens: credit what exists, partial work and the history of iteration."""
    n = len(f.items)
    if n == 0:
        return {
            "score": 2,
            "argument": f"No evidence was shown for {dim.name}. Silence from the detectives "
            "is not proof the work is absent; the defense cannot credit what it cannot see, "
            "but asks the court not to presume the worst.",
            "cited_evidence": [NO_EVIDENCE],
            "mitigations": ["The detectives produced nothing for this criterion: a gap in "
                            "collection, not necessarily in the work."],
            "remediation": f"Make the work for {dim.name} visible in {_where(dim)} where a "
            "reviewer will look for it.",
        }
    if not f.found and not f.cleared:
        return {
            "score": 1,
            "argument": f"The defense concedes {dim.name}: every fact looked for is missing "
            f"({_list(f.missing)}), so there is no work to credit.",
            "cited_evidence": [NO_EVIDENCE],
            "mitigations": None,
            "remediation": f"Start with {short(f.missing[0].goal, 70)} in "
            f"{place(f.missing[0].location)}.",
        }
    credit = len(f.solid) + len(f.cleared) + 0.5 * len(f.weak)
    score = 2 + half_up(3 * credit / n) + bool(f.history) - bool(f.flaws)
    if f.security:
        score = min(score, 4)
    mitigations = [f"Credit: {fact(e)}" for e in f.solid[:4]]
    mitigations += [f"Partial credit (confidence {e.confidence:.2f}): {fact(e)}"
                    for e in f.weak[:3]]
    credited = {e.id for e in f.solid[:4]}
    mitigations += [f"Iteration history: {fact(e)}" for e in f.history[:2] if e.id not in credited]
    good = f.solid + f.weak
    parts = [f"Optimistic reading of {n} fact(s) for {dim.name}: {len(good)} show work "
             f"actually done" + (f", notably {_list(good, 2)}." if good else ".")]
    if f.cleared:
        parts.append(f"Nothing bad was found where it was looked for: no {_list(f.cleared, 2)}.")
        mitigations.append(f"Clean: no {fact(f.cleared[0])}")
    if f.weak:
        parts.append(f"{len(f.weak)} more are partly there and earn partial credit.")
    if f.history:
        parts.append(f"The history shows iteration rather than a drop-in: {fact(f.history[0])}.")
    if f.missing:
        parts.append(f"What is missing ({_list(f.missing, 2)}) reads as unfinished, "
                     "not absent intent.")
    if f.security or f.flaws:
        weak_spot = (f.security or f.flaws)[0]
        parts.append(f"A flagged weakness at {place(weak_spot.location)} is local and "
                     "fixable; it does not erase the working parts.")
    todo = [short(e.goal, 70) for e in f.missing[:3]]
    base = ", ".join(f.files(good or f.found or f.cleared))
    remediation = (f"Build on what exists in {base}: finish {'; '.join(todo)}." if todo
                   else f"Document the working parts in {base} so reviewers can find them.")
    return {
        "score": clamp(score),
        "argument": " ".join(parts),
        "cited_evidence": _cite(f.solid + f.weak + f.history),
        "mitigations": mitigations or None,
        "remediation": remediation,
    }


def tech_lead(dim: Dimension, f: Facts) -> Fields:
    """Pragmatic lens: does it work, can it be maintained, is the structure sound."""
    n = len(f.items)
    if n == 0:
        return {
            "score": 1,
            "argument": f"Nothing shows that {dim.name} works: with no evidence there is "
            "nothing a colleague could run, debug or extend.",
            "cited_evidence": [NO_EVIDENCE],
            "remediation": f"Implement {dim.name} in {_where(dim)} with a test that proves it.",
        }
    working = sorted(f.solid + f.weak, key=lambda e: (-e.confidence, e.location, e.goal))
    mean = sum(e.confidence for e in working) / len(working) if working else 0.0
    # Only what is there can work; a bad thing not found says nothing about that.
    judged = n - len(f.cleared)
    worth = sum(e.confidence for e in working) / judged if judged else 1.0
    score = 1 + half_up(4 * worth) - bool(f.broken) - bool(f.flaws)
    if f.security:
        score = min(score, 3)
    parts = [f"Pragmatic view of {dim.name}: {len(working)} of {n} fact(s) show working "
             f"parts, mean confidence {mean:.2f}."]
    if working:
        parts.append(f"Strongest: {fact(working[0])}.")
    if f.missing:
        parts.append(f"Gaps a colleague would hit: {_list(f.missing, 2)}.")
    if f.flaws:
        parts.append(f"Would bite in review or in production: {_list(f.flaws, 2)}.")
    if f.broken:
        parts.append(f"Maintenance risk, unreadable or unparseable: {_list(f.broken, 2)}.")
    if f.security:
        parts.append(f"The security defect at {fact(f.security[0])} is a correctness bug "
                     "to fix before shipping.")
    steps = [f"patch {place(e.location)} first" for e in f.security]
    steps += [f"fix {short(e.goal, 60)} in {place(e.location)}" for e in f.flaws]
    steps += [f"make {place(e.location)} readable by the tools" for e in f.broken]
    steps += [f"implement and test {short(e.goal, 60)} in {place(e.location)}"
              for e in f.missing]
    steps = _unique(steps)[:4]
    remediation = _sentence(steps) if steps else (
        f"Add regression tests around {', '.join(f.files(working))} to keep it working."
    )
    defects = [f"Defect: {fact(e)}" for e in f.security + f.flaws + f.broken]
    return {
        "score": clamp(score),
        "argument": " ".join(parts),
        "cited_evidence": _cite(
            working[:5] + f.security + f.flaws + [e for e in f.broken if e.found]
        ),
        "charges": defects or None,
        "mitigations": [f"Works: {fact(e)}" for e in working[:3]] or None,
        "remediation": remediation,
    }
