"""Concept depth: read from the rubric, judged by mechanism and ties to code, not phrases."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from builders import make_pdf

from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.report import pdf_concepts
from courtroom.detectives.report.concept_terms import rubric_concepts
from courtroom.detectives.report.detective import report
from courtroom.detectives.report.pdf_concepts import MAX_GRADED, analyse
from courtroom.detectives.report.pdf_read import PageData, PdfData
from courtroom.rubric import default_rubric_path, load_rubric
from detectives.conftest import OpenCase, by_goal
from detectives.pdf_builders import (
    FOUR,
    concept_dimension,
    name_drop_pages,
    paraphrase_pages,
    with_rubric,
)
from detectives.submissions import exemplary_submission

CONCEPTS = ("Dialectical Synthesis", "Fan-In/Fan-Out", "Metacognition", "State Synchronization")


def test_concepts_come_from_the_rubric_quoted_or_not() -> None:
    assert [c.name for c in rubric_concepts([FOUR])] == list(CONCEPTS)
    quoted = concept_dimension("Verify mentions of 'Graceful Degradation' and 'Backpressure'. "
                               "Flag terms without explanation as 'Keyword Dropping'. Check "
                               "claims (e.g., 'We implemented parallel Judges').")
    assert [c.name for c in rubric_concepts([quoted])] == ["Graceful Degradation", "Backpressure"]


def test_other_words_get_credit(tmp_path: Path, open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "p.pdf", paraphrase_pages())
    ev = report(with_rubric(open_case(exemplary_submission(tmp_path / "r"), pdf), FOUR))
    for concept, page in zip(CONCEPTS, (2, 1, 4, 3), strict=True):
        item = by_goal(ev, f"Concept '{concept}'")[0]
        assert item.found and item.direction == "supports", (concept, item.rationale)
        assert item.location == f"pdf:page {page}"
        assert (item.content or "").startswith("explained")


def test_name_dropping_beside_code_names_is_no_credit(tmp_path: Path,
                                                      open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "n.pdf", name_drop_pages())
    ev = report(with_rubric(open_case(exemplary_submission(tmp_path / "r"), pdf), FOUR))
    for concept in CONCEPTS:
        item = by_goal(ev, f"Concept '{concept}'")[0]
        assert not item.found and item.direction == "adverse", (concept, item.rationale)
        assert "keyword_dropping" in item.tags and item.fix


def test_hints_from_the_success_pattern_find_an_unnamed_explanation(
        tmp_path: Path, open_case: OpenCase) -> None:
    dim = concept_dimension("Search for 'Graceful Degradation' and 'Backpressure'.",
                            "Graceful Degradation is tied to a fallback route for errors.")
    pdf = make_pdf(tmp_path / "h.pdf", [
        "When a detective raises, route_after_evidence sends the run down the fallback route\n"
        "to handle_missing, so errors never stop the audit and the judges still run on the\n"
        "evidence that exists; src/graph.py wires this conditional edge."])
    ev = report(with_rubric(open_case(exemplary_submission(tmp_path / "r"), pdf), dim))
    item = by_goal(ev, "Concept 'Graceful Degradation'")[0]
    assert item.found and item.direction == "supports" and "paraphrased" in item.tags
    absent = by_goal(ev, "Concept 'Backpressure'")[0]
    assert not absent.found and absent.direction == "adverse" and "missing" in absent.tags


def test_without_dimensions_the_default_rubric_names_the_concepts(
        tmp_path: Path, open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "p.pdf", ["Graceful Degradation is all we talk about here."])
    ev = report(open_case(exemplary_submission(tmp_path / "r"), pdf))
    assert len(by_goal(ev, "Concept ")) == len(rubric_concepts(load_rubric(
        default_rubric_path()).dimensions)) > 0
    assert not by_goal(ev, "Concept 'Graceful Degradation'")


def test_a_name_repeated_thousands_of_times_is_counted_but_graded_a_bounded_number_of_times(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = open_case(exemplary_submission(tmp_path / "r")).workspace
    graded: list[str] = []
    real_grade = pdf_concepts.grade

    def counting(passage: str, ws: Workspace, *, listed: bool) -> tuple[str, list[str], int]:
        graded.append(passage)
        return real_grade(passage, ws, listed=listed)

    monkeypatch.setattr(pdf_concepts, "grade", counting)
    pages = [PageData(1, "Fan-In " * 5_700), PageData(2, "Metacognition Fan-In " * 1_900)]
    started = time.perf_counter()
    found = analyse(PdfData("r.pdf", pages, 2), rubric_concepts([FOUR]), ws)
    # It took over 5 s before (every mention graded, every other mention scanned for
    # the passage's end), with repetition alone and not a word of explanation.
    assert time.perf_counter() - started < 3.0
    fan = next(f for f in found if f.concept == "Fan-In/Fan-Out")
    assert fan.mentions == 5_700 + 1_900 and fan.pages == [1, 2] and fan.level == "named"
    assert len(graded) == 3 * MAX_GRADED  # per page and concept named there
