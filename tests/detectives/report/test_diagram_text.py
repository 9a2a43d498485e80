"""Mermaid source read from report text: edges, labels, and hostile lines read in linear time."""

from __future__ import annotations

import time

from courtroom.detectives.report.diagram_text import MAX_LABEL, mermaid
from courtroom.detectives.report.pdf_read import PageData

#: Generous for a loaded machine: each hostile page below took 4-30 s before the matchers
#: were made linear, and takes milliseconds now.
SECONDS = 3.0


def _timed(pages: list[PageData]) -> tuple[list[tuple[str, list[str], list[str]]], float]:
    started = time.perf_counter()
    found = [(d.kind, d.fan_out, d.fan_in) for d in mermaid(pages)]
    return found, time.perf_counter() - started


def test_chained_edges_name_each_node_once() -> None:
    page = PageData(1, "graph TD\nS-->A-->B\nS-->C\nA-.->D\nC--oD\nX[[Sub]] --> S")
    diagram = mermaid([page])[0]
    assert diagram.nodes == ["S", "A", "B", "C", "D", "Sub"]
    assert diagram.fan_out == ["S", "A"] and diagram.fan_in == ["D"] and diagram.edges == 6


def test_hyphenated_ids_and_labels_are_read() -> None:
    page = PageData(2, "start-node[Start here] --> fan-out{{Parallel Fan-Out}}\n"
                       "fan-out -->|left| left-judge(Prosecutor<br>harsh)\n"
                       "fan-out --> right-judge([Defense])")
    diagram = mermaid([page])[0]
    assert diagram.nodes == ["Start here", "Parallel Fan-Out", "Prosecutor", "Defense"]
    assert diagram.fan_out == ["Parallel Fan-Out"]


def test_a_node_whose_label_passes_the_bound_is_not_read() -> None:
    long = "x" * (MAX_LABEL + 1)
    page = PageData(1, f"graph TD\nA[{long}] --> B\nB --> C[Short]\nB --> D")
    assert mermaid([page])[0].nodes == ["B", "Short", "D"]


def test_one_long_hyphenated_line_is_read_in_linear_time() -> None:
    pages = [PageData(n, "a-" * 16_000) for n in range(1, 4)]
    found, seconds = _timed(pages)
    assert found == [] and seconds < SECONDS


def test_open_shapes_and_edge_labels_are_not_rescanned_from_every_node() -> None:
    for unit in ("a[", "a(", "a{", "a -->|", "a" * 40 + " "):
        found, seconds = _timed([PageData(1, unit * (32_000 // len(unit)))])
        assert seconds < SECONDS, unit
        assert all(kind == "mermaid" for kind, _out, _in in found)


def test_blank_lines_before_a_header_are_read_once() -> None:
    text = "\n" * 40_000 + "flowchart LR\nA --> B\nA --> C"
    found, seconds = _timed([PageData(1, text)])
    assert found == [("mermaid", ["A"], [])] and seconds < SECONDS
