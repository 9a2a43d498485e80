"""Commit dates are the author's claims: a history of forged dates, each commit adding a
finished file, tools first, must not read as a progression. What the commits changed
weighs more than when they say they were made."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import Commit, make_repo

from courtroom.detectives.repo.history import history
from courtroom.detectives.repo.history_claims import CLAIM_CONFIDENCE, DATED_TAG
from detectives.conftest import OpenCase, by_goal
from detectives.history_builders import built_history, finished_files, forged_date, forged_history

FINISHED = "Commits only add finished files"


def test_a_forged_progression_is_charged_and_its_dates_kept_as_claims(
    tmp_path: Path, open_case: OpenCase
) -> None:
    ev = history(open_case(forged_history(tmp_path / "r")))
    (finished,) = by_goal(ev, FINISHED)
    assert finished.direction == "adverse" and finished.found
    assert "0 of them revise a file an earlier commit wrote" in finished.rationale
    dated = [e for e in ev if DATED_TAG in e.tags]
    assert {e.goal.split(" (")[0].split(" ->")[0] for e in dated} >= {
        "Work spread over several sessions", "Progression setup"}
    assert all(e.confidence <= CLAIM_CONFIDENCE and "a claim" in e.rationale
               for e in dated if e.direction == "supports")
    (claims,) = by_goal(ev, "Commit dates are the author's claims")
    assert claims.direction == "context" and "no push times" in claims.rationale


def test_a_history_that_revises_its_files_keeps_its_progression(
    tmp_path: Path, open_case: OpenCase
) -> None:
    ev = history(open_case(built_history(tmp_path / "r")))
    assert not by_goal(ev, FINISHED)
    progression = by_goal(ev, "Progression setup -> tools -> graph")[0]
    assert progression.direction == "supports" and progression.confidence > CLAIM_CONFIDENCE
    assert by_goal(ev, "Commit dates are the author's claims")  # said of every history


@pytest.mark.parametrize("count", [5, 7])
def test_a_short_history_is_too_small_to_call(
    tmp_path: Path, open_case: OpenCase, count: int
) -> None:
    commits = [Commit(f"Add {p}", {p: c}, date=forged_date(i))
               for i, (p, c) in enumerate(finished_files()[:count + 1])]
    ev = history(open_case(make_repo(tmp_path / "r", commits)))
    assert not by_goal(ev, FINISHED)
