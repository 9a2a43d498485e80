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

from courtroom.detectives.nodes import call_arguments, node_text
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, matches, source_index
from courtroom.detectives.repo.graph_names import (
    END,
    START,
    constants,
    loop_values,
    resolve,
    router_returns,
)
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.shared import per_workspace

_WIRING = {"add_node", "add_edge", "add_conditional_edges", "set_entry_point",
           "set_finish_point", "add_sequence"}
DETECTIVE_NAME = re.compile(r"detect|investigat|repo|doc|pdf|vision|evidence|forensic|git", re.I)
JUDGE_NAME = re.compile(r"judge|prosecut|defen[cs]e|tech_?lead|critic|advoca", re.I)
ERROR_NAME = re.compile(r"error|fail|missing|retry|fallback|abort|skip|invalid|empty|except|"
                        r"degrad|partial|incomplete|insufficient|recover|no_?input|bail", re.I)


@dataclass(frozen=True)
class Edge:
    """One edge of the graph; ``conditional`` edges come from a router."""

    source: str
    target: str
    location: str
    conditional: bool = False
    label: str = ""
    #: The router returns several targets at once (a list or Send calls): they run in parallel.
    parallel: bool = False
    #: Part of a list join, ``add_edge([a, b], c)``: c waits for all of them.
    joined: bool = False


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
    #: add_conditional_edges calls whose targets could not be read: where they lead is unknown.
    unresolved_routes: list[str] = field(default_factory=list)

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
        """Conditional routes for errors or missing data: the label, router or target speaks
        of it (an error node, a degraded report, a skip), or the router can end the run
        early instead of going on (a route to END beside a route to another node)."""
        early = {e.source for e in self.routers if e.target == END and not e.parallel and
                 any(o.source == e.source and o.target != END for o in self.routers)}
        return [e for e in self.routers
                if ERROR_NAME.search(f"{e.label} {e.target}") or
                (e.source in early and e.target == END)]


def _targets(sf: SourceFile, node: Node | None, table: dict[str, str]) -> list[tuple[str, str]]:
    """(label, target) pairs of a path map (dict) or a list of targets."""
    if node is None:
        return []
    if node.type == "dictionary":
        out = []
        for pair in node.named_children:
            if pair.type != "pair":
                continue
            key = resolve(sf, pair.child_by_field_name("key"), table) or sf.text(
                pair.child_by_field_name("key"))
            value = resolve(sf, pair.child_by_field_name("value"), table)
            if value:
                out.append((str(key), value))
        return out
    if node.type in ("list", "tuple", "set"):
        resolved = [resolve(sf, c, table) for c in node.named_children]
        return [(r, r) for r in resolved if r]
    return []


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
        for value in loop_values(sf, positional[0]):
            name = resolve(sf, value, table)
            if name:
                facts.nodes.setdefault(name, where)
    elif method == "add_edge" and len(positional) >= 2:
        first = positional[0]
        firsts = list(first.named_children) if first.type in ("list", "tuple") else [first]
        tails = [t for c in firsts for v in loop_values(sf, c) if (t := resolve(sf, v, table))]
        heads = [h for v in loop_values(sf, positional[1]) if (h := resolve(sf, v, table))]
        joined = first.type in ("list", "tuple") and len(tails) > 1
        facts.edges.extend(Edge(t, h, where, joined=joined) for t in tails for h in heads)
    elif method == "add_conditional_edges" and positional:
        _conditional_call(sf, positional, keywords, where, table, index, facts)
    elif method == "set_entry_point" and positional:
        entry = resolve(sf, positional[0], table)
        if entry:
            facts.edges.append(Edge(START, entry, where))
    elif method == "set_finish_point" and positional:
        finish = resolve(sf, positional[0], table)
        if finish:
            facts.edges.append(Edge(finish, END, where))
    elif method == "add_sequence" and positional and positional[0].type == "list":
        names = [resolve(sf, c, table) for c in positional[0].named_children]
        chain = [n for n in names if n]
        for n in chain:
            facts.nodes.setdefault(n, where)
        facts.edges.extend(Edge(a, b, where) for a, b in itertools.pairwise(chain))


def _conditional_call(sf: SourceFile, positional: list[Node], keywords: dict[str, Node],
                      where: str, table: dict[str, str], index: SourceIndex,
                      facts: GraphFacts) -> None:
    """Record one add_conditional_edges call: its routes, or that they could not be read."""
    src = resolve(sf, positional[0], table)
    router = positional[1] if len(positional) > 1 else keywords.get("path")
    path_map = positional[2] if len(positional) > 2 else keywords.get("path_map")
    pairs = _targets(sf, path_map, table)
    router_name = sf.text(router).split(".")[-1] if router is not None else ""
    many: set[str] = set()
    if router is not None and router.type in ("identifier", "attribute"):
        targets, many = router_returns(index, router_name, table)
        pairs = pairs or [(t, t) for t in targets]
    if not pairs:
        facts.unresolved_routes.append(where)
    for label, dst in pairs:
        if src:
            edge = Edge(src, dst, where, True, f"{router_name}:{label}", dst in many)
            facts.edges.append(edge)
            facts.routers.append(edge)


def _derive(facts: GraphFacts) -> None:
    """Compute fan-out points (several edges taken at once) and fan-in points.

    Parallel branches that each route on to the same node through their own router join
    there too, unless that node is an error route: a shared error node is not a join.
    """
    out: dict[str, set[str]] = defaultdict(set)
    into: dict[str, set[str]] = defaultdict(set)
    for e in facts.edges:
        if not e.conditional or e.parallel:
            out[e.source].add(e.target)
            into[e.target].add(e.source)
    facts.fan_out = {s: sorted(t - {END}) for s, t in sorted(out.items()) if len(t - {END}) >= 2}
    siblings = [set(t) for t in facts.fan_out.values()]
    routed: dict[str, set[str]] = defaultdict(set)
    for e in facts.routers:
        if not e.parallel and not ERROR_NAME.search(e.target):
            routed[e.target].add(e.source)
    for target, sources in routed.items():
        if any(len(sources & group) >= 2 for group in siblings):
            into[target] |= sources
    facts.fan_in = {t: sorted(s - {START}) for t, s in sorted(into.items())
                    if len(s - {START}) >= 2 and t != END}


@per_workspace
def graph_facts(ws: Workspace) -> GraphFacts:
    """The workspace's graph facts, computed once and shared (source and report use them)."""
    return extract(source_index(ws))
