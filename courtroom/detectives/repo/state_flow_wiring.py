"""The functions a LangGraph graph runs, found from its wiring: each ``add_node`` action
and each ``add_conditional_edges`` router, resolved to the one function definition (or
lambda) of that name, with the parameter that receives the state.

A name defined more than once, a factory call (``make_judge("x")``), ``partial(...)`` or a
compiled subgraph is not resolved: it is counted, so that rules needing every writer of
the state stay silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from courtroom.detectives.common import is_test_path
from courtroom.detectives.nodes import call_arguments, enclosing, node_text, string_value, walk
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, matches

_SELF = ("self", "cls")
_RUN = {"invoke", "ainvoke", "stream", "astream", "batch", "abatch"}
_SCHEMA_KEYWORDS = ("state_schema", "input", "output", "input_schema", "output_schema")


@dataclass(frozen=True)
class GraphFunction:
    """One function the graph runs: a node action or a router."""

    name: str
    sf: SourceFile
    fn: Node  # function_definition or lambda
    param: str | None
    annotation: str
    router: bool
    #: Handed to a wrapper (``safe(fn, ...)``): it reads the state, but what the node
    #: returns is the wrapper's to decide.
    wrapped: bool = False


@dataclass
class Wiring:
    """The graph's schemas and the functions it runs."""

    #: Class names passed to StateGraph(...) as its state, input or output schema.
    schemas: list[str] = field(default_factory=list)
    #: StateGraph(...) calls whose state argument is not a plain name.
    opaque_builders: int = 0
    functions: list[GraphFunction] = field(default_factory=list)
    #: Node actions or routers whose definition could not be found for certain.
    unresolved: list[str] = field(default_factory=list)
    #: Names of every function or class referenced by the wiring (actions, routers).
    referenced: set[str] = field(default_factory=set)


Defs = dict[str, list[tuple[SourceFile, Node]]]


def definitions(index: SourceIndex) -> Defs:
    """Every function definition of the non-test sources, by name; a class by its name
    maps to its ``__call__`` method (an instance of it can be a node)."""
    out: Defs = {}
    for sf in index.files:
        if is_test_path(sf.path):
            continue
        for caps in matches("functions", sf.root):
            fn = caps["function"][0]
            name = node_text(caps["function.name"][0])
            out.setdefault(name, []).append((sf, fn))
            owner = enclosing(fn, ("class_definition", "function_definition"))
            if name == "__call__" and owner is not None and owner.type == "class_definition":
                out.setdefault(sf.text(owner.child_by_field_name("name")) + "()", []).append(
                    (sf, fn))
    return out


def state_param(sf: SourceFile, fn: Node) -> tuple[str | None, str]:
    """The parameter that receives the state (the first one after self/cls) and its
    annotation text."""
    params = fn.child_by_field_name("parameters")
    for child in params.named_children if params is not None else []:
        if child.type == "identifier":
            name, kind = sf.text(child), ""
        elif child.type in ("typed_parameter", "typed_default_parameter", "default_parameter"):
            ident = child.child_by_field_name("name") or (
                child.named_children[0] if child.named_children else None)
            name, kind = sf.text(ident), sf.text(child.child_by_field_name("type"))
        else:
            return None, ""
        if name not in _SELF:
            return name, kind.strip("\"'")
    return None, ""


def _graph_file(sf: SourceFile) -> bool:
    return not is_test_path(sf.path) and any(
        m in sf.source for m in (b"StateGraph", b"add_node", b"add_conditional_edges"))


def wiring(index: SourceIndex) -> Wiring:
    """The schemas and functions of every StateGraph built in the non-test sources."""
    defs = definitions(index)
    out = Wiring()
    for sf in index.files:
        if not _graph_file(sf):
            continue
        for caps in matches("calls", sf.root):
            if "call.name" in caps and node_text(caps["call.name"][0]) == "StateGraph":
                _builder(sf, caps["call.args"][0], out)
            elif "call.method" in caps:
                _wired(sf, node_text(caps["call.method"][0]), caps["call.args"][0], defs, out)
    return out


def invoked(index: SourceIndex) -> bool:
    """Whether the repository itself runs a compiled graph: ``invoke`` (or ``stream``,
    ``batch``) on a name bound to ``.compile()`` or to a function that compiles one. Without
    such a caller the input comes from outside (a server, a notebook) and may hold any key."""
    defs = definitions(index)
    compilers = {name for name, found in defs.items()
                 if any(".compile(" in sf.text(fn) for sf, fn in found)}
    compiled: set[str] = set()
    runs: list[tuple[SourceFile, Node]] = []
    words = [w.encode() for w in (*_RUN, "compile", *compilers)]
    for sf in index.files:
        # Neither a run nor a compiled graph can be written without naming one of them.
        if is_test_path(sf.path) or not any(w in sf.source for w in words):
            continue
        for node in walk(sf.root):
            if node.type == "assignment" and _compiles(sf, node.child_by_field_name("right"),
                                                       compilers):
                compiled.add(sf.text(node.child_by_field_name("left")).split(".")[-1])
            elif node.type == "call" and sf.text(node.child_by_field_name("function")).split(
                    ".")[-1] in _RUN:
                runs.append((sf, node))
    for sf, call in runs:
        fn = call.child_by_field_name("function")
        obj = fn.child_by_field_name("object") if fn is not None and fn.type == "attribute" \
            else None
        if obj is not None and (_compiles(sf, obj, compilers) or
                                sf.text(obj).split(".")[-1] in compiled):
            return True
    return False


