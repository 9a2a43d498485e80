"""The PDF worker runs isolated, outside the audited tree (issue 19 §0): a relative PDF
path still reaches it, and a PDF library the tree plants is never imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_pdf

from courtroom.detectives.report.pdf_read import load_pdf


def test_a_relative_pdf_in_a_tree_that_plants_pdf_libraries_is_read_by_ours(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tmp_path / "tree"
    markers = tmp_path / "markers"
    markers.mkdir()
    for package in ("pypdfium2", "pdfplumber", "json", "resource"):
        (tree / package).mkdir(parents=True)
        (tree / package / "__init__.py").write_text(
            f"open({str(markers / package)!r}, 'w').close()\n")
    make_pdf(tree / "report.pdf", ["Isolated parsing of a hostile report."])
    monkeypatch.chdir(tree)
    monkeypatch.setenv("PYTHONPATH", str(tree))
    pdf = load_pdf(Path("report.pdf"))
    assert pdf.problem is None, pdf.problem
    assert "Isolated parsing" in pdf.pages[0].text
    assert list(markers.iterdir()) == []
