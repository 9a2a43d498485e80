"""The graph detective: StateGraph wiring, fan-out/fan-in, parallel roles, error routing."""

from __future__ import annotations

import re

from courtroom.detectives.base import AUTOMATON_AUDITOR, Case, declares, detective
from courtroom.detectives.common import REPO, UNWORKABLE, make
from courtroom.detectives.parsing import SourceIndex, source_index
from courtroom.detectives.repo.graph import (
    DETECTIVE_NAME,
    JUDGE_NAME,
    GraphFacts,
    graph_facts,
)
from courtroom.detectives.repo.graph_checks import (
    broken_imports,
    dead_ends,
    uneven_joins,
    unknown_targets,
    unreachable,
)
from courtroom.detectives.repo.source import no_python
from courtroom.models import Evidence, location_path

NAME = "graph"
TAGS = (REPO, "graph")


@detective(NAME, profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "graph": "the StateGraph's nodes and edges as built",
    "parallelism": "a fan-out of nodes and the join that gathers them",
    "conditional": "a conditional route, an error path, or one that leads nowhere",
    "personas": "the judge nodes wired into the graph",
    "missing": "no StateGraph found",
    UNWORKABLE: "a node no run reaches, a route to a missing node, a join run twice",
}))
def orchestration(case: Case) -> list[Evidence]:
    """Evidence about the StateGraph: builders, wiring, parallel branches and routers."""
    ws = case.workspace
    index = source_index(ws)
    if not index.files:
        return [no_python(NAME, "StateGraph orchestration", index,
                          ("graph", "parallelism", "conditional"))]
    facts = graph_facts(ws)
    if not facts.builders and not facts.nodes:
        return [make(NAME, "StateGraph orchestration", False, ".",
                     f"No StateGraph(...) construction or add_node call in "
                     f"{len(index.files)} Python files.", 0.85,
                     (*TAGS, "parallelism", "conditional", "missing"))]
    first = facts.builders[0][0] if facts.builders else next(iter(facts.nodes.values()))
    out = [make(NAME, "StateGraph builders", bool(facts.builders), first,
                f"{len(facts.builders)} StateGraph(...) construction(s); "
                f"{len(facts.nodes)} nodes and {len(facts.edges)} edges wired across "
                f"{len({loc.split(':')[0] for loc in facts.nodes.values()})} file(s).", 0.95,
                TAGS, content="\n".join(f"{loc} StateGraph({state})"
                                        for loc, state in facts.builders[:10]) or None),
           make(NAME, "Extracted orchestration graph (Mermaid)", True, first,
                "Built from add_node/add_edge/add_conditional_edges calls; names resolved "
                "from literals and string constants; dotted edges are conditional.", 0.9,
                (*TAGS, "parallelism"), content=mermaid(facts))]
    out += _parallel(facts, first)
    out += _conditional(facts, first)
    out += _runnable(index, facts)
    return out


def _branch_nodes(facts: GraphFacts) -> set[str]:
    """Nodes on parallel branches: fan-out targets and the plain chains after them."""
    seen = {t for targets in facts.fan_out.values() for t in targets}
    grow = list(seen)
    while grow:
        node = grow.pop()
        for e in facts.edges:
            if e.source == node and e.target not in seen and e.target not in facts.fan_in \
                    and (not e.conditional or e.parallel):
                seen.add(e.target)
                grow.append(e.target)
    return seen


