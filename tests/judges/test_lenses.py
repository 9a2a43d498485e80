"""The lenses weigh a fact that the design cannot work: present patterns earn no full credit."""

from __future__ import annotations

from courtroom.detectives.common import UNWORKABLE
from courtroom.judges.facts import Facts
from courtroom.judges.lenses import BY_PERSONA

from .conftest import ev, make_criterion

PATTERNS = tuple(ev(f"Pattern {i} present", location=f"src/graph.py:{i}", confidence=0.95)
                 for i in range(1, 7))


def test_without_an_unworkable_fact_the_patterns_score_high() -> None:
    facts = Facts(PATTERNS)
    assert all(lens(make_criterion(), facts)["score"] == 5 for lens in BY_PERSONA.values())


def test_an_unworkable_fact_caps_every_lens() -> None:
    broken = ev("Nodes no run reaches", location="src/graph.py:40", confidence=0.75,
                tags=("graph", UNWORKABLE), direction="adverse",
                rationale="judge is added but no edge leads there.", fix="add an edge into it.")
    facts = Facts((*PATTERNS, broken))
    for persona, lens in BY_PERSONA.items():
        fields = lens(make_criterion(), facts)
        assert fields["score"] <= 3, persona
        assert "src/graph.py:40" in str(fields["remediation"]), persona
    assert "cannot work as built" in BY_PERSONA["TechLead"](make_criterion(), facts)["argument"]


def test_an_unworkable_fact_that_was_not_found_caps_nothing() -> None:
    absent = ev("Nodes no run reaches", found=False, tags=("graph", UNWORKABLE),
                direction="adverse")
    assert not Facts((*PATTERNS, absent)).unworkable


def test_a_discredited_report_scores_two_at_most() -> None:
    false = ev("Several of the report's statements are false", location="pdf:page 3",
               tags=("claims", "discredited"), direction="adverse",
               rationale="3 of 4 claims are contradicted.", fix="correct each on its page.")
    facts = Facts((*PATTERNS, false))
    assert all(lens(make_criterion(), facts)["score"] <= 2 for lens in BY_PERSONA.values())


def test_an_unproven_criterion_names_where_its_facts_were_read() -> None:
    seen = ev("Diagram image in the report", location="pdf:page 4", tags=("diagram",),
              direction="context")
    for lens in BY_PERSONA.values():
        fix = lens(make_criterion(), Facts((seen,)))["remediation"]
        assert "PDF page 4" in fix and "Diagram image" in fix
