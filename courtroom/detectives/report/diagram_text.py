"""Diagrams written as text: Mermaid source and box-drawing figures.

Mermaid source printed in a report is a diagram's code, not a drawn diagram; a
box-drawing figure (│ ▼ ├──┬──┐) is drawn with characters. Either way its structure can
be read: which node points to two or more others (a fan-out) and which is pointed to by
two or more (a fan-in).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from courtroom.detectives.report.pdf_read import PageData

#: Longest node or edge label read: report text is hostile, and a label left open to the
#: end of a long line must not be rescanned from every node before it.
MAX_LABEL = 300
#: A node id: hyphens only between word characters, so an arrow (``-->``, ``-.->``) never
#: joins the id before it. Possessive, so a failed edge never retries shorter ids.
_ID = r"[A-Za-z_]\w*+(?:-\w++)*+"
#: Where an id may start: not inside another id (after a letter or after ``a-``), so a
#: line like ``a-a-a-…`` is read once, not once per letter; ``--o``/``--x`` may touch it.
_START = r"(?:(?<!\w)(?<!\w-)|(?<=--[ox]))"
_UP_TO_LABEL = f"{{0,{MAX_LABEL}}}+"
_SHAPE = (r"(?:\s*+(?:\[\[?|\(\[?|\{\{?|>)[^\]\)\}\n]" + _UP_TO_LABEL
          + r"(?:\]\]?|\]?\)|\}\}?))?")
_ARROW = (r"\s*+(?:-->|==>|-\.->|---|-\.-|--[ox>]|<-->)\s*+(?:\|[^|\n]" + _UP_TO_LABEL
          + r"\|\s*+)?")
_EDGE = re.compile(_START + f"({_ID}){_SHAPE}{_ARROW}(?=({_ID}))")
#: A label runs to its closing bracket, a ``\\n`` or a ``<br>``; each step of the body takes
#: one character and only one alternative can take it, so the body never backtracks.
_LABEL_BODY = r"(?:[^\]\)\}\n<\\]|<(?!br/?>)|\\(?!n))" + f"{{1,{MAX_LABEL}}}+"
_LABEL = re.compile(_START + f"({_ID})" + r"\s*+[\[\(\{]++(" + _LABEL_BODY
                    + r")(?:\\n|<br/?>|[\]\)\}])")
_HEADER = re.compile(r"^[^\S\n]*+(?:graph|flowchart)\s+(?:TD|TB|LR|RL|BT)\b", re.MULTILINE)
#: Box-drawing characters: a figure drawn with them has many on a page.
_BOX_CHARS = re.compile(r"[─│┌┐└┘├┤┬┴┼▼▲►◄↓→]")
_DOWN = re.compile(r"[▼↓]")
_BRANCH = re.compile(r"[┬┼]")
_JOIN = re.compile(r"[┴]|└─+┘")
#: Most lines a Mermaid block may break for (page headers and footers between pages).
GAP = 4


@dataclass
class TextDiagram:
    """A diagram written as text, where it starts and what its structure shows."""

    kind: str  # "mermaid" | "box-drawing"
    page: int
    nodes: list[str] = field(default_factory=list)
    fan_out: list[str] = field(default_factory=list)
    fan_in: list[str] = field(default_factory=list)
    edges: int = 0


def _graph(kind: str, page: int, edges: list[tuple[str, str]],
           names: dict[str, str] | None = None) -> TextDiagram:
    """Structure read on node ids; nodes shown by their labels (two ids may share one)."""
    names = names or {}
    outs: dict[str, set[str]] = {}
    ins: dict[str, set[str]] = {}
    for a, b in edges:
        outs.setdefault(a, set()).add(b)
        ins.setdefault(b, set()).add(a)
    nodes = list(dict.fromkeys(n for edge in edges for n in edge))

    def shown(ids: list[str]) -> list[str]:
        return list(dict.fromkeys(names.get(n, n) for n in ids))

    return TextDiagram(kind, page, shown(nodes),
                       shown([n for n in nodes if len(outs.get(n, ())) >= 2]),
                       shown([n for n in nodes if len(ins.get(n, ())) >= 2]), len(set(edges)))


def mermaid(pages: list[PageData]) -> list[TextDiagram]:
    """Mermaid blocks of the report (a block may run across a page break)."""
    blocks: list[tuple[int, list[tuple[str, str]]]] = []
    names: dict[str, str] = {}  # node id -> its label, "B" -> "Parallel Fan-Out"
    quiet = GAP + 1
    for page in pages:
        for line in page.text.splitlines():
            found = [(m.group(1), m.group(2)) for m in _EDGE.finditer(line)]
            if found:
                names.update((m.group(1), m.group(2).strip()) for m in _LABEL.finditer(line))
            if not found:
                quiet += 1
                continue
            if quiet > GAP:
                blocks.append((page.number, []))
            blocks[-1][1].extend(found)
            quiet = 0
    has_header = any(_HEADER.search(p.text) for p in pages)
    return [_graph("mermaid", number, edges, names) for number, edges in blocks
            if len(edges) >= 3 or (has_header and len(edges) >= 2)]


def box_drawing(page: PageData) -> TextDiagram | None:
    """A figure drawn with box-drawing characters on this page, if there is one."""
    lines = page.text.splitlines()
    if sum(len(_BOX_CHARS.findall(line)) for line in lines) < 12:
        return None
    fan_out, fan_in, nodes = [], [], []
    for i, line in enumerate(lines):
        label = " ".join(w for w in re.findall(r"[A-Za-z_][\w.]*", line) if len(w) > 2)
        if label and not _BOX_CHARS.search(line):
            nodes.append(label)
        if len(_DOWN.findall(line)) >= 2 or _BRANCH.search(line):
            fan_out.append(_label_before(lines, i))
        if _JOIN.search(line):
            fan_in.append(_label_after(lines, i))
    return TextDiagram("box-drawing", page.number, nodes, _unique(fan_out), _unique(fan_in))


def _unique(labels: list[str]) -> list[str]:
    return list(dict.fromkeys(x for x in labels if x))


def _label_before(lines: list[str], i: int) -> str:
    """The nearest text line above a branch: the node that fans out."""
    for line in reversed(lines[max(0, i - 4):i]):
        if re.search(r"[A-Za-z_]{3,}", line) and not _BOX_CHARS.search(line):
            return line.strip()
    return ""


def _label_after(lines: list[str], i: int) -> str:
    """The nearest text line below a join: the node the branches meet in."""
    for line in lines[i + 1:i + 5]:
        if re.search(r"[A-Za-z_]{3,}", line) and not _BOX_CHARS.search(line):
            return line.strip()
    return ""
