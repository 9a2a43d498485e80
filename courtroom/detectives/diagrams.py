"""The diagram detective: images and vector drawings in the PDF, their labels and shape."""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, detective
from courtroom.detectives.common import IMAGES, clip, make
from courtroom.detectives.pdf_read import Box, PageData, load_pdf
from courtroom.detectives.report import unusable
from courtroom.models import Evidence

NAME = "diagrams"
TAGS = (IMAGES, "diagram")
#: Points around a drawing where a caption or label still belongs to it.
MARGIN = 40.0
PARALLEL_WORDS = re.compile(r"parallel|fan[\s-]?out|fan[\s-]?in|concurren|branch|superstep", re.I)
ROLE_WORDS = re.compile(r"prosecut|defen[cs]e|tech\s?lead|detective|judge|repo|doc|vision", re.I)


def _union(boxes: list[Box]) -> Box:
    """The bounding box of several boxes."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def _inside(b: Box, region: Box, margin: float) -> bool:
    """Whether box b lies within region, widened by margin."""
    return b[0] >= region[0] - margin and b[2] <= region[2] + margin and \
        b[1] >= region[1] - margin and b[3] <= region[3] + margin


def _labels(page: PageData, region: Box) -> list[str]:
    """Words printed in or around a region of the page."""
    return [w for w, b in page.words if _inside(b, region, MARGIN)]


def _branching(page: PageData) -> int:
    """Most drawn boxes reached by lines leaving one shared point (a fan-out)."""
    starts: dict[tuple[int, int], int] = {}
    for x0, top, _x1, _bottom in page.lines:
        key = (round(x0 / 4), round(top / 4))
        starts[key] = starts.get(key, 0) + 1
    return max(starts.values(), default=0)


def describe(page: PageData) -> list[Evidence]:
    """Evidence for the images and the vector drawing on one page."""
    out: list[Evidence] = []
    where = f"pdf:page {page.number}"
    for box in page.images[:6]:
        labels = _labels(page, box)
        out.append(make(NAME, "Diagram image in the report", True, where,
                        f"Embedded image of {box[2] - box[0]:.0f}x{box[3] - box[1]:.0f} pt; "
                        f"{len(labels)} text words in or around it (its pixels are not read).",
                        0.7, TAGS, content=clip("labels: " + " ".join(labels), 300)))
    shapes = page.rects + page.lines + page.curves
    if len(shapes) >= 3:
        region = _union(shapes)
        labels = _labels(page, region)
        fan = _branching(page)
        roles = sorted({w for w in labels if ROLE_WORDS.search(w)})
        parallel = fan >= 2 or (bool(PARALLEL_WORDS.search(" ".join(labels))) and len(roles) >= 2)
        shape = (f"shows parallel branches ({fan} lines leave one point)" if fan >= 2 else
                 "labels speak of parallel branches" if parallel else
                 "shows no branching (a linear or unstructured drawing)")
        out.append(make(NAME, "Vector diagram in the report", True, where,
                        f"{len(page.rects)} boxes, {len(page.lines)} lines, {len(page.curves)} "
                        f"curves; {shape}.", 0.75, (*TAGS, "parallelism") if parallel else TAGS,
                        content=clip(f"parallel={'yes' if parallel else 'no'} | labels: "
                                     + " ".join(labels), 400)))
    return out


@detective(NAME)
def diagrams(case: Case) -> list[Evidence]:
    """Locate diagrams (images, drawings) in the PDF and say what they show."""
    pdf = load_pdf(case.pdf, case.pdf_display)
    if pdf.problem is not None and not pdf.pages:
        return [unusable(NAME, pdf, TAGS)]
    out: list[Evidence] = []
    for page in pdf.pages:
        out.extend(describe(page))
    if not out:
        return [make(NAME, "Diagram in the report", False, "pdf",
                     f"No embedded image and no vector drawing (3+ shapes) on "
                     f"{len(pdf.pages)} pages.", 0.85, (*TAGS, "missing"))]
    return out
