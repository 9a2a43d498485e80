"""Parse a PDF in a child process under hard CPU and memory limits, one page per line.

Run as ``python -I pdf_worker.py PATH FIRST LAST SECONDS BYTES`` (a file of its own that
imports nothing from Courtroom).
The limits are set before any PDF library is imported, so a bomb (millions of operators
in a small compressed stream) ends this process, never the audit. Each page is printed as
one JSON line as soon as it is read, so the parent keeps every page read before a limit.

pypdfium2 (C, fast, small) reads every page's text and counts its objects; pdfplumber,
whose shapes and word boxes the diagram detective needs, is only opened for pages that
hold drawings or images, and never for a page with more objects than MAX_PAGE_OBJECTS.
Embedded images are decoded here too, within bounds (how many, how many pixels), and
handed over as small grayscale PNGs for the image reader.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import resource
import sys
from typing import Any

#: Pages with more objects than this keep their text but their drawings are not parsed.
MAX_PAGE_OBJECTS = 50_000
MAX_PAGE_CHARS = 40_000
MAX_WORDS = 2_000
#: Most images decoded per page and per worker run; pixel bounds of a decoded image.
MAX_PICTURES_PAGE, MAX_PICTURES = 4, 12
MAX_PICTURE_PIXELS, MIN_PICTURE_SIDE, PICTURE_SIDE = 20_000_000, 96, 1800
#: Largest PNG handed over: a diagram compresses far below it, a photograph does not.
MAX_PICTURE_PNG = 1_500_000
#: Exit status when the memory limit was hit in Python code.
EXIT_MEMORY = 3
_ENCRYPTED = "the PDF is encrypted (password required); its text cannot be read"


def set_limits(seconds: float, memory: int) -> None:
    """Bound this process: CPU seconds (SIGXCPU, then SIGKILL) and memory.

    RLIMIT_DATA, not RLIMIT_AS: PDFium's allocator reserves (without using) gigabytes of
    address space at start-up, which an address-space limit would refuse outright.
    """
    cpu = max(1, int(seconds) + 1)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))


def _emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def _box(obj: dict[str, Any]) -> list[float]:
    """A pdfplumber object's bounding box (x0, top, x1, bottom)."""
    return [float(obj.get(k) or 0.0) for k in ("x0", "top", "x1", "bottom")]


def _shapes(plumber_page: Any, record: dict[str, Any]) -> None:
    """Images, rects, lines and curves (and word boxes near a drawing) of one page."""
    record["images"] = [_box(i) for i in plumber_page.images]
    record["rects"] = [_box(r) for r in plumber_page.rects]
    record["lines"] = [_box(ln) for ln in plumber_page.lines]
    record["curves"] = [_box(c) for c in plumber_page.curves]
    shapes = len(record["rects"]) + len(record["lines"]) + len(record["curves"])
    if record["images"] or shapes >= 3:
        record["words"] = [[str(w["text"]), _box(w)]
                           for w in plumber_page.extract_words()[:MAX_WORDS]]
    # The parsed layout and text map are the memory: drop them before the next page.
    plumber_page.close()


def _bounds(obj: Any, height: float) -> list[float]:
    """An image object's box in pdfplumber's terms (x0, top, x1, bottom)."""
    left, bottom, right, top = (obj.get_bounds() if hasattr(obj, "get_bounds")
                                else obj.get_pos())  # pypdfium2 4 names it get_pos
    return [float(left), height - float(top), float(right), height - float(bottom)]


