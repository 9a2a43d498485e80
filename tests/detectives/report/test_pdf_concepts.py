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
    criterion = concept_dimension("Search for 'Graceful Degradation' and 'Backpressure'.",
                            "Graceful Degradation is tied to a fallback route for errors.")
    pdf = make_pdf(tmp_path / "h.pdf", [
        "When a detective raises, route_after_evidence sends the run down the fallback route\n"
        "to handle_missing, so errors never stop the audit and the judges still run on the\n"
        "evidence that exists; src/graph.py wires this conditional edge."])
    ev = report(with_rubric(open_case(exemplary_submission(tmp_path / "r"), pdf), criterion))
    item = by_goal(ev, "Concept 'Graceful Degradation'")[0]
    assert item.found and item.direction == "supports" and "paraphrased" in item.tags
    absent = by_goal(ev, "Concept 'Backpressure'")[0]
    assert not absent.found and absent.direction == "adverse" and "missing" in absent.tags


def test_without_dimensions_the_default_rubric_names_the_concepts(
        tmp_path: Path, open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "p.pdf", ["Graceful Degradation is all we talk about here."])
    ev = report(open_case(exemplary_submission(tmp_path / "r"), pdf))
    assert len(by_goal(ev, "Concept ")) == len(rubric_concepts(load_rubric(
        default_rubric_path()).criteria)) > 0
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


@pytest.mark.parametrize("line", [
    "2.3 Metacognition and MinMax Feedback", "3. METACOGNITION AND SELF-AUDIT",
    "## Design", "KEY FINDINGS:", "Architecture Deep Dive", "Fan-In/Fan-Out Orchestration",
    "Reflection on the Feedback Loop", "2.1 Conceptual Grounding: Dialectical Synthesis,"])
def test_heading_lines(line: str) -> None:
    assert pdf_concepts.is_heading(line)


@pytest.mark.parametrize("line", [
    "● Fan-Out: START node branches to three detective nodes.", "Key Parallelism Features:",
    "1. Self-Audit Capability: The agent audits its own repository to produce a score.",
    "before the judges run, so no judge sees partial evidence.", "the evidence flows on",
    "Dialectical Synthesis 5/5 Full implementation of"])
def test_lines_that_are_no_headings(line: str) -> None:
    assert not pdf_concepts.is_heading(line)


def test_a_concept_in_a_heading_does_not_borrow_the_next_sections_text(
        tmp_path: Path, open_case: OpenCase) -> None:
    ws = open_case(exemplary_submission(tmp_path / "r")).workspace
    page = ("2.3 Metacognition and Feedback\n"
            "• The system improves over time through feedback from audits.\n"
            "3. StateGraph Orchestration\n"
            "The evidence_aggregator node waits for repo_investigator and doc_analyst, then\n"
            "routes the merged evidence to the judges, so each judge reads every fact; the\n"
            "chief_justice applies the rules in src/justice.py when the opinions return.\n")
    found = analyse(PdfData("r.pdf", [PageData(1, page)], 1), rubric_concepts([FOUR]), ws)
    meta = next(f for f in found if f.concept == "Metacognition")
    assert meta.level != "explained" and "evidence_aggregator" not in meta.excerpt
    # The same explanation under the concept's own heading is credited.
    own = page.replace("3. StateGraph Orchestration\n", "")
    found = analyse(PdfData("r.pdf", [PageData(1, own)], 1), rubric_concepts([FOUR]), ws)
    assert next(f for f in found if f.concept == "Metacognition").level == "explained"


def test_a_heading_naming_three_concepts_is_a_list_not_an_explanation(
        tmp_path: Path, open_case: OpenCase) -> None:
    ws = open_case(exemplary_submission(tmp_path / "r")).workspace
    page = ("2.1 Grounding: Dialectical Synthesis,\nFan-In/Fan-Out, Metacognition\n"
            "Dialectical Synthesis is implemented by three judges: the prosecutor node\n"
            "charges every gap, the defense node credits effort, and the chief_justice in\n"
            "src/justice.py resolves their conflict with rules instead of averaging.\n")
    found = analyse(PdfData("r.pdf", [PageData(1, page)], 1), rubric_concepts([FOUR]), ws)
    levels = {f.concept: f.level for f in found}
    assert levels["Dialectical Synthesis"] == "explained"
    assert levels["Fan-In/Fan-Out"] == levels["Metacognition"] == "named"


@pytest.mark.parametrize(("text", "named"), [
    ("Documentation Synchronization: update the PDF to match the code state.", False),
    ("Dialectical tension between the personas improved the scores.", False),
    ("The synchronization of the shared state is done by reducers.", True),
    ("Synchronization: every branch merges through reducers.", True),
    ("The judges argue dialectically before the verdict.", True),
    ("Our Dialectical Synthesis engine resolves conflicts.", True),
])
def test_a_distinctive_word_alone_names_the_concept_only_as_its_head(text: str,
                                                                     named: bool) -> None:
    concepts = {c.name: c for c in rubric_concepts([FOUR])}
    concept = concepts["State Synchronization" if "ynchron" in text else
                       "Dialectical Synthesis"]
    assert concept.named_in(text) is named


def test_a_code_name_in_prose_casing_ties_to_the_code(tmp_path: Path,
                                                      open_case: OpenCase) -> None:
    from courtroom.detectives.report.pdf_text import code_ties
    ws = open_case(exemplary_submission(tmp_path / "r")).workspace
    ties = code_ties("The RepoInvestigator and the EvidenceAggregator feed the LangGraph "
                     "StateMachine.", ws)
    assert "RepoInvestigator" in ties and "EvidenceAggregator" in ties
    assert "LangGraph" not in ties and "StateMachine" not in ties


def test_the_concepts_own_word_in_another_role_is_no_paraphrase(
        tmp_path: Path, open_case: OpenCase) -> None:
    criterion = concept_dimension("Search for 'Dialectical Synthesis' and 'Backpressure'.",
                            "Dialectical Synthesis is implemented via three parallel judge "
                            "personas.")
    text = ("The three judge personas run in parallel on the evidence, because each\n"
            "reads it through its own lens; the chief_justice in src/justice.py then\n"
            "weighs them. Dialectical tension between the judge personas improved the\n"
            "scores when they were compared.")
    ws = open_case(exemplary_submission(tmp_path / "r")).workspace
    found = analyse(PdfData("r.pdf", [PageData(1, text)], 1), rubric_concepts([criterion]), ws)
    assert next(f for f in found if f.concept == "Dialectical Synthesis").level != "explained"
    # The same explanation without the concept's word is the concept in other words.
    other = text.replace("Dialectical tension", "Tension")
    found = analyse(PdfData("r.pdf", [PageData(1, other)], 1), rubric_concepts([criterion]), ws)
    explained = next(f for f in found if f.concept == "Dialectical Synthesis")
    assert explained.level == "explained" and explained.paraphrased
