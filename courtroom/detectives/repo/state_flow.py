"""The state-flow detective: whether the LangGraph state would flow as the code draws it.

Each rule is a located adverse fact that a pattern's presence cannot work: a node returns
a key the state schema does not declare (LangGraph drops it), a node or router reads a key
nothing ever writes, judges look evidence up under keys it is never stored under, a judge
or the chief justice is written but never wired in, a model is used with a field it does
not define. Every rule stays silent when the code cannot be read for certain (an unknown
base class, a node built by a factory, keys built at run time): a false "cannot work"
wrongly caps a good submission.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import AUTOMATON_AUDITOR, Case, declares, detective
from courtroom.detectives.common import REPO, UNWORKABLE, is_test_path, make
from courtroom.detectives.nodes import node_text
from courtroom.detectives.parsing import SourceIndex, matches, source_index
from courtroom.detectives.repo.graph import graph_facts
from courtroom.detectives.repo.graph_names import constants
from courtroom.detectives.repo.state_flow_access import Access, analyse
from courtroom.detectives.repo.state_flow_keys import (
    DYNAMIC_KEYS,
    in_data_files,
    spelled,
    unread_inner,
)
from courtroom.detectives.repo.state_flow_models import model_misuse
from courtroom.detectives.repo.state_flow_schema import (
    ClassInfo,
    Schema,
    class_table,
    resolve_schema,
)
from courtroom.detectives.repo.state_flow_wiring import (
    GraphFunction,
    Wiring,
    invoked,
    state_param,
    wiring,
)
from courtroom.detectives.repo.workspace import Workspace
from courtroom.models import Evidence
from courtroom.untrusted import one_line

NAME = "state_flow"
TAGS = (REPO, "state", UNWORKABLE)
GRAPH_TAGS = (REPO, "graph", UNWORKABLE)
#: The roles a court graph runs, each charged only when no node of the graph names it.
ROLES = {
    "prosecutor": re.compile(r"prosecut", re.I),
    "defense": re.compile(r"defen[cs]e", re.I),
    "tech lead": re.compile(r"tech_?lead", re.I),
    "chief justice": re.compile(r"chief_?justice", re.I),
}
#: Code that loads functions by name at run time: a judge may be wired from a string.
_LOADS_BY_NAME = re.compile(rb"import_module\(|__import__\(|entry_points\(|"
                            rb"\bgetattr\([^,()]+,\s*[A-Za-z_]")
#: Located facts one rule reports at most (the lenses weigh a goal's first few anyway).
PER_RULE = 3
#: Keys one rule searches the whole tree for at most: a hostile tree cannot make the audit
#: quadratic, and a key left unsearched is never charged.
MAX_KEYS = 40
#: Annotations of a state parameter that declare no channel of their own.
_PLAIN = re.compile(r"^(|dict|Dict|Any|Mapping|MutableMapping|object|typing\.Any)(\[.*\])?$")

Flow = list[tuple[GraphFunction, Access]]


@detective(NAME, profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "state": "a state key a node reads that the state type or the wiring drops",
    "graph": "a graph whose state does not flow between its nodes as drawn",
    UNWORKABLE: "the state cannot flow as built: a node needs a key nothing writes",
}))
def state_flow(case: Case) -> list[Evidence]:
    """Adverse facts about state keys and models the graph cannot use as written."""
    ws = case.workspace
    index = source_index(ws)
    wired = wiring(index)
    classes = class_table(index)
    out = model_misuse(index, classes, wired.schemas, NAME)
    if not wired.functions:
        return out
    table = constants(index)
    flow = [(g, analyse(g.sf, g.fn, g.param, table)) for g in wired.functions if g.param]
    schemas = _schemas(classes, wired, flow)
    if schemas is not None:
        out += _undeclared(flow, schemas)
        if not any(DYNAMIC_KEYS.search(sf.source) for sf in index.files):
            out += _unwritten(index, ws, flow, schemas, _other_fields(classes, schemas))
    out += unread_inner(index, flow, table, NAME)
    out += _unwired_judges(index, ws, set(graph_facts(ws).nodes) | wired.referenced)
    return out


def _schemas(classes: dict[str, list[ClassInfo]], wired: Wiring,
             flow: Flow) -> list[Schema] | None:
    """Every schema the graph's channels come from (StateGraph's state, input and output
    and each node's own annotated state), or None when one of them cannot be read."""
    if wired.opaque_builders or not wired.schemas:
        return None
    names = set(wired.schemas)
    for g, _ in flow:
        head = g.annotation.split("[", 1)[0].strip()
        if not _PLAIN.match(g.annotation.strip()):
            names.add(head)
    # The builder's own state first: it is the schema a rationale names by default.
    schemas = [resolve_schema(classes, name) for name in dict.fromkeys([*wired.schemas,
                                                                      *sorted(names)])]
    return None if any(s is None for s in schemas) else [s for s in schemas if s]


