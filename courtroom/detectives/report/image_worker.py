"""Read diagram images in a child process under hard limits: one JSON line per image.

Run as ``python -I image_worker.py SECONDS BYTES PNG...`` (a file of its own that imports
nothing from Courtroom). The limits are set before OCR or OpenCV is imported, so a hostile
image ends this process, never the audit. The first line names the engines, or says which
is missing; then each image is one line with its labelled shapes and the connectors
between them:

- OCR (RapidOCR, models inside its wheel) gives the words and their boxes;
- the ink (whatever differs from the paper, dark themes inverted first) is closed into
  regions: a region with words inside and no other region inside is a node (a box, a
  decision diamond or a rounded shape), a region around other nodes is a frame;
- what is left once the nodes are erased is connectors: a stroke that touches two nodes
  is an edge, and the end with an arrowhead (the thickest ink) is where it points;
  without heads the flow runs down the page, then rightwards (as for vector drawings).
"""

from __future__ import annotations

import json
import resource
import sys
from typing import Any

#: Gray levels between paper and ink; a node's smallest size (pixels); how near a
#: connector must come to a node to touch it; border width erased with a node.
INK, MIN_W, MIN_H, TOUCH, BORDER = 60, 24, 14, 9, 4
#: Images whose longer side is under this many pixels are read at twice their size.
SMALL = 1000
#: A connector touching more nodes than this is a frame or a tangle, not an arrow.
MAX_CONTACTS = 6
#: An arrowhead is this many times thicker than the stroke's thinnest end.
HEAD_RATIO = 1.8
Box = tuple[int, int, int, int]


def set_limits(seconds: float, memory: int) -> None:
    """Bound this process: CPU seconds (SIGXCPU, then SIGKILL) and data memory.

    pdf_worker has the same two lines: each worker is started by file path and imports
    nothing from Courtroom (``-I`` would find an installed copy, not this checkout's), so
    they cannot share a module."""
    cpu = max(1, int(seconds) + 1)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))


def _emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def _engine() -> Any:
    """The OCR engine, quiet and on one thread (the audit runs detectives side by side)."""
    from rapidocr import RapidOCR

    return RapidOCR(params={"Global.log_level": "critical",
                            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                            "EngineConfig.onnxruntime.inter_op_num_threads": 1})


def _words(engine: Any, gray: Any) -> list[tuple[str, Box]]:
    """Words (text lines) and their boxes; stray marks read as one character are dropped."""
    found = engine(gray)
    out = []
    for text, poly in zip(found.txts or (), found.boxes if found.boxes is not None else (),
                          strict=False):
        if sum(ch.isalnum() for ch in text) < 2:
            continue  # an arrowhead read as "V" or "4"
        xs, ys = [int(p[0]) for p in poly], [int(p[1]) for p in poly]
        out.append((str(text), (min(xs), min(ys), max(xs), max(ys))))
    return out


def _ink(gray: Any) -> Any:
    """A mask of the ink: pixels far from the paper's shade (a dark paper is inverted)."""
    import numpy as np

    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    paper = int(np.median(border))
    if paper < 128:
        gray, paper = 255 - gray, 255 - paper
    return ((paper - gray.astype(np.int16)) > INK).astype(np.uint8) * 255


def _kind(contour: Any, box: Box) -> str:
    import cv2

    area = cv2.contourArea(contour) / max(1, (box[2] - box[0]) * (box[3] - box[1]))
    if area >= 0.85:
        return "box"
    corners = cv2.approxPolyDP(contour, 0.04 * cv2.arcLength(contour, True), True)
    return "decision" if len(corners) == 4 and area < 0.65 else "rounded"


