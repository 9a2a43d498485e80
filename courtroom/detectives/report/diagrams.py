"""The diagram detective: drawn diagrams, diagrams written as text, and images.

A drawn (vector) diagram is read for its structure: labelled boxes joined by connectors,
and whether any box fans out or in. Tables, shaded code blocks and page rules are not
diagrams. Mermaid source and box-drawing figures are read as text. An embedded image is
read offline (image_read: OCR labels and shapes) into the same graph facts as a vector
drawing; one that cannot be read is reported for what can honestly be known (page, size,
caption, why its pixels were not read), so its shape is never guessed. Either graph is
then held against the code's: parallelism the code lacks, or no node the code names (a
generic picture), is not credit. With Claude judges, Claude's transcription of an image
completes the OCR's graph where the OCR agrees with it (image_claude).
"""

from __future__ import annotations

from courtroom.detectives.base import AUTOMATON_AUDITOR, Case, declares, detective
from courtroom.detectives.common import IMAGES, make
from courtroom.detectives.repo.graph import graph_facts
from courtroom.detectives.report.detective import unusable
from courtroom.detectives.report.diagram_code import MIN_NODES, hold_against_code, loops
from courtroom.detectives.report.diagram_graph import Drawing, read_drawing
from courtroom.detectives.report.diagram_text import TextDiagram, box_drawing, mermaid
from courtroom.detectives.report.image_claude import Merged, consult
from courtroom.detectives.report.image_read import ImageReading, read_pictures
from courtroom.detectives.report.pdf_read import Box, PageData, Picture, load_pdf
from courtroom.models import Direction, Evidence
from courtroom.untrusted import clip

NAME = "diagrams"
TAGS = (IMAGES, "diagram")
#: A diagram that draws parallel branches. Not the code's "parallelism" tag: a picture in
#: the report is judged as the report's diagram, never as proof of how the code runs.
DRAWN_PARALLEL = "drawn_parallel"
#: Points above or below an image where its caption may sit.
CAPTION_REACH = 40.0
#: Fewest edges that make a drawing a diagram (with MIN_NODES connected boxes).
MIN_EDGES = 2
#: Confidence of a diagram read from text: a crude rendering, or source beside an unread image.
TEXT_DIAGRAM_CONFIDENCE = 0.55


def _caption(page: PageData, box: Box) -> str:
    """Words just above or below an image that overlap it horizontally."""
    near = [w for w, b in page.words if b[2] > box[0] and b[0] < box[2] and
            (0 <= box[1] - b[3] <= CAPTION_REACH or 0 <= b[1] - box[3] <= CAPTION_REACH)]
    return " ".join(near)


def _image(page: PageData, box: Box, why: str) -> Evidence:
    """An image whose pixels were not read: its place, size and caption, and why."""
    caption = _caption(page, box)
    said = f"; caption: '{clip(caption, 160)}'" if caption else "; no caption"
    return make(NAME, "Diagram image in the report", True, f"pdf:page {page.number}",
                f"Embedded image of {box[2] - box[0]:.0f}x{box[3] - box[1]:.0f} pt on page "
                f"{page.number}{said}. Its pixels were not read offline ({clip(why, 200)}), "
                "so whether it shows parallel branches is unknown.", 0.7,
                (*TAGS, "image", "unread"),
                content=clip(f"shape=unknown (image not read offline) | caption: {caption}", 300))


