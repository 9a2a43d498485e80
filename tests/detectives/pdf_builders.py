"""Builders for PDF-analysis tests: rubric criteria, cases and report texts (generated)."""

from __future__ import annotations

from pathlib import Path

from courtroom.detectives import Case
from courtroom.rubric import Criterion


def concept_dimension(instruction: str, success: str | None = None) -> Criterion:
    """A pdf_report criterion whose instruction enumerates the concepts to look for."""
    return Criterion(id="depth", name="Depth", target_artifact="pdf_report",
                     forensic_instruction=instruction, success_pattern=success)


def with_rubric(case: Case, *criteria: Criterion) -> Case:
    """The same case, carrying the rubric's criteria."""
    return Case(workspace=case.workspace, pdf=case.pdf, pdf_display=case.pdf_display,
                criteria=criteria)


FOUR = concept_dimension("Search the report for Dialectical Synthesis, Fan-In/Fan-Out, "
                         "Metacognition and State Synchronization. For each, decide.")


def paraphrase_pages() -> list[str]:
    """Explains every mechanism in its own words, never with the rubric's exact phrases."""
    return [
        "How the auditor works\n\n"
        "The START node fans out to three detective nodes, which run in parallel; each\n"
        "writes its evidence and the evidence_aggregator node waits for every branch\n"
        "before the judges run, so no judge sees partial evidence.",
        "The three judges argue dialectically: the prosecutor node charges every gap, the\n"
        "defense node credits effort, and the chief justice resolves the conflict with\n"
        "deterministic rules in src/justice.py instead of averaging their scores.",
        "The graph state is synchronised by reducers: AgentState annotates opinions with\n"
        "operator.add so parallel writes are merged when the branches join, and evidences\n"
        "with operator.ior, which prevents one detective overwriting another.",
        "Its meta-cognitive loop: when judges disagree, the chief justice in src/justice.py\n"
        "checks each\n"
        "cited evidence id against the state and routes the criterion back through a\n"
        "conditional edge for re-evaluation, so the system evaluates its own evaluation.",
    ]


def name_drop_pages() -> list[str]:
    """Names each concept in full, next to code names, but never says how anything works."""
    return [
        "Highlights\n\nDialectical Synthesis. Fan-In/Fan-Out. Metacognition. State "
        "Synchronization.\nThese are in src/graph.py and src/state.py and AgentState.\n"
        "We are proud of this project and of our team. It was a lot of fun to build.",
    ]


def path_pages() -> list[str]:
    """A claimed ghost path, a proposed one, a peer's quoted one and a local one."""
    return [
        "The graph is wired in src/graph.py and the retries live in src/retry_helpers.py.",
        "Next steps: we plan to add docs/deferrals.md describing each deferral.",
        "Our peer's audit reported \"hallucinated file src/nodes/router.py\" in our report,\n"
        "but that file was renamed long ago.",
        "During development the state file lived at /Users/dev/.../state.py on my laptop.",
    ]


#: A box on a drawn page: (label, x, y from the top, width, height) in points.
DrawnBox = tuple[str, float, float, float, float]


