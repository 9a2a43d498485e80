"""Digesting a criterion for display: each citation checked against the pool, each fact
listed once with who cited it, penalised scores shown as counted, the court's path told."""

from __future__ import annotations

from verdict_builders import GHOST_ID, make_criterion, make_evidence, make_opinion

from courtroom.models import NO_EVIDENCE, CourtRecord, EvidenceGap, HearingRound
from courtroom.render.build import criterion_view

FOUND = make_evidence("state is typed", location="src/state.py:3", direction="supports")
ABSENT = make_evidence("reducers used", location="src/state.py", found=False)
POOL = {FOUND.id: FOUND, ABSENT.id: ABSENT}


def test_each_citation_is_checked_against_the_pool() -> None:
    cites = [FOUND.id, ABSENT.id, GHOST_ID, NO_EVIDENCE]
    opinions = [make_opinion("Prosecutor", "c", 3, cites=cites),
                make_opinion("Defense", "c", 4, cites=[FOUND.id]),
                make_opinion("TechLead", "c", 4, cites=[FOUND.id])]
    view = criterion_view(make_criterion("c", "C", opinions, POOL), POOL)
    shown = [(c.status, c.location, c.direction) for c in view.judges[0].citations]
    assert shown == [("ok", "src/state.py:3", "supports"), ("not_found", "src/state.py", "context"),
                     ("hallucinated", "", "context"), ("none", "", "context")]
    # The penalty for citing what is not there shows as the score that counted.
    assert view.judges[0].score == 3 and view.judges[0].scored < 3
    assert view.judges[1].scored == view.judges[1].score


def test_each_fact_is_listed_once_naming_its_citers_only_when_not_all_cited_it() -> None:
    opinions = [make_opinion("Prosecutor", "c", 3, cites=[FOUND.id, ABSENT.id]),
                make_opinion("Defense", "c", 3, cites=[FOUND.id, NO_EVIDENCE]),
                make_opinion("TechLead", "c", 3, cites=[FOUND.id])]
    view = criterion_view(make_criterion("c", "C", opinions, POOL), POOL)
    assert [(c.id, c.cited_by) for c in view.evidence] == [(FOUND.id, []),
                                                           (ABSENT.id, ["Prosecutor"])]


def test_the_courts_path_is_told_with_what_it_cost() -> None:
    opinions = [make_opinion(j, "c", 3, cites=[FOUND.id]) for j in ("Prosecutor", "Defense",
                                                                    "TechLead")]
    rounds = [HearingRound(round=n, stage="hearing", opinions=opinions) for n in range(3)]
    record = CourtRecord(path="mistrial", rounds=rounds, remands=1, extra_calls=6,
                         mistrial_reason="time_exhausted",
                         gaps=[EvidenceGap(missing="the retry policy", raised_by="Defense",
                                           stage="remand")])
    result = make_criterion("c", "C", opinions, POOL, court=record)
    view = criterion_view(result, POOL)
    assert view.court == "declared a mistrial"
    assert view.court_detail == ("2 hearing rounds, 1 remand, 6 extra calls; mistrial: time "
                                 "exhausted; unresolved: the retry policy")
    plea = make_criterion("c", "C", opinions, POOL, court=CourtRecord(path="plea"))
    assert (criterion_view(plea, POOL).court, criterion_view(plea, POOL).court_detail) == (
        None, None)
