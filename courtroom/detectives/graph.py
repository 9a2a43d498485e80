"""Extract the LangGraph StateGraph wiring from Python sources and derive its shape.

Node names are resolved from string literals, module or class string constants, and
plain function names, across every file, so a graph built in several modules is still
one graph. Nothing is imported or executed.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass, field

from courtroom.detectives.parsing import (
    Node,
    SourceFile,
    SourceIndex,
    call_arguments,
    matches,
    node_text,
    source_index,
    string_value,
)
from courtroom.detectives.workspace import Workspace

START, END = "__start__", "__end__"
_WIRING = {"add_node", "add_edge", "add_conditional_edges", "set_entry_point",
           "set_finish_point", "add_sequence"}
DETECTIVE_NAME = re.compile(r"detect|investigat|repo|doc|pdf|vision|evidence|forensic|git", re.I)
JUDGE_NAME = re.compile(r"judge|prosecut|defen[cs]e|tech_?lead|critic|advoca", re.I)
ERROR_NAME = re.compile(r"error|fail|missing|retry|fallback|abort|skip|invalid|empty|except", re.I)


@dataclass(frozen=True)
class Edge:
    """One edge of the graph; ``conditional`` edges come from a router."""

    source: str
    target: str
    location: str
    conditional: bool = False
    label: str = ""


@dataclass
class GraphFacts:
    """The extracted graph and what it shows."""

    builders: list[tuple[str, str]] = field(default_factory=list)  # (location, state type)
    nodes: dict[str, str] = field(default_factory=dict)  # name -> location of add_node
    edges: list[Edge] = field(default_factory=list)
    fan_out: dict[str, list[str]] = field(default_factory=dict)
    fan_in: dict[str, list[str]] = field(default_factory=dict)
    routers: list[Edge] = field(default_factory=list)
    dynamic_fan_out: list[str] = field(default_factory=list)  # locations of Send(...)

    def branches_matching(self, pattern: re.Pattern[str]) -> list[tuple[str, list[str]]]:
        """Fan-out points whose parallel branches include two or more matching nodes."""
        hits = []
        for src, targets in self.fan_out.items():
            named = [t for t in targets if pattern.search(t)]
            if len(named) >= 2:
                hits.append((src, named))
        return hits

    @property
    def error_routes(self) -> list[Edge]:
        """Conditional edges whose label, target or router name speaks of errors/missing data."""
        return [e for e in self.routers if ERROR_NAME.search(f"{e.label} {e.target}")]


def constants(index: SourceIndex) -> dict[str, str]:
    """Module-level ``NAME = "text"`` and class-level ``Cls.NAME`` string constants."""
    table: dict[str, str] = {}
    for sf in index.files:
        for caps in matches("constants", sf.root):
            name = node_text(caps["const.name"][0])
            value = string_value(sf, caps["const.value"][0])
            if value is None:
                continue
            if "const.class" in caps:
                table[f"{node_text(caps['const.class'][0])}.{name}"] = value
            else:
                table.setdefault(name, value)
    return table


def _resolve(sf: SourceFile, node: Node | None, table: dict[str, str]) -> str | None:
    """A node name from a literal, START/END, a constant or a plain name."""
    if node is None:
        return None
    literal = string_value(sf, node)
    if literal is not None:
        return literal
    text = sf.text(node)
    if text in ("START", "langgraph.graph.START"):
        return START
    if text in ("END", "langgraph.graph.END"):
        return END
    if node.type == "attribute":
        tail = ".".join(text.split(".")[-2:])
        if tail in table:
            return table[tail]
        last = text.split(".")[-1]
        return table.get(last, last)
    if node.type == "identifier":
        return table.get(text, text)
    return None


def _targets(sf: SourceFile, node: Node | None, table: dict[str, str]) -> list[tuple[str, str]]:
    """(label, target) pairs of a path map (dict) or a list of targets."""
    if node is None:
        return []
    if node.type == "dictionary":
        out = []
        for pair in node.named_children:
            if pair.type != "pair":
                continue
            key = _resolve(sf, pair.child_by_field_name("key"), table) or sf.text(
                pair.child_by_field_name("key"))
            value = _resolve(sf, pair.child_by_field_name("value"), table)
            if value:
                out.append((str(key), value))
        return out
    if node.type in ("list", "tuple", "set"):
        resolved = [_resolve(sf, c, table) for c in node.named_children]
        return [(r, r) for r in resolved if r]
    return []


def _router_returns(index: SourceIndex, name: str, table: dict[str, str]) -> list[str]:
    """String targets a router function returns, when no path map is given."""
    for sf in index.files:
        for caps in matches("functions", sf.root):
            if node_text(caps["function.name"][0]) != name:
                continue
            out: list[str] = []
            for ret in _descendants(caps["function.body"][0], "return_statement"):
                value = ret.named_children[0] if ret.named_children else None
                if value is None:
                    continue
                text = sf.text(value)
                # Only constants name a node; `return state["next"]` cannot be resolved.
                if string_value(sf, value) is not None or text in table or \
                        ".".join(text.split(".")[-2:]) in table or text in ("END", "START"):
                    resolved = _resolve(sf, value, table)
                    if resolved:
                        out.append(resolved)
            return sorted(set(out))
    return []


def _descendants(node: Node, kind: str) -> list[Node]:
    """All descendants of node of one kind."""
    out, stack = [], [node]
    while stack:
        cur = stack.pop()
        if cur.type == kind:
            out.append(cur)
        stack.extend(cur.children)
    return out


def _is_graph_file(sf: SourceFile) -> bool:
    """Whether a file can hold LangGraph wiring (cheap byte check first)."""
    markers = (b"StateGraph", b"langgraph", b"add_conditional_edges")
    return any(marker in sf.source for marker in markers)


def extract(index: SourceIndex) -> GraphFacts:
    """Collect builders, nodes and edges from every graph-related file."""
    facts = GraphFacts()
    table = constants(index)
    for sf in index.files:
        if not _is_graph_file(sf):
            continue
        for caps in matches("calls", sf.root):
            if "call.name" in caps:
                _plain_call(sf, caps, facts)
            elif "call.method" in caps:
                _method_call(sf, caps, table, index, facts)
    _derive(facts)
    return facts


def _plain_call(sf: SourceFile, caps: dict[str, list[Node]], facts: GraphFacts) -> None:
    """Record StateGraph(...) builders and Send(...) dynamic fan-outs."""
    name = node_text(caps["call.name"][0])
    node = caps["call.plain"][0]
    if name == "StateGraph":
        positional, _ = call_arguments(caps["call.args"][0])
        state = sf.text(positional[0]) if positional else "?"
        facts.builders.append((sf.loc(node), state))
    elif name == "Send":
        facts.dynamic_fan_out.append(sf.loc(node))


def _method_call(sf: SourceFile, caps: dict[str, list[Node]], table: dict[str, str],
                 index: SourceIndex, facts: GraphFacts) -> None:
    """Record one add_node/add_edge/add_conditional_edges/... call."""
    method = node_text(caps["call.method"][0])
    if method not in _WIRING:
        return
    node = caps["call.method_call"][0]
    where = sf.loc(node)
    positional, keywords = call_arguments(caps["call.args"][0])
    if method == "add_node" and positional:
        name = _resolve(sf, positional[0], table)
        if name:
            facts.nodes.setdefault(name, where)
    elif method == "add_edge" and len(positional) >= 2:
        dst = _resolve(sf, positional[1], table)
        first = positional[0]
        sources = ([s for s in (_resolve(sf, c, table) for c in first.named_children) if s]
                   if first.type in ("list", "tuple") else [_resolve(sf, first, table)])
        for src in sources:
            if src and dst:
                facts.edges.append(Edge(src, dst, where))
    elif method == "add_conditional_edges" and positional:
        src = _resolve(sf, positional[0], table)
        router = positional[1] if len(positional) > 1 else keywords.get("path")
        path_map = positional[2] if len(positional) > 2 else keywords.get("path_map")
        pairs = _targets(sf, path_map, table)
        router_name = sf.text(router).split(".")[-1] if router is not None else ""
        if not pairs and router is not None and router.type in ("identifier", "attribute"):
            pairs = [(t, t) for t in _router_returns(index, router_name, table)]
        for label, dst in pairs:
            if src:
                edge = Edge(src, dst, where, True, f"{router_name}:{label}")
                facts.edges.append(edge)
                facts.routers.append(edge)
    elif method == "set_entry_point" and positional:
        dst = _resolve(sf, positional[0], table)
        if dst:
            facts.edges.append(Edge(START, dst, where))
    elif method == "set_finish_point" and positional:
        src = _resolve(sf, positional[0], table)
        if src:
            facts.edges.append(Edge(src, END, where))
    elif method == "add_sequence" and positional and positional[0].type == "list":
        names = [_resolve(sf, c, table) for c in positional[0].named_children]
        chain = [n for n in names if n]
        for n in chain:
            facts.nodes.setdefault(n, where)
        facts.edges.extend(Edge(a, b, where) for a, b in itertools.pairwise(chain))


def _derive(facts: GraphFacts) -> None:
    """Compute fan-out and fan-in points from the unconditional edges."""
    out: dict[str, set[str]] = defaultdict(set)
    into: dict[str, set[str]] = defaultdict(set)
    for e in facts.edges:
        if not e.conditional:
            out[e.source].add(e.target)
            into[e.target].add(e.source)
    facts.fan_out = {s: sorted(t - {END}) for s, t in sorted(out.items()) if len(t - {END}) >= 2}
    facts.fan_in = {t: sorted(s - {START}) for t, s in sorted(into.items())
                    if len(s - {START}) >= 2 and t != END}


def graph_facts(ws: Workspace) -> GraphFacts:
    """The workspace's graph facts, computed once and shared (source and report use them)."""
    return ws.memo("graph_facts", lambda: extract(source_index(ws)))


def _mid(name: str) -> str:
    """A Mermaid-safe node id (hostile names cannot inject syntax)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "node"


def mermaid(facts: GraphFacts, limit: int = 80) -> str:
    """A compact Mermaid flowchart of the extracted graph."""
    lines = ["flowchart TD"]
    seen: set[tuple[str, str, bool]] = set()
    for e in facts.edges:
        key = (e.source, e.target, e.conditional)
        if key in seen:
            continue
        seen.add(key)
        src, dst = _mid(e.source), _mid(e.target)
        if e.conditional:
            label = re.sub(r"[^A-Za-z0-9_ .:-]", "", e.label.split(":", 1)[-1])[:30]
            lines.append(f"  {src} -.->|{label}| {dst}" if label else f"  {src} -.-> {dst}")
        else:
            lines.append(f"  {src} --> {dst}")
        if len(lines) > limit:
            lines.append("  %% more edges omitted")
            break
    wired = {n for e in facts.edges for n in (e.source, e.target)}
    lines.extend(f"  {_mid(n)}" for n in sorted(facts.nodes) if n not in wired)
    return "\n".join(lines)