def drawn_pdf(path: Path, boxes: list[DrawnBox], arrows: list[tuple[int, int]], *,
              code_block: bool = False, table: bool = False,
              heads: bool = True) -> Path:
    """One A4 page with labelled boxes joined by straight arrows from the bottom (or
    right) edge of the source to the top (or left) edge of the target, each arrow leaving
    its own point; optionally a shaded code block and a ruled table elsewhere."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    _w, height = A4
    c = canvas.Canvas(str(path), pagesize=A4)
    for label, x, top, w, h in boxes:
        c.rect(x, height - top - h, w, h)
        c.drawString(x + 4, height - top - h / 2 - 3, label)
    for n, (a, b) in enumerate(arrows):
        _, ax, at, aw, ah = boxes[a]
        _, bx, bt, bw, _bh = boxes[b]
        below = bt > at + ah
        start = (ax + aw * (n % 3 + 1) / 4, at + ah) if below else (ax + aw, at + ah / 2)
        end = (bx + bw / 2, bt) if below else (bx, bt + 10)
        c.line(start[0], height - start[1], end[0], height - end[1])
        if heads:
            c.rect(end[0] - 3, height - end[1], 6, 6, fill=1)
    if code_block:
        c.setFillGray(0.9)
        c.rect(40, 120, 500, 60, fill=1, stroke=0)
        c.setFillGray(0)
        for i, line in enumerate(("def build_graph():", "    builder.add_edge(a, b)",
                                  "    return builder.compile()")):
            c.drawString(48, 165 - 14 * i, line)
    if table:
        for i in range(4):
            c.line(40, 60 + 18 * i, 540, 60 + 18 * i)
            if i < 3:
                c.drawString(48, 64 + 18 * i, f"row {i}")
        for x in (40, 200, 540):
            c.line(x, 60, x, 114)
    c.showPage()
    c.save()
    return path


def two_fan_outs() -> tuple[list[DrawnBox], list[tuple[int, int]]]:
    """START -> three detectives -> aggregator -> three judges -> chief justice."""
    boxes: list[DrawnBox] = [("START", 240, 40, 90, 24)]
    boxes += [(name, 60 + 160 * i, 110, 120, 24) for i, name in
              enumerate(("repo_detective", "doc_detective", "vision_detective"))]
    boxes += [("aggregator", 230, 180, 110, 24)]
    boxes += [(name, 60 + 160 * i, 250, 120, 24) for i, name in
              enumerate(("prosecutor", "defense", "tech_lead"))]
    boxes += [("chief_justice", 230, 320, 110, 24)]
    arrows = [(0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (3, 4),
              (4, 5), (4, 6), (4, 7), (5, 8), (6, 8), (7, 8)]
    return boxes, arrows


def chain() -> tuple[list[DrawnBox], list[tuple[int, int]]]:
    """START -> detectives -> judges -> chief justice, one after another."""
    boxes: list[DrawnBox] = [(name, 200, 40 + 70 * i, 140, 24) for i, name in
                             enumerate(("START", "detectives", "judges", "chief_justice"))]
    return boxes, [(0, 1), (1, 2), (2, 3)]


#: Pixels per point of a diagram drawn as an image.
SCALE = 2


def graph_png(boxes: list[DrawnBox], arrows: list[tuple[int, int]], *,
              dark: bool = False) -> bytes:
    """The same boxes and arrows as ``drawn_pdf``, drawn as a raster image with Pillow
    (a Mermaid-like render: light or dark theme, filled arrowheads)."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    paper, ink, fill = ("#0d1117", "#cccccc", "#1f2020") if dark else \
        ("white", "#333333", "#eef2ff")
    image = Image.new("RGB", (600 * SCALE, 400 * SCALE), paper)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=10 * SCALE)
    px = [(label, x * SCALE, top * SCALE, w * SCALE, h * SCALE)
          for label, x, top, w, h in boxes]
    for label, x, top, w, h in px:
        draw.rectangle((x, top, x + w, top + h), fill=fill, outline=ink, width=2)
        draw.text((x + w / 2, top + h / 2), label, fill=ink, font=font, anchor="mm")
    for n, (a, b) in enumerate(arrows):
        _, ax, at, aw, ah = px[a]
        _, bx, bt, bw, _bh = px[b]
        start = (ax + aw * (n % 3 + 1) / 4, at + ah + 2)
        end = (bx + bw / 2, bt - 2)
        draw.line((start, end), fill=ink, width=2)
        head = 7 * SCALE / 2
        draw.polygon([end, (end[0] - head, end[1] - 2 * head),
                      (end[0] + head, end[1] - 2 * head)], fill=ink)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def text_png() -> bytes:
    """A screenshot of prose: words, no boxes and no arrows."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (900, 300), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=22)
    for i, line in enumerate(("The auditor clones the repository into a sandbox,",
                              "reads the report, and hands the evidence to judges",
                              "who argue before the chief justice decides.")):
        draw.text((30, 40 + 70 * i), line, fill="black", font=font)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def image_pdf(path: Path, png: bytes, caption: str = "Figure 1: architecture",
              text_pages: tuple[str, ...] = ()) -> Path:
    """Pages of text (one line per line), then one A4 page: a caption and the image
    embedded below it, 500 pt wide."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    _w, height = A4
    reader = ImageReader(io.BytesIO(png))
    iw, ih = reader.getSize()
    c = canvas.Canvas(str(path), pagesize=A4)
    for text in text_pages:
        for i, line in enumerate(text.splitlines()):
            c.drawString(50, height - 60 - 16 * i, line)
        c.showPage()
    c.drawString(50, height - 50, caption)
    c.drawImage(reader, 50, height - 70 - 500 * ih / iw, width=500, height=500 * ih / iw)
    c.showPage()
    c.save()
    return path


def image_bomb_pdf(path: Path, width: int, height: int, pixels: bytes) -> Path:
    """One page of text and one grayscale image whose header claims ``width`` x ``height``
    pixels while its (Flate) stream holds only ``pixels``: a decompression bomb when the
    claim is huge, a broken image when the stream is garbage."""
    import zlib

    stream = zlib.compress(pixels, 9)
    content = b"BT /F1 12 Tf 72 740 Td (Figure 1: the architecture) Tj ET " \
              b"q 400 0 0 400 100 200 cm /Im1 Do Q"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
        b"<< /F1 3 0 R >> /XObject << /Im1 6 0 R >> >> /Contents 5 0 R >>",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
        (f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace "
         f"/DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(stream)} >>\n"
         "stream\n").encode() + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    path.write_bytes(bytes(out))
    return path
