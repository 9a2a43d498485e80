"""Diagrams read for structure: fan-outs, linear flows, text figures, images, non-diagrams."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_pdf

from courtroom.detectives.docket import evidence_for
from courtroom.detectives.report import diagram_graph
from courtroom.detectives.report.diagram_text import box_drawing
from courtroom.detectives.report.diagrams import diagrams
from courtroom.detectives.report.pdf_read import PageData
from courtroom.rubric import default_rubric_path, load_rubric
from detectives.conftest import OpenCase, by_goal
from detectives.pdf_builders import chain, drawn_pdf, two_fan_outs
from detectives.submissions import exemplary_submission, flawed_submission


def test_two_three_way_fan_outs_are_not_linear(tmp_path: Path, open_case: OpenCase) -> None:
    boxes, arrows = two_fan_outs()
    pdf = drawn_pdf(tmp_path / "d.pdf", boxes, arrows)
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Vector diagram in the report")[0]
    assert item.direction == "supports" and "drawn_parallel" in item.tags
    assert "fan-out: START, aggregator" in (item.content or "")
    assert "fan-in: aggregator, chief_justice" in (item.content or "")
    # The picture is the report's diagram: judged there, never as proof of the code's graph.
    rubric = {d.id: d for d in load_rubric(default_rubric_path()).criteria}
    assert item in evidence_for(rubric["swarm_visual"], [item])
    assert not evidence_for(rubric["graph_orchestration"], [item])


def test_arrows_without_heads_flow_down_the_page(tmp_path: Path, open_case: OpenCase) -> None:
    boxes, arrows = two_fan_outs()
    pdf = drawn_pdf(tmp_path / "d.pdf", boxes, arrows, heads=False)
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Vector diagram in the report")[0]
    assert "fan-out: START, aggregator" in (item.content or "")


def test_a_linear_drawing_is_adverse_when_the_code_fans_out(tmp_path: Path,
                                                            open_case: OpenCase) -> None:
    boxes, arrows = chain()
    pdf = drawn_pdf(tmp_path / "l.pdf", boxes, arrows)
    parallel_code = diagrams(open_case(exemplary_submission(tmp_path / "a"), pdf))
    item = by_goal(parallel_code, "Vector diagram in the report shows a linear flow")[0]
    assert item.direction == "adverse" and item.fix and "linear" in item.tags
    linear_code = diagrams(open_case(flawed_submission(tmp_path / "b"), pdf))
    item = by_goal(linear_code, "Vector diagram in the report shows a linear flow")[0]
    assert item.direction == "context"


def test_code_blocks_and_tables_are_not_diagrams(tmp_path: Path, open_case: OpenCase) -> None:
    pdf = drawn_pdf(tmp_path / "c.pdf", [], [], code_block=True, table=True)
    ev = diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf))
    assert len(ev) == 1 and not ev[0].found and ev[0].direction == "adverse"
    assert "missing" in ev[0].tags


def test_mermaid_source_is_read_but_is_not_a_drawing(tmp_path: Path,
                                                     open_case: OpenCase) -> None:
    source = ("Our graph:\ngraph TD\nS[START] --> R[RepoInvestigator]\nS --> D[DocAnalyst]\n"
              "R --> A[Aggregator]\nD --> A\nA --> P[Prosecutor]\nA --> F[Defense]")
    pdf = make_pdf(tmp_path / "m.pdf", [source])
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Diagram written as text (mermaid)")[0]
    assert item.location == "pdf:page 1" and item.direction == "context"
    assert "fan-out at START, Aggregator; fan-in at Aggregator" in item.rationale
    assert {"text_diagram", "drawn_parallel"} <= set(item.tags)


def test_box_drawing_figure_shows_its_branches() -> None:
    text = ("START\n│\n▼\ncontext_builder\n├────┬────┐\n▼ ▼ ▼\nrepo doc vision\n│ │ │\n"
            "└────┴────┘\n│\n▼\nevidence_aggregator\n│\nEND")
    figure = box_drawing(PageData(6, text))
    assert figure is not None and figure.page == 6
    assert figure.fan_out == ["context_builder"] and figure.fan_in == ["evidence_aggregator"]
    assert box_drawing(PageData(1, "a plain page │ with one bar")) is None


def test_an_image_is_reported_without_guessing_its_shape(tmp_path: Path,
                                                         open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "i.pdf", ["Intro"] * 3 + ["Figure 1: the graph"], image_on=[3])
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Diagram image in the report")[0]
    assert item.location == "pdf:page 4" and item.direction == "context"
    assert "80x80 pt on page 4" in item.rationale and "not read offline" in item.rationale
    assert "drawn_parallel" not in item.tags and "shape=unknown" in (item.content or "")


def test_mermaid_beside_a_figure_image_counts_weakly(tmp_path: Path,
                                                     open_case: OpenCase) -> None:
    source = ("graph TD\nS[START] --> R[RepoInvestigator]\nS --> D[DocAnalyst]\n"
              "R --> A[Aggregator]\nD --> A")
    pdf = make_pdf(tmp_path / "m.pdf", [source, "Figure 1"], image_on=[1])
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Diagram written as text (mermaid)")[0]
    assert item.direction == "supports" and item.confidence < 0.6
    assert "figure image(s) (first at page 2), not read offline" in item.rationale


def test_a_page_over_the_shape_bound_says_it_was_not_read(tmp_path: Path, open_case: OpenCase,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diagram_graph, "MAX_SHAPES", 3)
    boxes, arrows = two_fan_outs()
    ev = diagrams(open_case(exemplary_submission(tmp_path / "r"),
                            drawn_pdf(tmp_path / "d.pdf", boxes, arrows)))
    unread = by_goal(ev, "Vector diagram not read")[0]
    assert unread.direction == "context" and "shapes, over the 3" in unread.rationale
    assert not by_goal(ev, "Vector diagram in the report")
