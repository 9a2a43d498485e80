"""Read the structure of a vector drawing: labelled boxes joined by connectors.

A drawing is a diagram when connectors join separate labelled boxes. Tables (cells that
share borders), shaded code blocks and page rules have boxes but no such connectors, so
they are not diagrams. Each connector's ends are matched to the boxes they touch (both
diagonals of its bounding box are tried, since a bounding box forgets which way a line
runs); a small arrowhead at one end says where it points, otherwise the flow runs down
the page, then rightwards. Fan-out and fan-in are then plain graph facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from courtroom.detectives.report.pdf_read import Box, PageData

#: Smallest box that can carry a label; largest arrowhead; how near an end must come.
MIN_BOX_W, MIN_BOX_H, ARROWHEAD, TOUCH = 18.0, 10.0, 14.0, 8.0
#: Boxes closer than this share a border (table cells), so a line between them is no arrow.
MIN_GAP = 4.0
#: Most shapes (rects, lines, curves) a page may hold to be read as a drawing. Reading
#: compares shapes pairwise, and a diagram a reader can follow holds a few hundred at most;
#: a page past it (a dense chart, or a PDF built to cost minutes) is not read, and says so.
MAX_SHAPES = 1_000
Point = tuple[float, float]


@dataclass
class Drawing:
    """The boxes (with their labels) and directed edges of one page's drawing."""

    labels: list[str] = field(default_factory=list)  # one per box
    edges: set[tuple[int, int]] = field(default_factory=set)
    #: Why the page's shapes were not read (None when they were).
    unread: str | None = None

    def out_degree(self, node: int) -> int:
        return sum(1 for a, _ in self.edges if a == node)

    def in_degree(self, node: int) -> int:
        return sum(1 for _, b in self.edges if b == node)

    @property
    def fan_out(self) -> list[str]:
        """Labels of boxes that point to two or more boxes."""
        return [self.labels[n] for n in range(len(self.labels)) if self.out_degree(n) >= 2]

    @property
    def fan_in(self) -> list[str]:
        """Labels of boxes that two or more boxes point to."""
        return [self.labels[n] for n in range(len(self.labels)) if self.in_degree(n) >= 2]

    @property
    def connected(self) -> list[int]:
        """Boxes that take part in at least one edge."""
        return sorted({n for edge in self.edges for n in edge})


def _distance(p: Point, b: Box) -> float:
    """Distance from a point to a box (0 inside)."""
    dx = max(b[0] - p[0], 0.0, p[0] - b[2])
    dy = max(b[1] - p[1], 0.0, p[1] - b[3])
    return float((dx * dx + dy * dy) ** 0.5)


