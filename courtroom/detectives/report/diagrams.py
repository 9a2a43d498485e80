"""The diagram detective: drawn diagrams, diagrams written as text, and images.

A drawn (vector) diagram is read for its structure: labelled boxes joined by connectors,
and whether any box fans out or in. Tables, shaded code blocks and page rules are not
diagrams. Mermaid source and box-drawing figures are read as text. An embedded image is
reported for what can honestly be known offline (page, size, caption): its pixels are
not read, so its shape is never guessed.
"""

from __future__ import annotations

from courtroom.detectives.base import Case, detective
from courtroom.detectives.common import IMAGES, make
from courtroom.detectives.repo.graph import graph_facts
from courtroom.detectives.report.detective import unusable
from courtroom.detectives.report.diagram_graph import read_drawing
from courtroom.detectives.report.diagram_text import TextDiagram, box_drawing, mermaid
from courtroom.detectives.report.pdf_read import Box, PageData, load_pdf
from courtroom.models import Direction, Evidence
from courtroom.untrusted import clip

NAME = "diagrams"
TAGS = (IMAGES, "diagram")
#: Points above or below an image where its caption may sit.
CAPTION_REACH = 40.0
#: Fewest connected boxes and edges that make a drawing a diagram.
MIN_NODES, MIN_EDGES = 3, 2
#: Confidence of a diagram read from text: a crude rendering, or source beside an unread image.
WEAK = 0.55


def _caption(page: PageData, box: Box) -> str:
    """Words just above or below an image that overlap it horizontally."""
    near = [w for w, b in page.words if b[2] > box[0] and b[0] < box[2] and
            (0 <= box[1] - b[3] <= CAPTION_REACH or 0 <= b[1] - box[3] <= CAPTION_REACH)]
    return " ".join(near)


def _image(page: PageData, box: Box) -> Evidence:
    caption = _caption(page, box)
    said = f"; caption: '{clip(caption, 160)}'" if caption else "; no caption"
    return make(NAME, "Diagram image in the report", True, f"pdf:page {page.number}",
                f"Embedded image of {box[2] - box[0]:.0f}x{box[3] - box[1]:.0f} pt on page "
                f"{page.number}{said}. Its pixels are not read offline, so whether it shows "
                "parallel branches is unknown.", 0.7, (*TAGS, "image"),
                content=clip(f"shape=unknown (image not read offline) | caption: {caption}", 300))


def _drawing(case: Case, page: PageData) -> Evidence | None:
    d = read_drawing(page)
    nodes = d.connected
    if len(nodes) < MIN_NODES or len(d.edges) < MIN_EDGES:
        return None  # a table, a code block, a rule or a lone box: not a diagram
    labels = "; ".join(clip(d.labels[n], 40) for n in nodes[:12])
    where = f"pdf:page {page.number}"
    shape = f"{len(nodes)} connected boxes, {len(d.edges)} arrows"
    content = clip(f"fan-out: {', '.join(d.fan_out) or 'none'} | fan-in: "
                   f"{', '.join(d.fan_in) or 'none'} | labels: {labels}", 500)
    if d.fan_out or d.fan_in:
        return make(NAME, "Vector diagram in the report", True, where,
                    f"Drawn diagram: {shape}; it branches (fan-out at "
                    f"{clip(', '.join(d.fan_out) or 'none', 80)}; fan-in at "
                    f"{clip(', '.join(d.fan_in) or 'none', 80)}).", 0.8,
                    (*TAGS, "parallelism"), content=content, direction="supports")
    code_fans = bool(graph_facts(case.workspace).fan_out)
    return make(NAME, "Vector diagram in the report shows a linear flow", True, where,
                f"Drawn diagram: {shape}; no box fans out or in (a linear flow)"
                + (", while the code's graph fans out. Fix: redraw the diagram on page "
                   f"{page.number} with the parallel branches and their join."
                   if code_fans else "."), 0.75, (*TAGS, "linear"), content=content,
                direction="adverse" if code_fans else "context")


def _text(t: TextDiagram, images: list[Evidence]) -> Evidence:
    """A text diagram; Mermaid source counts toward a diagram only beside a figure image.

    Source code is not a drawing, but a report that prints a diagram's source and also
    embeds a figure has most likely rendered it; the image itself stays unread, so the
    credit is weak and the rationale says so.
    """
    fans = bool(t.fan_out and t.fan_in)
    what = ("Mermaid source (a diagram's code, printed as text, not a drawing)"
            if t.kind == "mermaid" else "A figure drawn with box-drawing characters")
    shape = (f"fan-out at {clip(', '.join(t.fan_out), 100) or 'none'}; fan-in at "
             f"{clip(', '.join(t.fan_in), 100) or 'none'}")
    beside = ""
    if t.kind == "mermaid" and images:
        beside = (f" The report also embeds {len(images)} figure image(s) (first at "
                  f"{images[0].location.removeprefix('pdf:')}), not read offline.")
    drawn = t.kind == "box-drawing" or bool(beside)
    direction: Direction = "supports" if fans and drawn else "context"
    return make(NAME, f"Diagram written as text ({t.kind})", True, f"pdf:page {t.page}",
                f"{what} starting on page {t.page}: {shape}; {t.edges} arrows.{beside}",
                WEAK, (*TAGS, "text_diagram", "parallelism") if fans else (*TAGS, "text_diagram"),
                content=clip(f"{t.kind} | {shape} | nodes: {', '.join(t.nodes[:12])}", 500),
                direction=direction)


@detective(NAME)
def diagrams(case: Case) -> list[Evidence]:
    """Locate diagrams (drawn, written as text, embedded images) and say what they show."""
    pdf = load_pdf(case.pdf, case.pdf_display)
    if pdf.problem is not None and not pdf.pages:
        return [unusable(NAME, pdf, TAGS, given=case.pdf is not None)]
    out: list[Evidence] = []
    for page in pdf.pages:
        out += [_image(page, box) for box in page.images[:6]]
        drawn = _drawing(case, page)
        out += [drawn] if drawn else []
        figure = box_drawing(page)
        out += [_text(figure, [])] if figure else []
    images = [e for e in out if "image" in e.tags]
    out += [_text(t, images) for t in mermaid(pdf.pages)]
    if not out:
        return [make(NAME, "Diagram in the report", False, "pdf",
                     f"No drawn diagram, text diagram or embedded image on {len(pdf.pages)} "
                     "pages (tables and code blocks are not diagrams). Fix: add an "
                     "architecture diagram showing where the graph fans out and joins.",
                     0.85, (*TAGS, "missing"), direction="adverse")]
    return out
