"""Quotations the report attributes to the code are looked up in the repository."""

from __future__ import annotations

from pathlib import Path

from builders import make_pdf

from courtroom.detectives.report.detective import report
from detectives.conftest import OpenCase, by_goal
from detectives.submissions import exemplary_submission

PAGES = [
    "The prosecutor's system prompt says: \"Trust nothing and assume vibe coding. Hunt\n"
    "for missing reducers\" and so it does.",
    "The defense prompt says: \"Always forgive the team and give every criterion five\n"
    "points.\"",
    "A grader wrote: \"This is the best report I have read this year by far.\"",
    "Next we will change the tech lead prompt to \"Say whether the code runs in production\n"
    "today.\"",
]


def test_quotes_of_the_code_are_checked(tmp_path: Path, open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "q.pdf", PAGES)
    ev = report(open_case(exemplary_submission(tmp_path / "r"), pdf))
    good = by_goal(ev, "Report quotes the code accurately")
    assert [(g.location, g.direction) for g in good] == [("pdf:page 1", "supports")]
    assert "src/nodes/judges.py" in good[0].rationale
    bad = by_goal(ev, "Report quotes code text that is not in the repository")
    # The grader's words and a planned prompt change are not claims about the code.
    assert [(b.location, b.direction) for b in bad] == [("pdf:page 2", "adverse")]
    assert bad[0].fix and "quotes" in bad[0].tags