def _read_image(case: Case, page: PageData, box: Box, reading: ImageReading,
                asked: Merged | str | None) -> list[Evidence]:
    """An image read offline: its graph, like a vector drawing's, or no diagram at all."""
    if reading.problem is not None or reading.drawing is None:
        return [_image(page, box, reading.problem or "no reading")]
    merged = asked if isinstance(asked, Merged) else None
    shown = _graph(case, merged.drawing if merged else reading.drawing,
                   f"pdf:page {page.number}", "Diagram image",
                   [label for label, kind in zip(reading.drawing.labels, reading.kinds,
                                                 strict=False) if kind == "decision"],
                   note=merged.note if merged else "")
    if shown:
        return shown
    return [make(NAME, "Image in the report holds no diagram", False, f"pdf:page {page.number}",
                f"Embedded image of {box[2] - box[0]:.0f}x{box[3] - box[1]:.0f} pt on page "
                f"{page.number} read offline: {reading.words} text line(s), "
                f"{len(reading.drawing.connected)} connected labelled shape(s); it holds no "
                "diagram (no labelled boxes joined by arrows).", 0.7, (*TAGS, "image"),
                content="shape=none (image read offline)", direction="context")]


def _graph(case: Case, d: Drawing, where: str, what: str,
           decisions: list[str] | None = None, note: str = "") -> list[Evidence]:
    """The graph facts of a drawing or an image, held against the code's graph."""
    if d.unread:
        return [make(NAME, f"{what} not read", True, where, f"The page was not read as a "
                     f"diagram: {d.unread}.", 0.6, (*TAGS, "unread"))]
    nodes = d.connected
    if len(nodes) < MIN_NODES or len(d.edges) < MIN_EDGES:
        return []  # a table, a code block, a rule or a lone box: not a diagram
    tags = (*TAGS, "image") if what == "Diagram image" else TAGS
    labels = "; ".join(clip(d.labels[n], 40) for n in nodes[:12])
    shape = f"{len(nodes)} connected boxes, {len(d.edges)} arrows"
    extra = (f" | decisions: {', '.join(decisions)}" if decisions else "") + \
        (" | loop: yes" if loops(d) else "")
    content = clip(f"fan-out: {', '.join(d.fan_out) or 'none'} | fan-in: "
                   f"{', '.join(d.fan_in) or 'none'}{extra} | labels: {labels}", 500)
    held = hold_against_code(graph_facts(case.workspace), d)
    if not held.fans:
        return [make(NAME, f"{what} in the report shows a linear flow", True, where,
                     f"{what}: {shape}; no box fans out or in (a linear flow)"
                     + (", while the code's graph fans out." if held.code_fans else ".") + note,
                     0.75, (*tags, "linear"),
                     content=content, direction="adverse" if held.code_fans else "context",
                     fix=f"redraw the diagram on {where.removeprefix('pdf:')} with the "
                     "parallel branches and their join." if held.code_fans else None)]
    said = (f"{what}: {shape}; it branches (fan-out at "
            f"{clip(', '.join(d.fan_out) or 'none', 80)}; fan-in at "
            f"{clip(', '.join(d.fan_in) or 'none', 80)}){held.said}.")
    direction: Direction = ("adverse" if held.contradicts else
                            "context" if held.generic else "supports")
    out = [make(NAME, f"{what} in the report", True, where,
                said + note, 0.8, (*tags, DRAWN_PARALLEL), content=content, direction=direction,
                fix=held.fix(where) if held.contradicts else None)]
    if held.overstates:
        out.append(make(NAME, f"{what} in the report shows joins the code lacks", True, where,
                        f"{what} joins parallel branches at {held.joins} points "
                        f"({clip(', '.join(d.fan_in), 120)}), the code's graph at "
                        f"{held.code_joins}: it shows parallelism the code does not run."
                        + note, 0.7, (*tags, "mismatch"), content=content, direction="adverse",
                        fix=f"redraw the diagram on {where.removeprefix('pdf:')} as the code "
                        "builds the graph, or make the code run those branches in parallel."))
    return out


def _pictures(case: Case, pages: list[PageData]) -> dict[
        int, tuple[ImageReading, Merged | str | None]]:
    """Every decoded image of the report, read in one go: id(picture) -> its OCR reading
    and Claude's transcription merged into it (or why there is none)."""
    pictures = [p for page in pages for p in page.pictures]
    readings = read_pictures(pictures)
    asked = consult(case.transcriber, pictures, readings) if case.transcriber else \
        [None] * len(pictures)
    return {id(p): (r, a) for p, r, a in zip(pictures, readings, asked, strict=True)}


