"""The image reader's child: once per image, bounded in time, hostile answers refused."""

from __future__ import annotations

import json

import pytest

from courtroom.detectives.report import image_read
from courtroom.detectives.report.image_read import ImageReading, read_pictures
from courtroom.detectives.report.pdf_read import Picture
from detectives.pdf_builders import graph_png, text_png, two_fan_outs


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(image_read, "_cache", {})


def test_each_distinct_image_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []
    real = image_read._run

    def counted(pngs: list[bytes]) -> list[ImageReading]:
        runs.append(len(pngs))
        return real(pngs)

    monkeypatch.setattr(image_read, "_run", counted)
    graph = Picture((0, 0, 10, 10), graph_png(*two_fan_outs()))
    prose = Picture((0, 20, 10, 30), text_png())
    first = read_pictures([graph, prose, graph])
    again = read_pictures([prose, graph])
    assert runs == [2]
    assert first[0] is first[2] is again[1] and first[1] is again[0]
    assert first[0].drawing is not None and len(first[0].drawing.edges) == 12
    assert first[1].drawing is not None and not first[1].drawing.edges


def test_a_reader_past_its_deadline_is_killed_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(image_read, "IMAGE_SECONDS", 0.05)
    [reading] = read_pictures([Picture((0, 0, 1, 1), graph_png(*two_fan_outs()))])
    assert reading.drawing is None
    assert reading.problem == "the image reader stopped before this image (the 0.05 s limit)"


def test_a_missing_engine_in_the_child_leaves_every_image_unread() -> None:
    readings = image_read._collect(json.dumps({"missing": "cv2"}), 2, "an early end")
    assert len(readings) == 2 and all(r.drawing is None for r in readings)
    assert "no module 'cv2'" in (readings[0].problem or "")
    assert "pip install 'courtroom[vision]'" in (readings[0].problem or "")


def test_malformed_or_hostile_answers_are_not_read_as_graphs() -> None:
    lines = "\n".join([
        "not json", json.dumps([1, 2]), json.dumps({"index": 7, "nodes": [], "edges": []}),
        json.dumps({"index": 0, "nodes": [["a", "box"], ["b", "box"]], "edges": [[0, 1], [0, 9]],
                    "words": 2}),
        json.dumps({"index": 1, "nodes": "x", "edges": [], "words": 1}),
    ])
    first, second, third = image_read._collect(lines, 3, "exit 1")
    assert first.drawing is not None and first.drawing.edges == {(0, 1)}
    assert second.drawing is None and "malformed" in (second.problem or "")
    assert third.problem == "the image reader stopped before this image (exit 1)"
