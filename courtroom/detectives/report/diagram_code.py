"""A diagram held against the code's graph: does it show the graph the code builds?

A diagram earns credit for the parallelism it shows only where the code has it too. It
misleads when it branches where the code runs in one line, or joins more parallel
branches than the code ever does; a picture that names none of the code's nodes is a
generic box-and-arrow drawing. Loops (a retry, a review round) are read off the arrows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.repo.graph import GraphFacts
from courtroom.detectives.report.diagram_graph import Drawing

#: Fewest connected boxes that make a drawing a diagram, and a code graph worth comparing.
MIN_NODES = 3


@dataclass(frozen=True)
class Held:
    """A diagram held against the code's graph."""

    code_nodes: int
    named: list[str]
    code_fans: bool
    fans: bool
    #: Join points (fan-ins) of the drawing and of the code; None when the code's joins
    #: cannot be counted (branches sent at run time).
    joins: int = 0
    code_joins: int | None = None

    @property
    def generic(self) -> bool:
        """The code builds a graph and the diagram names none of its nodes."""
        return self.code_nodes >= MIN_NODES and not self.named

    @property
    def contradicts(self) -> bool:
        """The diagram branches where the code's graph (found) runs in one line."""
        return self.fans and self.code_nodes >= MIN_NODES and not self.code_fans

    @property
    def overstates(self) -> bool:
        """The diagram joins more parallel branches than the code's graph ever does."""
        return (not self.contradicts and self.code_joins is not None
                and self.joins > self.code_joins >= 1)

    @property
    def said(self) -> str:
        if self.code_nodes < MIN_NODES:
            return ""
        named = (f"; it names {len(self.named)} of the code's {self.code_nodes} nodes"
                 if self.named else f"; it names none of the code's {self.code_nodes} "
                 "nodes (a generic picture)")
        return named + ("; the code's graph does not fan out" if self.contradicts else "")

    def fix(self, where: str) -> str:
        return (f"redraw the diagram on {where.removeprefix('pdf:')} as the code builds "
                "the graph (it has no parallel branches), or make the code run them in parallel.")


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def hold_against_code(facts: GraphFacts, d: Drawing) -> Held:
    """Which of the code's nodes the diagram's labels name, and where both branch."""
    drawn = [_squash(d.labels[n]) for n in d.connected]
    named = [n for n in facts.nodes if len(_squash(n)) >= 4
             and any(_squash(n) in label for label in drawn)]
    return Held(len(facts.nodes), named, bool(facts.fan_out or facts.dynamic_fan_out),
                bool(d.fan_out or d.fan_in), len(d.fan_in),
                None if facts.dynamic_fan_out else len(facts.fan_in))


def loops(d: Drawing) -> bool:
    """Whether the drawing's arrows run in a circle somewhere (a retry or review loop)."""
    after: dict[int, set[int]] = {}
    for a, b in d.edges:
        after.setdefault(a, set()).add(b)
    done: set[int] = set()
    for start in after:
        path, stack = {start}, [(start, iter(after.get(start, ())))]
        while stack:
            node, rest = stack[-1]
            nxt = next(rest, None)
            if nxt is None:
                stack.pop()
                path.discard(node)
                done.add(node)
            elif nxt in path:
                return True
            elif nxt not in done:
                path.add(nxt)
                stack.append((nxt, iter(after.get(nxt, ()))))
    return False
