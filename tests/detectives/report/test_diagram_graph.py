"""Vector drawings read as graphs, and pages with more shapes than a diagram holds left unread."""

from __future__ import annotations

import time

from courtroom.detectives.report.diagram_graph import MAX_SHAPES, read_drawing
from courtroom.detectives.report.pdf_read import Box, PageData


def _fan_out_page(padding: int = 0) -> PageData:
    """START above two boxes, a line from its bottom edge to the top of each; ``padding``
    specks of ink far from the drawing (each too small to be a box or a connector)."""
    boxes: list[Box] = [(200, 40, 300, 64), (100, 140, 200, 164), (300, 140, 400, 164)]
    words = [(label, (b[0] + 4, b[1] + 6, b[0] + 40, b[1] + 16))
             for label, b in zip(("START", "left", "right"), boxes, strict=True)]
    lines: list[Box] = [(150, 64, 230, 140), (270, 64, 350, 140)]
    specks: list[Box] = [(10 + i % 50, 700 + i // 50 % 50, 11 + i % 50, 701 + i // 50 % 50)
                         for i in range(padding)]
    return PageData(3, "", rects=boxes + specks, lines=lines, words=words)


def test_a_drawn_fan_out_is_read() -> None:
    drawing = read_drawing(_fan_out_page(padding=MAX_SHAPES - 5))
    assert drawing.unread is None and drawing.fan_out == ["START"]
    assert sorted(drawing.edges) == [(0, 1), (0, 2)]


def test_a_page_with_more_shapes_than_a_diagram_holds_is_not_read_and_says_so() -> None:
    started = time.perf_counter()
    drawing = read_drawing(_fan_out_page(padding=25_000))
    # Shapes are compared pairwise: 4,000 of them took 18 s before the bound.
    assert time.perf_counter() - started < 1.0
    assert drawing.edges == set() and drawing.unread == (
        f"page 3 holds 25,005 shapes, over the {MAX_SHAPES:,} a drawing is read from")
