"""The dissent summary of DESIGN §4 rule 6: every judge's score, and why the lowest and
highest disagree, in words a reader can check against the cited facts.

Pure, like the chief justice that calls it when the variance passes the threshold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from courtroom.models import NO_EVIDENCE, Evidence, JudicialOpinion


def _facts(ids: Iterable[str], pool: Mapping[str, Evidence]) -> str:
    """Cited facts named by their goals, for a sentence; at most two, then a count."""
    names = []
    for cid in sorted(ids):
        evidence = pool.get(cid)
        if evidence is None:
            names.append("an id that is not in the evidence pool")
        else:
            goal = " ".join(evidence.goal.split())[:80]
            names.append(f"'{goal}'" + ("" if evidence.found else " (not found)"))
    more = f" and {len(names) - 2} more" if len(names) > 2 else ""
    return "; ".join(names[:2]) + more


def _why(low: JudicialOpinion, high: JudicialOpinion, pool: Mapping[str, Evidence]) -> str:
    """Why the lowest and highest scores differ: other facts, or the same facts weighed."""
    cited_low = set(low.cited_evidence) - {NO_EVIDENCE}
    cited_high = set(high.cited_evidence) - {NO_EVIDENCE}
    if not cited_low and not cited_high:
        return "Neither cites evidence, so they differ in judgement alone."
    if cited_low == cited_high:
        n = len(cited_low)
        what = "the same fact and weigh it" if n == 1 else f"the same {n} facts and weigh them"
        return f"They cite {what} differently."
    parts = []
    if cited_low - cited_high:
        parts.append(f"only {low.judge} cites {_facts(cited_low - cited_high, pool)}")
    if cited_high - cited_low:
        parts.append(f"only {high.judge} cites {_facts(cited_high - cited_low, pool)}")
    return "They rest on different facts: " + ", while ".join(parts) + "."


def dissent_summary(
    participating: Sequence[JudicialOpinion], variance: int, pool: Mapping[str, Evidence]
) -> str:
    """Name every judge and score, and say why the lowest and highest disagree."""
    ordered = sorted(participating, key=lambda o: o.score)
    low, high = ordered[0], ordered[-1]
    scores = ", ".join(f"{o.judge} {o.score}" for o in participating)

    def gist(opinion: JudicialOpinion) -> str:
        points = (opinion.charges if opinion is low else opinion.mitigations) or []
        verb = ("charges" if opinion is low else "credits") if points else "argues"
        text = points[0] if points else opinion.argument
        first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0][:240].rstrip()
        end = "" if first.endswith((".", "!", "?")) else "."
        return f"{opinion.judge} ({opinion.score}) {verb}: {first}{end}"

    return (
        f"Judges disagree by {variance} points ({scores}). {_why(low, high, pool)} "
        f"{gist(low)} {gist(high)}"
    )