def _picture(obj: Any) -> str | None:
    """One image as a base64 grayscale PNG, or None when it is out of bounds or broken.

    The pixel count is checked on the image's own header before anything is decoded, so
    a small stream claiming gigapixels is never expanded.
    """
    from PIL import Image

    width, height = obj.get_px_size() if hasattr(obj, "get_px_size") else obj.get_size()
    if width * height > MAX_PICTURE_PIXELS or min(width, height) < MIN_PICTURE_SIDE:
        return None
    pil = obj.get_bitmap(render=False).to_pil()
    if pil.mode in ("RGBA", "LA", "PA"):
        # Transparent pixels carry no colour of their own: lay them on white paper.
        paper = Image.new("RGBA", pil.size, "white")
        pil = Image.alpha_composite(paper, pil.convert("RGBA"))
    gray = pil.convert("L")
    gray.thumbnail((PICTURE_SIDE, PICTURE_SIDE))
    buf = io.BytesIO()
    gray.save(buf, format="PNG")
    if buf.tell() > MAX_PICTURE_PNG:
        return None
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _pictures(page: Any, budget: list[int]) -> list[dict[str, Any]]:
    """The page's decodable images (boxes and pixels), within the per-run budget."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c
    from PIL import Image

    out: list[dict[str, Any]] = []
    height = float(page.get_height())
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
        if len(out) >= MAX_PICTURES_PAGE or budget[0] >= MAX_PICTURES:
            break
        try:
            png = _picture(obj)
        except (pdfium.PdfiumError, Image.DecompressionBombError, OSError, ValueError):
            continue  # a broken image costs itself only, never the page's text
        if png is not None:
            budget[0] += 1
            out.append({"box": _bounds(obj, height), "png": png})
    return out


def _page(doc: Any, plumber: Any, index: int, budget: list[int]) -> dict[str, Any]:
    """One page as a plain record."""
    import pypdfium2.raw as pdfium_c

    page = doc[index]
    textpage = page.get_textpage()
    text = textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
    textpage.close()
    kinds = [pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(page.raw, i))
             for i in range(min(pdfium_c.FPDFPage_CountObjects(page.raw), MAX_PAGE_OBJECTS + 1))]
    record: dict[str, Any] = {"number": index + 1, "text": text[:MAX_PAGE_CHARS]}
    if len(kinds) <= MAX_PAGE_OBJECTS and {pdfium_c.FPDF_PAGEOBJ_IMAGE,
                                           pdfium_c.FPDF_PAGEOBJ_FORM}.intersection(kinds):
        record["pictures"] = _pictures(page, budget)
    page.close()
    drawn = {pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE,
             pdfium_c.FPDF_PAGEOBJ_SHADING, pdfium_c.FPDF_PAGEOBJ_FORM}
    if len(kinds) > MAX_PAGE_OBJECTS:
        record["note"] = (f"page {index + 1} holds over {MAX_PAGE_OBJECTS} objects; its "
                          "drawings were not read")
    elif drawn.intersection(kinds):
        _shapes(plumber().pages[index], record)
    return record


def plumber_errors() -> tuple[type[BaseException], ...]:
    """What pdfminer/pdfplumber raise on hostile or broken pages (they are not uniform)."""
    from pdfminer.psexceptions import PSException
    from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

    return (PdfminerException, MalformedPDFException, PSException, OSError, ValueError,
            KeyError, TypeError, AttributeError, IndexError, AssertionError, RecursionError,
            ZeroDivisionError)


def read(path: str, first: int, last: int) -> None:
    """Print a header line, then one line per page from ``first`` (0-based) to ``last``."""
    import pdfplumber
    import pypdfium2 as pdfium

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        doc = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        # Older pypdfium2 releases carry no err_code: their message names the password.
        encrypted = getattr(exc, "err_code", None) == pdfium.raw.FPDF_ERR_PASSWORD or \
            "password" in str(exc).lower()
        _emit({"problem": _ENCRYPTED if encrypted else
               f"the PDF is malformed and could not be parsed ({type(exc).__name__})"})
        return
    _emit({"page_count": len(doc)})
    opened: list[Any] = []

    def plumber() -> Any:
        if not opened:
            opened.append(pdfplumber.open(path))
        return opened[0]

    budget = [0]  # images decoded so far in this run
    for index in range(first, min(last, len(doc))):
        try:
            _emit(_page(doc, plumber, index, budget))
        except (pdfium.PdfiumError, *plumber_errors()) as exc:
            _emit({"number": index + 1, "text": "",
                   "note": f"page {index + 1} could not be parsed ({type(exc).__name__})"})
    for pdf in opened:
        pdf.close()


def main(argv: list[str]) -> int:
    """Entry point of the child: limits first, then the libraries, then the pages."""
    path, first, last, seconds, memory = argv
    set_limits(float(seconds), int(memory))
    try:
        read(path, int(first), int(last))
    except MemoryError:
        return EXIT_MEMORY
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