def _not_transcribed(readings: list[tuple[ImageReading, Merged | str | None]]) -> list[Evidence]:
    """One context fact when Claude could not transcribe some images: the OCR stands."""
    failed = [a for _, a in readings if isinstance(a, str)]
    if not failed:
        return []
    return [make(NAME, "Claude's transcription of diagram images not used", False, "pdf",
                 f"{len(failed)} image(s) could not be transcribed by Claude "
                 f"({clip(failed[0], 200)}); their offline (OCR) reading stands.", 0.5,
                 (*TAGS, "image"), direction="context")]


def _match(page: PageData, box: Box) -> Picture | None:
    """The decoded image drawn at ``box`` (the two parsers agree to a point or so)."""
    return next((p for p in page.pictures
                 if max(abs(a - b) for a, b in zip(p.box, box, strict=True)) <= 3), None)


def _text(t: TextDiagram, images: list[Evidence]) -> Evidence:
    """A text diagram; Mermaid source counts toward a diagram only beside an unread image.

    Source code is not a drawing, but a report that prints a diagram's source and also
    embeds a figure that could not be read has most likely rendered it, so the credit is weak
    and the rationale says so. An image that was read speaks for itself.
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
                TEXT_DIAGRAM_CONFIDENCE,
                (*TAGS, "text_diagram", *([DRAWN_PARALLEL] if fans else [])),
                content=clip(f"{t.kind} | {shape} | nodes: {', '.join(t.nodes[:12])}", 500),
                direction=direction)


@detective(NAME, profile=AUTOMATON_AUDITOR, produces=declares(IMAGES, {
    "diagram": "an architecture diagram in the report, held against the code's graph",
    "image": "a diagram drawn as an image",
    "unread": "an image the audit could not read",
    "text_diagram": "a diagram read from the report's text",
    DRAWN_PARALLEL: "a diagram that draws a fan-out and its join (the code's is `parallelism`)",
    "linear": "a diagram drawn as a straight line",
    "mismatch": "a diagram whose boxes or arrows the code does not have",
    "missing": "no diagram in the report",
    "parse_error": "a PDF that could not be read",
}))
def diagrams(case: Case) -> list[Evidence]:
    """Locate diagrams (drawn, written as text, embedded images) and say what they show."""
    pdf = load_pdf(case.pdf, case.pdf_display)
    if pdf.problem is not None and not pdf.pages:
        return [unusable(NAME, pdf, TAGS, given=case.pdf is not None)]
    out: list[Evidence] = []
    readings = _pictures(case, pdf.pages) if any(p.pictures for p in pdf.pages) else {}
    for page in pdf.pages:
        for box in page.images[:6]:
            picture = _match(page, box)
            out += ([_image(page, box, "too small, or past the decoding limits")]
                    if picture is None else
                    _read_image(case, page, box, *readings[id(picture)]))
        out += _graph(case, read_drawing(page), f"pdf:page {page.number}", "Vector diagram")
        figure = box_drawing(page)
        out += [_text(figure, [])] if figure else []
    images = [e for e in out if "unread" in e.tags]
    out += [_text(t, images) for t in mermaid(pdf.pages)]
    if not any(e.found for e in out):
        return [*out, make(NAME, "Diagram in the report", False, "pdf",
                           f"No drawn diagram, text diagram or diagram image on "
                           f"{len(pdf.pages)} pages (tables, code blocks and images without "
                           "boxes and arrows are not diagrams).",
                           0.85, (*TAGS, "missing"), direction="adverse",
                           fix="add an architecture diagram showing where the graph fans out "
                           "and joins."),
                *_not_transcribed(list(readings.values()))]
    return [*out, *_not_transcribed(list(readings.values()))]