def _inside(point: tuple[float, float], box: Box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _within(inner: Box, outer: Box) -> bool:
    return outer[0] - 2 <= inner[0] and outer[1] - 2 <= inner[1] and \
        inner[2] <= outer[2] + 2 and inner[3] <= outer[3] + 2


def _holds(contour: Any, box: Box) -> bool:
    """Whether a word's box lies inside a region's outline (not just its bounding box)."""
    import cv2

    x0, y0, x1, y1 = box
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -2
               for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _nodes(ink: Any, words: list[tuple[str, Box]]) -> list[dict[str, Any]]:
    """Closed regions holding words and no other such region: the diagram's nodes."""
    import cv2
    import numpy as np

    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, tree = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    limit = ink.shape[0] * ink.shape[1] * 0.4
    regions: list[dict[str, Any]] = []
    for i, contour in enumerate(contours):
        x, y, w, h = cv2.boundingRect(contour)
        box = (x, y, x + w, y + h)
        if tree[0][i][3] < 0 or w < MIN_W or h < MIN_H or w * h > limit:
            continue  # an outer outline, a letter's hole or the page itself
        # A word across the region's edge is a frame's title or an edge label, not a name.
        held = [n for n, (_, wb) in enumerate(words) if _within(wb, box) and _holds(contour, wb)]
        if held:
            regions.append({"box": box, "contour": contour, "words": held})
    leaves = sorted((r for r in regions if not any(
        o is not r and _within(o["box"], r["box"]) for o in regions)),
        key=lambda r: (r["box"][1] // MIN_H, r["box"][0]))  # reading order
    for leaf in leaves:
        owned = sorted(leaf["words"], key=lambda n: (words[n][1][1] // 8, words[n][1][0]))
        leaf["label"] = " ".join(words[n][0] for n in owned)
        leaf["kind"] = _kind(leaf["contour"], leaf["box"])
    return leaves


def _connectors(ink: Any, nodes: list[dict[str, Any]], words: list[tuple[str, Box]]) -> Any:
    """The ink left once nodes are erased; loose words (edge labels) join their stroke."""
    import cv2
    import numpy as np

    conn = ink.copy()
    for node in nodes:
        cv2.drawContours(conn, [node["contour"]], -1, 0, thickness=-1)
        cv2.drawContours(conn, [node["contour"]], -1, 0, thickness=2 * BORDER + 1)
    for _, (x0, y0, x1, y1) in words:
        if not any(_inside(_centre((x0, y0, x1, y1)), n["box"]) for n in nodes):
            cv2.rectangle(conn, (x0 - 3, y0 - 3), (x1 + 3, y1 + 3), 255, thickness=-1)
    widest = max(n["box"][2] - n["box"][0] for n in nodes)
    # A horizontal run wider than any node is a frame's edge: cut it away, then close
    # the gaps it leaves in the strokes that crossed it.
    rule = cv2.morphologyEx(conn, cv2.MORPH_OPEN, np.ones((1, int(widest * 1.15)), np.uint8))
    conn = cv2.subtract(conn, rule)
    return cv2.morphologyEx(conn, cv2.MORPH_CLOSE, np.ones((7, 1), np.uint8))


def _contacts(labels: Any, thick: Any, nodes: list[dict[str, Any]]) -> dict[int, list[Any]]:
    """For each stroke: the nodes it touches, with how thick it is where it touches."""
    import numpy as np

    out: dict[int, list[Any]] = {}
    for n, node in enumerate(nodes):
        x0, y0, x1, y1 = node["box"]
        y0, x0 = max(0, y0 - TOUCH - BORDER), max(0, x0 - TOUCH - BORDER)
        part = labels[y0:y1 + TOUCH + BORDER, x0:x1 + TOUCH + BORDER]
        width = thick[y0:y1 + TOUCH + BORDER, x0:x1 + TOUCH + BORDER]
        for stroke in np.unique(part[part > 0]):
            out.setdefault(int(stroke), []).append(
                (n, float(width[part == stroke].max()), node["box"]))
    return out


def _edges(touching: list[Any]) -> set[tuple[int, int]]:
    """Directed edges of one stroke: from its plain ends to its arrowheads."""
    thinnest = min(t for _, t, _ in touching)
    heads = [n for n, t, _ in touching if t >= HEAD_RATIO * thinnest and t >= 2.5]
    if heads:
        tails = [n for n, _, _ in touching if n not in heads]
        return {(a, b) for a in tails for b in heads}
    # No heads: the flow runs down the page, then rightwards, from the first node.
    ordered = sorted(touching, key=lambda c: (c[2][1] // MIN_H, c[2][0]))
    return {(ordered[0][0], other[0]) for other in ordered[1:]}


def read_image(engine: Any, path: str) -> dict[str, Any]:
    """One image's nodes (label, kind, box) and directed edges."""
    import cv2

    gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if gray is None:
        return {"problem": "the image could not be decoded"}
    if max(gray.shape) < SMALL:
        # Small renders have hairline strokes and tiny type: enlarge before reading.
        gray = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    words = _words(engine, gray)
    ink = _ink(gray)
    nodes = _nodes(ink, words) if words else []
    edges: set[tuple[int, int]] = set()
    if nodes:
        conn = _connectors(ink, nodes, words)
        _, labels = cv2.connectedComponents(conn, connectivity=8)
        thick = cv2.distanceTransform(conn, cv2.DIST_L2, 3)
        for touching in _contacts(labels, thick, nodes).values():
            if 2 <= len(touching) <= MAX_CONTACTS:
                edges |= _edges(touching)
    return {"words": len(words), "size": [int(gray.shape[1]), int(gray.shape[0])],
            "nodes": [[n["label"], n["kind"], list(n["box"])] for n in nodes],
            "edges": sorted([a, b] for a, b in edges if a != b)}


def main(argv: list[str]) -> int:
    """Entry point of the child: limits first, then the engines, then one line per image."""
    seconds, memory, *paths = argv
    set_limits(float(seconds), int(memory))
    try:
        import cv2
        engine = _engine()
    except ImportError as exc:
        _emit({"missing": exc.name or str(exc)})
        return 0
    _emit({"engines": f"rapidocr + opencv {cv2.__version__}"})
    for index, path in enumerate(paths):
        try:
            _emit({"index": index, **read_image(engine, path)})
        except (cv2.error, ValueError, RuntimeError) as exc:
            _emit({"index": index,
                   "problem": f"the image could not be read ({type(exc).__name__})"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
