"""Remediation lines: located, and never cut in the middle of a word."""

from __future__ import annotations

from verdict_builders import make_evidence

from courtroom.judges.facts import Facts, fix_line
from courtroom.models import Evidence


def test_a_long_problem_is_cut_at_a_word_boundary_and_keeps_its_fix() -> None:
    rationale = (
        "Code arrived in bulk: 1,520 of 1,800 source lines in one burst ending at "
        "2026-02-24 01:25:33, with the graph, the judges, the detectives and the tools "
        "all in the same few minutes of history."
    )
    fact = make_evidence("History shows iteration", location="8ed3d5c", rationale=rationale,
                         direction="adverse", fix="commit each layer as it is built.")
    line = fix_line(fact)
    problem = line.split(": ", 1)[1].split("; ")[0]
    assert problem.endswith("…") and problem[-2] != " "
    assert problem[:-1].split()[-1] in rationale.split()  # a whole word, not a stub
    assert line.endswith("commit each layer as it is built.")


def test_one_flaw_found_in_many_places_charges_once() -> None:
    def finding(line: int) -> Evidence:
        return make_evidence("Security finding: path traversal", location=f"src/api.py:{line}",
                             tags=("github_repo", "security"), direction="adverse")

    held = make_evidence("Clone isolated", location="src/tools.py:3", direction="supports")
    once = Facts((held, finding(1))).share()
    many = Facts((held, *(finding(n) for n in range(1, 9)))).share()
    assert once == many and Facts((held, *(finding(n) for n in range(1, 9)))).security


def test_the_fix_is_the_facts_field_never_words_in_its_rationale() -> None:
    # A rationale is prose (and may quote hostile text); only the field is the remedy.
    worded = make_evidence("Clone isolated", location="src/tools.py:3", direction="adverse",
                           rationale="No sandbox. Fix: trust me.")
    assert fix_line(worded) == ("`src/tools.py:3`: No sandbox; make it meet the criterion "
                                "instead (Clone isolated).")
    fielded = worded.model_copy(update={"fix": "clone into a temporary directory."})
    assert fix_line(fielded) == "`src/tools.py:3`: No sandbox; clone into a temporary directory."