def _undeclared(flow: Flow, schemas: list[Schema]) -> list[Evidence]:
    """Rule: a node returns a key no schema declares; LangGraph drops it silently."""
    declared = {f for s in schemas for f in s.fields}
    reads = [(key, how) for _g, acc in flow for key, how, _where in acc.reads] + \
        [(outer, "subscript") for _g, acc in flow for outer, _k, _w in acc.inner_reads]
    hard = {key for key, how in reads if how not in ("get", "guarded")}
    soft = {key for key, how in reads if how in ("get", "guarded")}
    by_name = {s.name: s for s in schemas}
    out: list[Evidence] = []
    seen: set[str] = set()
    for g, acc in flow:
        if g.router or g.wrapped:
            continue
        keys = {**(acc.in_place if acc.returns_state else {}), **acc.returned}
        for key, where in keys.items():
            if key in declared or key in seen or len(out) >= PER_RULE:
                continue
            seen.add(key)
            state = by_name.get(g.annotation.split("[", 1)[0].strip(), schemas[0])
            name, shown = one_line(g.name, 60), one_line(key, 60)  # hostile text
            # A key read as state[k] fails its reader; one read with .get() only loses
            # the value (the reader sees its default), so only the first cannot work.
            tags = TAGS if key in hard else TAGS[:-1]
            tail = (" A node reads it as a required key, so that read fails." if key in hard
                    else " It is read only where its absence is tolerated (.get(), try), so "
                    "the reader always sees the default." if key in soft
                    else " No node reads it, and the graph's result does not hold it either.")
            out.append(make(
                NAME, "Node returns a key the state schema does not declare", True, where,
                f"Node {name} returns the key '{shown}', which {state.name} (the graph's "
                f"state, {state.location}) does not declare: LangGraph drops the update "
                f"silently.{tail}", 0.75 if key in hard else 0.7, tags,
                content=f"{where} {shown}", direction="adverse",
                fix=f"declare {shown} in {state.name} at {state.location}, "
                f"or return a declared key at {where}."))
    return out


def _other_fields(classes: dict[str, list[ClassInfo]], schemas: list[Schema]) -> set[str]:
    """Fields of the repository's other classes: a subgraph's state, or a request model
    dumped into ``invoke()``, may write them without spelling them as strings."""
    own = {s.name for s in schemas}
    return {f for name, infos in classes.items() if name not in own
            for info in infos for f in info.fields}