def _runnable(index: SourceIndex, facts: GraphFacts) -> list[Evidence]:
    """Adverse facts that stop the graph from running: dead ends and broken imports."""
    tags = (*TAGS, "conditional", UNWORKABLE)
    dynamic = any(b"Command(" in sf.source and b"goto" in sf.source for sf in index.files)
    stuck = dead_ends(facts.nodes, [(e.source, e.target) for e in facts.edges], dynamic)
    out = _never_run(facts, dynamic, tags)
    if stuck:
        where = facts.nodes.get(stuck[0], next(iter(facts.nodes.values()), "."))
        out.append(make(NAME, "Nodes with no way on (dead ends)", True, where,
                        f"No edge leaves {', '.join(stuck[:6])}: a run that reaches it stops "
                        "there instead of going on to the synthesis or END.", 0.7, tags,
                        content=", ".join(stuck), direction="adverse",
                        fix=f"add an edge from {stuck[0]} to the next step or to END."))
    uneven = uneven_joins([(e.source, e.target, e.joined) for e in facts.edges], facts.fan_in,
                          _branch_nodes(facts))
    for target, depths in list(uneven.items())[:3]:
        branches = ", ".join(f"{src} ({hops} hops)" for src, hops in sorted(depths.items()))
        out.append(make(NAME, "Join reached by separate edges from uneven branches", True,
                        facts.nodes.get(target, next(iter(facts.nodes.values()), ".")),
                        f"{target} is reached by separate edges from branches of different "
                        f"length ({branches}), so it runs once per arrival instead of once.",
                        0.7, tags, direction="adverse",
                        fix=f"join them with one list edge, add_edge([...], \"{target}\"), "
                        "or even out the branches."))
    wiring = sorted({location_path(loc) for loc in facts.nodes.values()})
    files = [sf for sf in index.files if sf.path in wiring]
    broken = broken_imports(index, files)
    if broken:
        b = broken[0]
        out.append(make(NAME, "Graph module imports a name its module does not define", True,
                        b.location, f"{b.name} is imported from {b.module}, which neither "
                        "defines nor re-exports it: building the graph fails with ImportError.",
                        0.9, tags,
                        content="\n".join(f"{x.location} {x.module}.{x.name}"
                                          for x in broken[:10]), direction="adverse",
                        fix=f"import the name {b.module} really defines, or define {b.name} "
                        "there."))
    return out


def _never_run(facts: GraphFacts, dynamic: bool, tags: tuple[str, ...]) -> list[Evidence]:
    """Nodes no run reaches and routes to nodes that do not exist, for a single graph (the
    nodes of several builders cannot be told apart)."""
    if len(facts.builders) > 1:
        return []
    out = []
    wrong = unknown_targets(facts.nodes, [(e.source, e.target) for e in facts.routers])
    if wrong:
        src, dst = wrong[0]
        where = next(e.location for e in facts.routers if (e.source, e.target) == wrong[0])
        out.append(make(NAME, "Conditional route to a node that does not exist", True, where,
                        f"The router after {src} can send the run to {dst}, which is not a "
                        "node of the graph: LangGraph rejects the route.", 0.7, tags,
                        content="\n".join(f"{a} -> {b}" for a, b in wrong[:10]),
                        direction="adverse",
                        fix=f"add the node {dst}, or map the route to an existing node or END."))
    lost = unreachable(facts.nodes, [(e.source, e.target) for e in facts.edges],
                       dynamic or bool(facts.unresolved_routes))
    if lost:
        out.append(make(NAME, "Nodes no run reaches", True, facts.nodes[lost[0]],
                        f"{', '.join(lost[:6])} {'is' if len(lost) == 1 else 'are'} added to "
                        "the graph but no edge from START leads there: the node never runs.",
                        0.75, tags, content=", ".join(lost), direction="adverse",
                        fix=f"add an edge into {lost[0]} from the step that should precede "
                        "it, or remove it."))
    return out


def _edge_loc(facts_edges: list[tuple[str, str, str]], src: str, fallback: str) -> str:
    """Where the first edge leaving src was wired."""
    for s, _t, loc in facts_edges:
        if s == src:
            return loc
    return fallback