def _gap(a: Box, b: Box) -> float:
    """Empty space between two boxes (0 when they touch or overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0.0)


def _contains(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] + 1 and outer[1] <= inner[1] + 1 and \
        outer[2] >= inner[2] - 1 and outer[3] >= inner[3] - 1 and outer != inner


def _boxes(page: PageData) -> list[tuple[Box, str]]:
    """Labelled boxes, without duplicates (fill + stroke) and without frames around others."""
    shapes = {tuple(round(v) for v in b): b for b in page.rects + page.curves
              if b[2] - b[0] >= MIN_BOX_W and b[3] - b[1] >= MIN_BOX_H}
    unique = list(shapes.values())
    # A shape around another labelled shape is a frame or an elbow connector, not a node.
    leaves = [b for b in unique if not any(_contains(b, o) for o in unique)]
    # Each word belongs to the smallest shape around it: a connector's bounding box may
    # cross a label pill, but the pill owns the label.
    owned: dict[Box, list[str]] = {}
    for word, wb in page.words:
        centre = ((wb[0] + wb[2]) / 2, (wb[1] + wb[3]) / 2)
        around = [b for b in leaves if _distance(centre, b) == 0]
        if around:
            smallest = min(around, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
            owned.setdefault(smallest, []).append(word)
    out = [(box, " ".join(owned[box])) for box in leaves if box in owned]
    return out


def _ends(line: Box) -> list[tuple[Point, Point]]:
    """Both ways a connector can run across its bounding box."""
    x0, top, x1, bottom = line
    return [((x0, top), (x1, bottom)), ((x0, bottom), (x1, top))]


def _straight(line: Box) -> bool:
    return min(line[2] - line[0], line[3] - line[1]) <= 2


def _attach(p: Point, boxes: list[Box]) -> int | None:
    near = [(_distance(p, b), i) for i, b in enumerate(boxes)]
    best = min(near, default=(TOUCH + 1, -1))
    return best[1] if best[0] <= TOUCH else None


def _direction(a: int, b: int, end_b: Point, end_a: Point, heads: list[Box],
               boxes: list[Box]) -> tuple[int, int]:
    """(source, target): the end with an arrowhead is the target, else down then right."""
    at_b = any(_distance(end_b, h) <= 3 for h in heads)
    at_a = any(_distance(end_a, h) <= 3 for h in heads)
    if at_a != at_b:
        return (b, a) if at_a else (a, b)
    ba, bb = boxes[a], boxes[b]
    if abs(ba[1] - bb[1]) > MIN_BOX_H:
        return (a, b) if ba[1] < bb[1] else (b, a)
    return (a, b) if ba[0] <= bb[0] else (b, a)


def tables(page: PageData) -> list[Box]:
    """Regions ruled as tables: 3+ horizontal rules of one width crossed by 2+ verticals."""
    rows: dict[tuple[int, int], list[Box]] = {}
    for ln in page.lines + page.rects:
        if ln[3] - ln[1] <= 2 and ln[2] - ln[0] > ARROWHEAD:
            rows.setdefault((round(ln[0] / 3), round(ln[2] / 3)), []).append(ln)
    out = []
    for rules in rows.values():
        if len(rules) < 3:
            continue
        region = (min(r[0] for r in rules), min(r[1] for r in rules),
                  max(r[2] for r in rules), max(r[3] for r in rules))
        verticals = [v for v in page.lines + page.rects if v[2] - v[0] <= 2 and
                     v[3] - v[1] > ARROWHEAD and _distance(((v[0] + v[2]) / 2, (v[1] + v[3]) / 2),
                                                           region) <= 2]
        if len(verticals) >= 2:
            out.append(region)
    return out


def _in_any(b: Box, regions: list[Box]) -> bool:
    return any(r[0] - 2 <= b[0] and r[1] - 2 <= b[1] and r[2] + 2 >= b[2] and r[3] + 2 >= b[3]
               for r in regions)


def read_drawing(page: PageData) -> Drawing:
    """The labelled boxes of a page and the connectors that join separate ones."""
    shapes = len(page.rects) + len(page.lines) + len(page.curves)
    if shapes > MAX_SHAPES:
        return Drawing(unread=f"page {page.number} holds {shapes:,} shapes, over the "
                              f"{MAX_SHAPES:,} a drawing is read from")
    grid = tables(page)
    labelled = [(b, label) for b, label in _boxes(page) if not _in_any(b, grid)]
    boxes = [b for b, _ in labelled]
    drawing = Drawing([label for _, label in labelled])
    small = [c for c in page.curves + page.lines + page.rects
             if c[2] - c[0] <= ARROWHEAD and c[3] - c[1] <= ARROWHEAD]
    connectors = [c for c in page.lines + page.curves
                  if max(c[2] - c[0], c[3] - c[1]) > ARROWHEAD and c not in boxes
                  and not _in_any(c, grid)
                  and sum(_contains(c, b) for b in boxes) < 2]  # not a frame
    for line in connectors:
        for start, end in _ends(line):
            a, b = _attach(start, boxes), _attach(end, boxes)
            if a is None or b is None or a == b or _gap(boxes[a], boxes[b]) < MIN_GAP:
                continue
            if _straight(line) and any(_gap(line, o) <= 1.5 for i, o in enumerate(boxes)
                                       if i not in (a, b)):
                break  # a rule running along other cells: a table border
            drawing.edges.add(_direction(a, b, end, start, small, boxes))
            break
    return drawing
