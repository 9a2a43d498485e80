"""Diagram images read offline: the same graph facts as vectors, dark themes, no diagram."""

from __future__ import annotations

import importlib.util
import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image

from courtroom.detectives.report import image_read
from courtroom.detectives.report.diagrams import diagrams
from courtroom.detectives.report.pdf_read import load_pdf
from courtroom.models import Evidence
from detectives.conftest import OpenCase, by_goal
from detectives.pdf_builders import (
    chain,
    drawn_pdf,
    graph_png,
    image_bomb_pdf,
    image_pdf,
    text_png,
    two_fan_outs,
)
from detectives.submissions import exemplary_submission, flawed_submission


def _facts(item: Evidence) -> tuple[set[str], set[str], str]:
    """The fan-out and fan-in labels and the shape line of a graph fact."""
    found = re.search(r"fan-out: (.*?) \| fan-in: (.*?) \|", item.content or "")
    assert found, item.content
    shape = re.search(r"\d+ connected boxes, \d+ arrows", item.rationale)
    assert shape, item.rationale
    return set(found.group(1).split(", ")), set(found.group(2).split(", ")), shape.group(0)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_an_image_of_a_graph_gives_the_facts_of_its_vector_drawing(
        tmp_path: Path, open_case: OpenCase, dark: bool) -> None:
    boxes, arrows = two_fan_outs()
    repo = exemplary_submission(tmp_path / "r")
    vector = by_goal(diagrams(open_case(repo, drawn_pdf(tmp_path / "v.pdf", boxes, arrows))),
                     "Vector diagram in the report")[0]
    pdf = image_pdf(tmp_path / "i.pdf", graph_png(boxes, arrows, dark=dark))
    image = by_goal(diagrams(open_case(repo, pdf)), "Diagram image in the report")[0]
    assert _facts(image) == _facts(vector)
    assert _facts(image)[0] == {"START", "aggregator"}
    assert image.direction == vector.direction == "supports"
    assert {"image", "drawn_parallel"} <= set(image.tags) and image.location == "pdf:page 1"
    assert "it names 4 of the code's 10 nodes" in image.rationale
    assert image.rationale == vector.rationale.replace("Vector diagram", "Diagram image")


def test_a_linear_image_is_adverse_when_the_code_fans_out(tmp_path: Path,
                                                          open_case: OpenCase) -> None:
    pdf = image_pdf(tmp_path / "l.pdf", graph_png(*chain()))
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Diagram image in the report shows a linear flow")[0]
    assert item.direction == "adverse" and "linear" in item.tags
    assert (item.fix or "").startswith("redraw the diagram on page 1")


def test_an_image_that_branches_where_the_code_does_not_is_adverse(
        tmp_path: Path, open_case: OpenCase) -> None:
    pdf = image_pdf(tmp_path / "f.pdf", graph_png(*two_fan_outs()))
    item = by_goal(diagrams(open_case(flawed_submission(tmp_path / "r"), pdf)),
                   "Diagram image in the report")[0]
    assert item.direction == "adverse" and "the code's graph does not fan out" in item.rationale
    assert item.fix and "redraw the diagram" in item.fix


def test_a_generic_picture_that_branches_is_no_credit(tmp_path: Path,
                                                      open_case: OpenCase) -> None:
    boxes, arrows = two_fan_outs()
    generic = [(f"Step {i}", *rest) for i, (_, *rest) in enumerate(boxes)]
    pdf = image_pdf(tmp_path / "g.pdf", graph_png(generic, arrows))
    item = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                   "Diagram image in the report")[0]
    assert item.direction == "context" and "a generic picture" in item.rationale


def test_an_image_without_a_diagram_is_said_to_hold_none(tmp_path: Path,
                                                         open_case: OpenCase) -> None:
    pdf = image_pdf(tmp_path / "t.pdf", text_png())
    ev = diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf))
    item = by_goal(ev, "Image in the report holds no diagram")[0]
    assert not item.found and item.direction == "context" and "image" in item.tags
    missing = by_goal(ev, "Diagram in the report")[0]
    assert missing.direction == "adverse" and "missing" in missing.tags


def test_without_the_reader_an_image_is_unread_with_the_install_command(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def no_ocr(name: str, package: str | None = None) -> object:
        return None if name == "rapidocr" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", no_ocr)
    monkeypatch.setattr(image_read, "_cache", {})
    pdf = image_pdf(tmp_path / "i.pdf", graph_png(*two_fan_outs()))
    ev = diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf))
    item = by_goal(ev, "Diagram image in the report")[0]
    assert item.found and item.direction == "context" and "drawn_parallel" not in item.tags
    assert "no module 'rapidocr'" in item.rationale
    assert "pip install 'courtroom[vision]'" in item.rationale
    assert "shape=unknown" in (item.content or "")
    assert not by_goal(ev, "Diagram in the report")  # unread is not the same as missing


def test_an_image_bomb_is_never_decoded(tmp_path: Path, open_case: OpenCase) -> None:
    # The header claims 3.6 gigapixels; the stream is 4 kB of zeros.
    pdf = image_bomb_pdf(tmp_path / "b.pdf", 60_000, 60_000, bytes(4096))
    read = load_pdf(pdf)
    assert read.problem is None and not read.limits and "Figure 1" in read.pages[0].text
    assert read.pages[0].images and not read.pages[0].pictures
    [item] = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                     "Diagram image in the report")
    assert item.direction == "context" and "past the decoding limits" in item.rationale


def test_a_truncated_image_costs_itself_only(tmp_path: Path, open_case: OpenCase) -> None:
    pdf = image_bomb_pdf(tmp_path / "t.pdf", 400, 400, b"\xff\x00" * 50)
    read = load_pdf(pdf)
    assert read.problem is None and "Figure 1" in read.pages[0].text
    ev = diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf))
    assert [e.goal for e in ev] == ["Image in the report holds no diagram",
                                    "Diagram in the report"]


def test_a_photograph_is_not_handed_to_the_reader(tmp_path: Path, open_case: OpenCase) -> None:
    # Noise does not compress: past the hand-over bound, whatever its pixel count.
    noise = Image.frombytes("L", (1400, 1400), random.Random(7).randbytes(1400 * 1400))
    buf = io.BytesIO()
    noise.save(buf, format="PNG")
    pdf = image_pdf(tmp_path / "p.pdf", buf.getvalue())
    assert load_pdf(pdf).pages[0].images and not load_pdf(pdf).pages[0].pictures
    [item] = by_goal(diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf)),
                     "Diagram image in the report")
    assert "past the decoding limits" in item.rationale and item.direction == "context"


def test_mermaid_beside_a_read_image_earns_no_extra_credit(tmp_path: Path,
                                                           open_case: OpenCase) -> None:
    source = ("graph TD\nS[START] --> R[RepoInvestigator]\nS --> D[DocAnalyst]\n"
              "R --> A[Aggregator]\nD --> A")
    pdf = image_pdf(tmp_path / "m.pdf", text_png(), text_pages=(source,))
    ev = diagrams(open_case(exemplary_submission(tmp_path / "r"), pdf))
    item = by_goal(ev, "Diagram written as text (mermaid)")[0]
    assert item.direction == "context" and "figure image" not in item.rationale
    assert by_goal(ev, "Image in the report holds no diagram")
