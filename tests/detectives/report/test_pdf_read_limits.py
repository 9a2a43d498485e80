"""PDF bombs end fast and small; a page over the limits costs that page only (issue 12
item 4). The bombs are generated here: tens of KB on disk, millions of operators inside."""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

import pytest
from builders import make_pdf

from courtroom.detectives import run_detectives
from courtroom.detectives.report import pdf_read
from courtroom.detectives.report.pdf_read import load_pdf
from courtroom.problems import error_lines
from detectives.conftest import OpenCase
from detectives.pdf_bombs import rect_bomb, text_bomb
from detectives.submissions import flawed_submission

GIB = 1 << 30


def _child_peak() -> int:
    """Largest resident size of any finished child of this process, in bytes."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


def test_a_text_operator_bomb_is_stopped_and_recorded(tmp_path: Path) -> None:
    bomb = text_bomb(tmp_path / "bomb.pdf", operators=3_000_000)
    assert bomb.stat().st_size < 100_000
    started = time.monotonic()
    pdf = load_pdf(bomb, "bomb.pdf")
    assert time.monotonic() - started < 60
    assert _child_peak() < GIB
    assert pdf.problem is not None and "parsing limits" in pdf.problem
    assert pdf.pages == []


def test_pages_around_a_bomb_page_are_still_read(tmp_path: Path) -> None:
    pdf = load_pdf(text_bomb(tmp_path / "bomb.pdf", extra_pages=2), "bomb.pdf")
    assert pdf.problem is None
    assert [p.number for p in pdf.pages] == [2, 3]
    assert "Ordinary page 3" in pdf.pages[1].text
    assert pdf.limits == [f"page 1 was not read: it broke the parsing limits (45 s, "
                          f"{pdf_read.PDF_MEMORY_BYTES >> 20} MB; stopped by the memory limit)"]


def test_a_page_of_a_million_rectangles_keeps_its_text_not_its_drawings(
        tmp_path: Path) -> None:
    bomb = rect_bomb(tmp_path / "rects.pdf", rectangles=1_500_000, extra_pages=1)
    started = time.monotonic()
    pdf = load_pdf(bomb, "rects.pdf")
    assert time.monotonic() - started < 60
    assert _child_peak() < GIB
    assert pdf.problem is None and pdf.page_count == 2
    assert pdf.pages[0].rects == [] and "Ordinary page 2" in pdf.pages[1].text
    assert pdf.limits == ["page 1 holds over 50000 objects; its drawings were not read"]


def test_the_time_limit_kills_the_parser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Just over the 1 s floor: interpreter start-up alone leaves too little to parse the page.
    monkeypatch.setattr(pdf_read, "PDF_SECONDS", 1.05)
    bomb = rect_bomb(tmp_path / "rects.pdf", rectangles=1_500_000)
    started = time.monotonic()
    pdf = load_pdf(bomb, "rects.pdf")
    # Unlimited, this page takes minutes; the bound leaves room for a loaded 2-core machine.
    assert time.monotonic() - started < 20
    assert pdf.problem is not None and "time limit" in pdf.problem


def test_an_ordinary_report_is_read_whole(tmp_path: Path) -> None:
    text = "The detectives gather facts in parallel and the judges argue over them. " * 20
    report = make_pdf(tmp_path / "r.pdf", [text] * 8, diagram_on=[2])
    pdf = load_pdf(report, "r.pdf")
    assert pdf.problem is None and pdf.limits == [] and pdf.page_count == 8
    assert all("judges argue" in p.text for p in pdf.pages)
    assert pdf.pages[2].rects and pdf.pages[2].words
    assert not pdf.pages[0].rects and not pdf.pages[0].words


def test_the_parser_never_imports_from_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An audit run from inside the audited tree must not run a module committed there.
    marker = tmp_path / "MARKER"
    planted = tmp_path / "tree" / "courtroom" / "detectives" / "report"
    planted.mkdir(parents=True)
    for folder in (planted.parent.parent, planted.parent, planted):
        (folder / "__init__.py").write_text("")
    (planted / "pdf_worker.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path / "tree")
    pdf = load_pdf(make_pdf(tmp_path / "r.pdf", ["Some text."]), "r.pdf")
    assert pdf.problem is None and not marker.exists()


def test_a_bomb_is_recorded_in_errors_and_the_audit_goes_on(
        tmp_path: Path, open_case: OpenCase) -> None:
    bomb = text_bomb(tmp_path / "bomb.pdf", extra_pages=1)
    found = run_detectives(open_case(flawed_submission(tmp_path / "r"), bomb))
    evidence, errors = found.evidence, found.problems
    assert error_lines(errors) == ["pdf bomb.pdf: page 1 was not read: it broke the parsing limits "
                      f"(45 s, {pdf_read.PDF_MEMORY_BYTES >> 20} MB; stopped by the memory "
                      "limit)"]
    assert any(e.detective == "history" for e in evidence)
    assert any(e.detective == "report" and e.goal == "PDF report readable" and e.found
               for e in evidence)


def test_a_parser_that_cannot_start_is_a_problem_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    pdf = load_pdf(make_pdf(tmp_path / "r.pdf", ["Some text."]), "r.pdf")
    assert pdf.problem is not None and pdf.problem.startswith("the PDF parser could not be")
