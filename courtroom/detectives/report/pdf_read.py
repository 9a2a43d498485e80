"""Read a PDF once, in a separate process with time and memory limits, into plain data.

The report and diagram detectives share one read (cached by path, size and mtime).
Every way a PDF can be unusable — missing, not a PDF, encrypted, malformed, scanned, a
bomb past the limits — becomes a ``problem`` or a ``limits`` line, never an exception.
A page that breaks the limits costs that page only: the pages around it are still read.
"""

from __future__ import annotations

import base64
import binascii
import json
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from courtroom.child import child_env, python_file, run
from courtroom.detectives.report import pdf_worker

MAX_PAGES = 60
MAX_PDF_BYTES = 60_000_000
#: Wall-clock seconds for reading one PDF, all pages and restarts together.
PDF_SECONDS = 45.0
#: Address space of the parsing process.
PDF_MEMORY_BYTES = 768 << 20
#: Most the worker may print (its pages are bounded well below this); past it, it is
#: stopped like any other limit.
MAX_OUTPUT_BYTES = 64 << 20

Box = tuple[float, float, float, float]  # x0, top, x1, bottom


@dataclass(frozen=True)
class Picture:
    """An embedded image: where it sits on its page and its pixels (a grayscale PNG)."""

    box: Box
    png: bytes


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
    pictures: list[Picture] = field(default_factory=list)


@dataclass
class PdfData:
    """A read PDF, or the reason it could not be read."""

    display: str
    pages: list[PageData] = field(default_factory=list)
    page_count: int = 0
    problem: str | None = None
    #: Parts of a readable PDF that were not read (a page over the limits, its drawings).
    limits: list[str] = field(default_factory=list)

    @property
    def has_text(self) -> bool:
        """Whether any page has extractable text (scanned PDFs have none)."""
        return any(p.text.strip() for p in self.pages)


_cache: dict[tuple[str, int, float], PdfData] = {}
_lock = threading.Lock()


def _boxes(raw: Any) -> list[Box]:
    return [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in raw or []]


def _pictures(raw: Any) -> list[Picture]:
    """The worker's images; one whose pixels do not decode as base64 is dropped."""
    out = []
    for item in raw or []:
        try:
            out.append(Picture(_boxes([item["box"]])[0],
                               base64.b64decode(str(item["png"]), validate=True)))
        except (binascii.Error, KeyError, TypeError, ValueError, IndexError):
            continue
    return out


def _page(record: dict[str, Any]) -> PageData:
    """A page record printed by the worker as PageData."""
    return PageData(int(record["number"]), str(record.get("text", "")),
                    _boxes(record.get("images")), _boxes(record.get("rects")),
                    _boxes(record.get("lines")), _boxes(record.get("curves")),
                    [(str(w[0]), _boxes([w[1]])[0]) for w in record.get("words") or []],
                    _pictures(record.get("pictures")))


def _child(path: Path, first: int, seconds: float) -> tuple[list[dict[str, Any]], str | None]:
    """Run the worker from page ``first``; its records, and which limit stopped it (if any)."""
    limit: str | None
    # Run as a file, not ``-m``: importing the package would load every detective (and
    # their libraries) before the limits are set. Isolated (-I), outside the tree, without
    # secrets: nothing is imported from the tree, whatever it plants; the path is absolute
    # because the worker starts elsewhere.
    cmd = python_file(pdf_worker.__file__, str(path.absolute()), str(first), str(MAX_PAGES),
                      f"{seconds:.1f}", str(PDF_MEMORY_BYTES))
    try:
        done = run(cmd, child_env(), timeout=seconds, max_bytes=MAX_OUTPUT_BYTES)
    except OSError as exc:
        return [{"problem": f"the PDF parser could not be started ({exc.strerror})"}], None
    out, limit = done.output, done.stopped
    if limit is None and done.returncode != 0:
        cpu = done.returncode in (-signal.SIGXCPU, -signal.SIGKILL)
        limit = "time" if cpu else "memory" if done.returncode in (
            pdf_worker.EXIT_MEMORY, -signal.SIGABRT, -signal.SIGSEGV) else f"exit {done.returncode}"
    records = []
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            continue  # the line being written when the process was stopped
    return records, limit


def _read(path: Path, display: str) -> PdfData:
    """Read every page, restarting past a page that breaks the limits."""
    data = PdfData(display)
    deadline = time.monotonic() + PDF_SECONDS
    first, count = 0, None
    limits = f"{PDF_SECONDS:g} s, {PDF_MEMORY_BYTES >> 20} MB"
    while count is None or first < min(count, MAX_PAGES):
        remaining = deadline - time.monotonic()
        if remaining < 1:
            data.limits.append(f"the {PDF_SECONDS:g} s budget ran out at page {first + 1}; "
                               "later pages were not read")
            break
        records, stopped = _child(path, first, remaining)
        for record in records:
            if "problem" in record:
                return PdfData(display, problem=str(record["problem"]))
            if "page_count" in record:
                count = int(record["page_count"])
                continue
            data.pages.append(_page(record))
            data.limits.extend([str(record["note"])] if "note" in record else [])
            first = int(record["number"])
        if stopped is None:
            break
        if count is None:
            return PdfData(display, problem=f"the PDF could not be opened within the parsing "
                                            f"limits ({limits}; stopped by the {stopped} limit)")
        data.limits.append(f"page {first + 1} was not read: it broke the parsing limits "
                           f"({limits}; stopped by the {stopped} limit)")
        first += 1
    data.page_count = count or 0
    if not data.pages and data.limits:
        data.problem = f"the PDF could not be read within the parsing limits: {data.limits[0]}"
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
                       "the PDF has no extractable text (scanned images?)", result.limits)
    return result