def _compiles(sf: SourceFile, node: Node | None, compilers: set[str]) -> bool:
    """``builder.compile(...)`` or a call of a function that compiles a graph."""
    if node is None or node.type != "call":
        return False
    name = sf.text(node.child_by_field_name("function"))
    return name.endswith(".compile") or name.split(".")[-1] in compilers


def _builder(sf: SourceFile, args: Node, out: Wiring) -> None:
    positional, keywords = call_arguments(args)
    given = [*positional[:1], *(keywords[k] for k in _SCHEMA_KEYWORDS if k in keywords)]
    for node in given:
        if node.type in ("identifier", "attribute", "string"):
            out.schemas.append(sf.text(node).split(".")[-1].strip("\"'"))
        else:
            out.opaque_builders += 1
    if not given:
        out.opaque_builders += 1


def _wired(sf: SourceFile, method: str, args: Node,
           defs: Defs, out: Wiring) -> None:
    """Record the action of an add_node call, the router of add_conditional_edges, and
    the steps of add_sequence."""
    positional, keywords = call_arguments(args)
    if method == "add_node":
        action = positional[1] if len(positional) > 1 else keywords.get("action") or (
            positional[0] if positional and positional[0].type != "string" else None)
        label = _label(sf, positional[0]) if positional else "?"
        if action is not None:
            _resolve(sf, label, action, defs, out, router=False)
        else:
            out.unresolved.append(label)
    elif method == "add_conditional_edges":
        router = positional[1] if len(positional) > 1 else keywords.get("path")
        if router is not None:
            _resolve(sf, _label(sf, positional[0]) if positional else "?", router, defs, out,
                     router=True)
    elif method == "add_sequence" and positional:
        for step in positional[0].named_children:
            action = step.named_children[-1] if step.type == "tuple" and \
                step.named_children else step
            _resolve(sf, _label(sf, step), action, defs, out, router=False)


def _label(sf: SourceFile, node: Node) -> str:
    """How a rationale names a node: its literal name, else its source text."""
    return string_value(sf, node) or sf.text(node)


def _resolve(sf: SourceFile, label: str, action: Node,
             defs: Defs, out: Wiring,
             router: bool) -> None:
    """Resolve one node action or router to its definition, or count it unresolved."""
    out.referenced |= {sf.text(n).split(".")[-1] for n in walk(action)
                       if n.type in ("identifier", "attribute")}
    if action.type == "lambda":
        params = action.child_by_field_name("parameters")
        first = params.named_children[0] if params is not None and params.named_children \
            else None
        name = sf.text(first) if first is not None and first.type == "identifier" else None
        out.functions.append(GraphFunction(label, sf, action, name, "", router))
        return
    found, wrapped = _definition(sf, action, defs)
    if len(found) != 1:
        out.unresolved.append(label)
        return
    where, fn = found[0]
    param, annotation = state_param(where, fn)
    if wrapped and not ("state" in (param or "").lower() or "State" in annotation):
        out.unresolved.append(label)
        return
    out.functions.append(GraphFunction(label, where, fn, param, annotation, router, wrapped))


def _definition(sf: SourceFile, action: Node,
                defs: Defs) -> tuple[list[tuple[SourceFile, Node]], bool]:
    """The definitions a node action may name: a function, an instance of a class with
    ``__call__`` (``Judge()``), or a function handed to a wrapper function of the
    repository (``safe(fn, ...)``) or to ``RunnableLambda``; never to a class or to
    ``partial``, which may bind the first parameter to something else."""
    if action.type in ("identifier", "attribute"):
        return defs.get(sf.text(action).split(".")[-1], []), False
    if action.type != "call":
        return [], False
    name = sf.text(action.child_by_field_name("function")).split(".")[-1]
    if f"{name}()" in defs and name not in defs:
        return defs[f"{name}()"], False
    positional, _ = call_arguments(action.child_by_field_name("arguments"))
    wrapper = name in defs or name == "RunnableLambda"
    if not wrapper or not positional or positional[0].type not in ("identifier", "attribute"):
        return [], False
    return defs.get(sf.text(positional[0]).split(".")[-1], []), True
