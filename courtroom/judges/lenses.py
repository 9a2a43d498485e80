"""The three offline lenses: deterministic rules that read the same directed facts three ways.

Every lens scores a criterion on the share of its weighed aspects that hold (supporting
facts against adverse ones, see ``Facts.share``); the lenses differ in how they read that
share and what they stress. Prosecutor charges every adverse fact; Defense credits every
supporting fact (and only those: an adverse fact is never credit); TechLead weighs whether
it works and can be kept working. Each returns the fields of an opinion (no id): score,
argument, cited_evidence, charges, mitigations, remediation.

Citations: a lens cites the found facts it relies on. Facts with ``found: false`` are
named in the text (goal and place) but not cited, because the chief justice's
fact-supremacy rule treats a citation of an absent fact as building on nothing. With no
found fact to cite, a lens cites ``NO_EVIDENCE``.

Remediation comes only from adverse facts, one line each naming the place and the change,
so no lens ever advises adding what the detectives found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from courtroom.chief_justice import round_score
from courtroom.judges.facts import (
    Facts,
    against,
    clamp,
    fact,
    first_sentence,
    ids,
    implied_keyword,
    place,
    spot,
)
from courtroom.models import NO_EVIDENCE, JudgeName
from courtroom.rubric import Criterion
from courtroom.untrusted import one_line

Fields = dict[str, Any]

_ARTIFACT_PLACE = {
    "github_repo": "the repository",
    "pdf_report": "the PDF report",
    "pdf_images": "the PDF report's diagrams",
}


def _where(criterion: Criterion) -> str:
    return _ARTIFACT_PLACE.get(criterion.target_artifact, "the submission")


def _cite(items: list[Any]) -> list[str]:
    return ids(items) or [NO_EVIDENCE]


def _list(items: list[Any], limit: int = 3) -> str:
    return "; ".join(fact(e) for e in items[:limit])


def _remediation(f: Facts) -> str | None:
    """The cure of the adverse facts, most serious first; None when nothing is adverse."""
    fixes = f.fixes(3)
    return " ".join(fixes) if fixes else None


def _unproven(criterion: Criterion, score: int, f: Facts, argument: str) -> Fields:
    """The opinion when no fact points either way: nothing can be credited."""
    return {
        "score": score,
        "argument": argument,
        "cited_evidence": [NO_EVIDENCE],
        "remediation": _unproven_fix(criterion, f),
    }


def _unproven_fix(criterion: Criterion, f: Facts) -> str:
    """What would let the criterion be judged: the artifact that was absent, else what the
    detectives looked for (cut at a word, never mid-word)."""
    absent = next((e for e in f.items if not e.found and e.goal.startswith("PDF report ")), None)
    if absent is not None and absent.goal == "PDF report given":
        return (f"No PDF report was given, so {criterion.name} could not be judged: pass the "
                "report with --pdf (the action's `pdf` input).")
    if absent is not None:
        return (f"The PDF report could not be read ({one_line(absent.content or '', 90)}), so "
                f"{criterion.name} could not be judged: provide a text PDF that opens without a "
                "password.")
    # A fact that was read but decides nothing still says where to look: name its place.
    seen = next((e for e in f.items if e.found and place(e.location) != "the repository"
                 and e.location.lower() != "pdf"), None)
    at = f"at {spot(seen.location)} ({one_line(seen.goal, 60)}), " if seen else ""
    asked = first_sentence(criterion.forensic_instruction, 140)
    return (f"Nothing in {_where(criterion)} could be judged for {criterion.name}; {at}make it "
            f"show what the detectives look for: {asked}.")


def prosecutor(criterion: Criterion, f: Facts) -> Fields:
    """Critical lens: every adverse fact is a charge; only proven support escapes one."""
    share = f.share(weak_credit=0.0)
    if share is None:
        fields = _unproven(criterion, 1, f, f"No fact shows that {criterion.name} is met. "
                           "An unproven "
                           "criterion earns the minimum: the burden of proof lies with "
                           "the submission.")
        fields["charges"] = [f"Nothing in {_where(criterion)} shows {criterion.name}."]
        return fields
    charges: list[str] = []
    for item in f.security:
        keyword = implied_keyword(item)
        charges.append(f"Security flaw{f' ({keyword})' if keyword else ''}: {fact(item)}")
    charges += [f"Against: {against(e)}" for e in f.flaws]
    charges += [f"Missing: {fact(e)}" for e in f.missing]
    charges += [f"Unverified (confidence {e.confidence:.2f}): {fact(e)}" for e in f.weak]
    score = 1 + int(4 * share)
    if f.security:
        score = min(score, 2)
    parts = [f"Critical reading of {criterion.name}: {len(f.solid)} fact(s) hold, "
             f"{len(f.adverse)} point against it ({len(f.missing)} missing, "
             f"{len(f.flaws)} flaw(s), {len(f.security)} security finding(s))."]
    if f.security:
        keyword = implied_keyword(f.security[0])
        parts.append(f"Unsafe code stands proven: {keyword or 'a security flaw'} at "
                     f"{fact(f.security[0])}.")
    if f.flaws:
        proven = "; ".join(against(e) for e in f.flaws[:3])
        parts.append(f"Proven against the submission: {proven}.")
    if f.missing:
        parts.append(f"Not found: {_list(f.missing)}.")
    if f.weak:
        parts.append(f"Resting on low confidence only: {_list(f.weak)}.")
    if not charges:
        parts.append(f"Nothing left to charge; the facts hold, e.g. {fact(f.supports[0])}.")
    return {
        "score": clamp(f.cap(score)),
        "argument": " ".join(parts),
        "cited_evidence": _cite(f.security + f.flaws + f.weak + f.solid),
        "charges": charges or None,
        "remediation": _remediation(f),
    }


def defense(criterion: Criterion, f: Facts) -> Fields:
    """Optimistic lens: credit every supporting fact, read gaps as unfinished work."""
    share = f.share()
    if share is None:
        fields = _unproven(criterion, 2, f, f"No fact points either way for {criterion.name}. "
                           "Silence from "
                           "the detectives is not proof the work is absent; the defense "
                           "cannot credit what it cannot see, but asks the court not to "
                           "presume the worst.")
        fields["mitigations"] = ["The detectives produced nothing decisive for this "
                                 "criterion: a gap in collection, not necessarily in the work."]
        return fields
    if not f.supports:
        return {
            "score": 1,
            "argument": f"The defense concedes {criterion.name}: every fact points against it "
            f"({_list(f.adverse)}), so there is no work to credit.",
            "cited_evidence": [NO_EVIDENCE],
            "mitigations": None,
            "remediation": _remediation(f),
        }
    score = 2 + round_score(3 * share)
    if f.security:
        score = min(score, 4)
    mitigations = _mitigations(f)
    parts = [f"Optimistic reading of {criterion.name}: {len(f.supports)} fact(s) show work that "
             f"meets it, notably {_list(f.supports, 2)}."]
    if f.weak:
        parts.append(f"{len(f.weak)} of them rest on low confidence and earn partial credit.")
    if f.history:
        parts.append(f"The history shows iteration rather than a drop-in: {fact(f.history[0])}.")
    if f.missing:
        parts.append(f"What is missing ({_list(f.missing, 2)}) reads as unfinished, "
                     "not absent intent.")
    if f.unworkable:
        parts.append(f"Still, {against(f.unworkable[0])}: what is present does not run as "
                     "built, and the defense cannot credit it in full.")
    elif f.security or f.flaws:
        weak_spot = (f.security or f.flaws)[0]
        parts.append(f"A weakness at {place(weak_spot.location)} is local and fixable; it "
                     "does not erase the working parts.")
    return {
        "score": clamp(f.cap(score)),
        "argument": " ".join(parts),
        "cited_evidence": _cite(f.solid + f.weak),
        "mitigations": mitigations or None,
        "remediation": _remediation(f),
    }


def _mitigations(f: Facts) -> list[str]:
    """What the defense credits: solid facts, weak ones in part, and the history."""
    mitigations = [f"Credit: {fact(e)}" for e in f.solid[:4]]
    mitigations += [f"Partial credit (confidence {e.confidence:.2f}): {fact(e)}"
                    for e in f.weak[:3]]
    credited = {e.id for e in f.solid[:4]}
    return mitigations + [f"Iteration history: {fact(e)}" for e in f.history[:2]
                          if e.id not in credited]


def tech_lead(criterion: Criterion, f: Facts) -> Fields:
    """Pragmatic lens: does it work, can it be maintained, is the structure sound."""
    share = f.share(weak_credit=0.5)
    if share is None:
        return _unproven(criterion, 1, f, f"Nothing shows that {criterion.name} works: "
                         "with no decisive "
                         "evidence there is nothing a colleague could run, debug or extend.")
    working = sorted(f.supports, key=lambda e: (-e.confidence, e.location, e.goal))
    score = 1 + round_score(4 * share) - bool(f.broken)
    if f.security:
        score = min(score, 3)
    parts = [f"Pragmatic view of {criterion.name}: {len(working)} fact(s) show working parts "
             f"against {len(f.adverse)} that do not."]
    if working:
        parts.append(f"Strongest: {fact(working[0])}.")
    if f.missing:
        parts.append(f"Gaps a colleague would hit: {_list(f.missing, 2)}.")
    if f.flaws:
        parts.append("Would bite in review or in production: "
                     f"{'; '.join(against(e) for e in f.flaws[:2])}.")
    if f.broken:
        parts.append(f"Maintenance risk, unreadable or unparseable: {_list(f.broken, 2)}.")
    if f.security:
        parts.append(f"The security defect at {fact(f.security[0])} is a correctness bug "
                     "to fix before shipping.")
    if f.unworkable:
        parts.append(f"It cannot work as built ({against(f.unworkable[0])}), so the patterns "
                     "present earn no more than partial credit.")
    defects = [f"Defect: {against(e)}" for e in f.security + f.flaws + f.broken if e.found]
    return {
        "score": clamp(f.cap(score)),
        "argument": " ".join(parts),
        "cited_evidence": _cite(working[:5] + f.security + f.flaws + f.broken),
        "charges": defects or None,
        "mitigations": [f"Works: {fact(e)}" for e in working[:3]] or None,
        "remediation": _remediation(f),
    }


#: Each persona's lens, for the opening opinion and for a hearing's second look.
BY_PERSONA: dict[JudgeName, Callable[[Criterion, Facts], Fields]] = {
    "Prosecutor": prosecutor,
    "Defense": defense,
    "TechLead": tech_lead,
}