def _unwritten(index: SourceIndex, ws: Workspace, flow: Flow, schemas: list[Schema],
               elsewhere: set[str]) -> list[Evidence]:
    """Rule: a node or router reads a key that nothing writes and no caller provides."""
    written = {k for _g, acc in flow for k in (*acc.returned, *acc.in_place)} | elsewhere
    defaults = {f for s in schemas for f, has in s.fields.items() if has}
    # Attributes are read off a model state only, and only its declared fields: a property
    # is computed, and an attribute no field names is the model rule's charge.
    declared = {f for s in schemas for f in s.fields}
    fields = declared if all(s.kind != "typeddict" for s in schemas) else set()
    # A declared key may be input that an outside caller gives, unless the repository's
    # own caller runs the graph (then the key would be spelled where it is passed).
    caller = invoked(index)
    out: list[Evidence] = []
    seen: set[str] = set()
    for g, acc in flow:
        for key, how, where in acc.reads:
            if how in ("get", "guarded") or (how == "attribute" and key not in fields) \
                    or key in seen or key in written or key in defaults or len(out) >= PER_RULE \
                    or len(seen) >= MAX_KEYS:
                continue
            seen.add(key)
            if (key in declared and not caller) or spelled(index, ws, key):
                continue
            role = "Router" if g.router else "Node"
            name, shown = one_line(g.name, 60), one_line(key, 60)  # hostile text
            why = ("the schema gives it no default and the repository's own invoke() does "
                   "not pass it" if key in declared else
                   "no state schema declares it, so not even the caller can set it")
            out.append(make(
                NAME, "State key read that nothing writes", True, where,
                f"{role} {name} reads '{shown}' from the state, but no node returns it and "
                f"{why}: the read fails (KeyError or a validation error) the first time it "
                "runs.", 0.75, TAGS, content=f"{where} {shown}", direction="adverse",
                fix=f"return {shown} from the node that computes it"
                f"{'' if key in declared else ' and declare it in the state'}, or read it "
                f"with a default at {where}."))
    return out


def _candidates(index: SourceIndex, pattern: re.Pattern[str],
                wired: set[str]) -> tuple[list[tuple[str, str]], bool]:
    """(name, location) of the functions of one role that take the state, as a node does,
    and whether the role is named where it may run after all: in another file, in another
    function of their file, or in a file that also holds a wired node of no single role (a
    dispatcher reading a persona table). Their module's own prompt constants do not
    count."""
    found: list[tuple[str, str]] = []
    elsewhere = False
    for sf in index.files:
        if is_test_path(sf.path):
            continue
        mentions = len(pattern.findall(sf.source.decode("utf-8", "replace")))
        mine: list[tuple[str, str]] = []
        others = 0
        defined: set[str] = set()
        for caps in matches("functions", sf.root):
            name = node_text(caps["function.name"][0])
            defined.add(name)
            param, annotation = state_param(sf, caps["function"][0])
            if pattern.search(name) and param and (
                    "state" in param.lower() or "State" in annotation):
                mine.append((name, sf.loc(caps["function"][0])))
            else:
                others += len(pattern.findall(sf.text(caps["function"][0])))
        found += mine
        # A wired node of no single role beside them may dispatch to every persona.
        dispatcher = any(not any(p.search(n) for p in ROLES.values()) for n in defined & wired)
        elsewhere = elsewhere or (bool(mentions) and not mine) or others > 0 or \
            bool(mine and dispatcher)
    return found, elsewhere


def _unwired_judges(index: SourceIndex, ws: Workspace, wired: set[str]) -> list[Evidence]:
    """Rule: a judge or the chief justice exists as a node function, the graph has no node
    of that role, and the role is named nowhere else: a judge reached through a
    dispatcher, a persona table or a factory is never charged."""
    out: list[Evidence] = []
    if any(_LOADS_BY_NAME.search(sf.source) for sf in index.files):
        return out
    for role, pattern in ROLES.items():
        if any(pattern.search(name) for name in wired):
            continue
        found, named_elsewhere = _candidates(index, pattern, wired)
        if named_elsewhere:
            continue
        for name, where in found:
            if in_data_files(ws, name):
                continue
            out.append(make(
                NAME, "Judge or chief justice written but never added to the graph",
                True, where,
                f"{name} takes the state like a graph node, but the graph has no "
                f"{role} node and nothing calls or wires {name}: the {role} never runs.",
                0.75, GRAPH_TAGS, content=f"{where} {name}", direction="adverse",
                fix=f"add it with add_node(\"{name}\", {name}) and an edge into it, or "
                f"remove {name} at {where}."))
            break
    return out