def _parallel(facts: GraphFacts, first: str) -> list[Evidence]:
    """Evidence about fan-out, fan-in and parallel detectives/judges."""
    tags = (*TAGS, "parallelism")
    plain = [(e.source, e.target, e.location) for e in facts.edges
             if not e.conditional or e.parallel]
    joins = [(e.target, e.source, e.location) for e in facts.edges if not e.conditional]
    out: list[Evidence] = []
    for src, branches in list(facts.fan_out.items())[:8]:
        out.append(make(NAME, "Fan-out to parallel branches", True, _edge_loc(plain, src, first),
                        f"{src} starts {len(branches)} branches in the same superstep "
                        "(several unconditional edges, or a router returning a list or "
                        "Send calls).", 0.9, tags, content=f"{src} -> {', '.join(branches)}"))
    for dst, sources in list(facts.fan_in.items())[:8]:
        out.append(make(NAME, "Fan-in join of parallel branches", True,
                        _edge_loc(joins, dst, first),
                        f"{dst} waits for {len(sources)} incoming branches.", 0.9, tags,
                        content=f"{', '.join(sources)} -> {dst}", direction="supports"))
    if not facts.fan_in:
        out.append(make(NAME, "Fan-in join of parallel branches", False, first,
                        "No node joins two or more branches.", 0.8,
                        (*tags, "missing"), direction="adverse",
                        fix="join the parallel branches in an aggregator node before the next "
                        "stage."))
    for role, pattern in (("Detectives", DETECTIVE_NAME), ("Judges", JUDGE_NAME)):
        role_tags = (*tags, "personas") if role == "Judges" else tags
        hits = facts.branches_matching(pattern)
        if hits:
            src, named = hits[0]
            out.append(make(NAME, f"{role} run in parallel", True, _edge_loc(plain, src, first),
                            f"{src} fans out to {len(named)} {role.lower()} nodes.", 0.85,
                            role_tags, content=f"{src} -> {', '.join(named)}",
                            direction="supports"))
        else:
            names = sorted(n for n in facts.nodes if pattern.search(n))
            out.append(make(NAME, f"{role} run in parallel", False, first,
                            f"No fan-out point reaches two or more {role.lower()} nodes "
                            f"(matching nodes: {', '.join(names) or 'none'}).", 0.8,
                            (*role_tags, "missing"), direction="adverse",
                            fix=f"add an edge from one node to each of the {role.lower()} so "
                            "they run in the same superstep."))
            workers = [n for n in names if not _JOINER.search(n)]
            if len(workers) == 1:
                out.append(_one_node(facts, role, workers[0], first, role_tags))
    return out


#: Node names of a step that gathers branches rather than doing a role's work.
_JOINER = re.compile(r"aggregat|collect|merg|join|gather|combin|sync|barrier", re.I)


def _one_node(facts: GraphFacts, role: str, node: str, first: str,
              tags: tuple[str, ...]) -> Evidence:
    """A role's whole stage as one graph node: the graph has no branches to fan out to or
    join, whatever the node does inside (a loop, asyncio.gather)."""
    where = facts.nodes.get(node, first)
    return make(NAME, f"{role} are separate graph nodes", True, where,
                f"All the {role.lower()}' work runs inside the one node {node}: the graph "
                f"has no {role.lower()[:-1]} branches to fan out to or join, so LangGraph "
                "cannot run, retry or trace them apart, and the stage's fan-out and fan-in "
                "are absent.", 0.8, tags, content=node, direction="adverse",
                fix=f"at `{where}`, add each of the {role.lower()} as its own node, with an "
                "edge to each from the step before and from each into the aggregator.")


def _conditional(facts: GraphFacts, first: str) -> list[Evidence]:
    """Evidence about conditional routes and error/missing-data paths."""
    tags = (*TAGS, "conditional")
    goal = "Conditional edges route errors or missing evidence"
    if not facts.routers:
        return [make(NAME, goal, False, first, "No add_conditional_edges call: no routing on "
                     "errors or missing evidence.", 0.8, (*tags, "missing"), direction="adverse",
                     fix="add a conditional edge after the aggregator that sends failed or "
                     "empty evidence to an error or degraded-report node.")]
    out = [make(NAME, "Conditional edges", True, facts.routers[0].location,
                f"{len(facts.routers)} conditional route(s).", 0.9, tags,
                content="\n".join(f"{e.source} -[{e.label}]-> {e.target}"
                                  for e in facts.routers[:20]))]
    errors = facts.error_routes
    if errors:
        out.append(make(NAME, goal, True, errors[0].location, "Routes for errors, missing "
                        "data or an early end: " + ", ".join(f"{e.source}->{e.target}"
                                                          for e in errors[:6]), 0.8, tags,
                        direction="supports"))
    else:
        out.append(make(NAME, goal, False, facts.routers[0].location,
                        "No conditional route leads to an error, fallback or degraded node or "
                        "ends the run early.", 0.75, (*tags, "missing"), direction="adverse",
                        fix="route failures and missing evidence to a node that reports them."))
    return out


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
