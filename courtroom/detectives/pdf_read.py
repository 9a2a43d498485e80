"""Read a PDF once with pdfplumber into plain data (text, images, drawings per page).

The report and diagram detectives share one read (cached by path, size and mtime).
Every way a PDF can be unusable — missing, not a PDF, encrypted, malformed, scanned —
becomes a ``problem`` string, never an exception.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError
from pdfminer.psexceptions import PSException
from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

MAX_PAGES = 60
MAX_PDF_BYTES = 60_000_000
MAX_PAGE_CHARS = 40_000
#: What pdfminer/pdfplumber raise on hostile or broken files (they are not uniform).
PDF_ERRORS = (PdfminerException, MalformedPDFException, PSException, OSError, ValueError,
              KeyError, TypeError, AttributeError, IndexError, AssertionError, RecursionError,
              ZeroDivisionError)

Box = tuple[float, float, float, float]  # x0, top, x1, bottom


@dataclass
class PageData:
    """What one page holds, as plain data."""

    number: int
    text: str
    images: list[Box] = field(default_factory=list)
    rects: list[Box] = field(default_factory=list)
    lines: list[Box] = field(default_factory=list)
    curves: list[Box] = field(default_factory=list)
    words: list[tuple[str, Box]] = field(default_factory=list)


@dataclass
class PdfData:
    """A read PDF, or the reason it could not be read."""

    display: str
    pages: list[PageData] = field(default_factory=list)
    page_count: int = 0
    problem: str | None = None

    @property
    def has_text(self) -> bool:
        """Whether any page has extractable text (scanned PDFs have none)."""
        return any(p.text.strip() for p in self.pages)


_cache: dict[tuple[str, int, float], PdfData] = {}
_lock = threading.Lock()


def _box(obj: dict[str, object]) -> Box:
    """A pdfplumber object's bounding box as a plain tuple."""
    def num(key: str) -> float:
        """One coordinate as a float (0 when absent)."""
        value = obj.get(key, 0.0)
        return float(value) if isinstance(value, int | float) else 0.0

    return (num("x0"), num("top"), num("x1"), num("bottom"))


def _read(path: Path, display: str) -> PdfData:
    """Read every page's text and shapes; problems become PdfData.problem."""
    data = PdfData(display)
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        with pdfplumber.open(path) as pdf:
            data.page_count = len(pdf.pages)
            for number, page in enumerate(pdf.pages[:MAX_PAGES], start=1):
                text = (page.extract_text() or "")[:MAX_PAGE_CHARS]
                item = PageData(number, text, [_box(i) for i in page.images],
                                [_box(r) for r in page.rects], [_box(ln) for ln in page.lines],
                                [_box(c) for c in page.curves])
                if item.images or len(item.rects) + len(item.lines) + len(item.curves) >= 3:
                    item.words = [(str(w["text"]), _box(w))
                                  for w in page.extract_words()[:2000]]
                data.pages.append(item)
                page.flush_cache()
    except PDF_ERRORS as exc:
        cause = exc.__cause__ or exc.__context__ or exc
        if isinstance(cause, PDFEncryptionError) or isinstance(exc, PDFEncryptionError) or \
                "password" in str(exc).lower() or "encrypt" in str(exc).lower():
            data.problem = "the PDF is encrypted (password required); its text cannot be read"
        else:
            data.problem = f"the PDF is malformed and could not be parsed ({type(exc).__name__})"
        data.pages = []
    return data


def load_pdf(path: Path | None, display: str | None = None) -> PdfData:
    """Read the PDF at ``path`` once; problems are reported in ``PdfData.problem``."""
    shown = display or (path.name if path else "<no pdf>")
    if path is None:
        return PdfData(shown, problem="no PDF report was given")
    try:
        stat = path.stat()
        if not path.is_file():
            return PdfData(shown, problem="the PDF path is not a file")
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError:
        return PdfData(shown, problem="the PDF report file was not found")
    if b"%PDF-" not in head:
        return PdfData(shown, problem="the file is not a PDF (no %PDF- header)")
    if stat.st_size > MAX_PDF_BYTES:
        return PdfData(shown, problem=f"the PDF is over {MAX_PDF_BYTES // 1_000_000} MB")
    key = (str(path.resolve()), stat.st_size, stat.st_mtime)
    with _lock:
        if key not in _cache:
            _cache[key] = _read(path, shown)
            if len(_cache) > 8:
                _cache.pop(next(iter(_cache)))
        result = _cache[key]
    if result.problem is None and not result.has_text:
        return PdfData(shown, result.pages, result.page_count,
                       "the PDF has no extractable text (scanned images?)")
    return result
