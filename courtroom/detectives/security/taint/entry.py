"""Entry points: the functions whose parameters come from outside the program.

A web handler receives request data from anyone and its return value is the response body;
how each framework marks its handlers and where its request data sits is data
(:mod:`spec`, one file per framework). A function registered as a tool, graph node or
command receives data chosen by a model or by the user running the program, which must not
reach a shell or ``eval`` but may name the user's own files (so it is no path traversal).
Everything else receives only what its callers pass it, which the engine follows.

Decorators that only wrap a function (``@login_required``, ``@csrf_exempt``) change
nothing: the same function is a handler or not as if undecorated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from courtroom.detectives.nodes import string_value
from courtroom.detectives.parsing import Node, SourceFile
from courtroom.detectives.security.taint import library
from courtroom.detectives.security.taint.handlers import Registry
from courtroom.detectives.security.taint.spec import FRAMEWORKS, Framework, matches
from courtroom.detectives.security.taint.values import ALL, CLEAN, LOCAL, Step, Val, tainted

_EMPTY: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Entry:
    """Why a function is an entry point and which sink kinds its parameters attack."""

    what: str
    web: bool
    kinds: frozenset[str]
    #: The route's literal path when it has no variable part: ``request.path`` is then known.
    path: str | None = None
    #: Whether what the handler returns is sent as HTML (FastAPI sends it as JSON).
    html: bool = True
    #: Parameters holding the request object, and those the server supplies.
    requests: frozenset[str] = _EMPTY
    trusted: frozenset[str] = _EMPTY
    #: Attributes of ``self`` holding the request, and those that are request data.
    self_request: frozenset[str] = _EMPTY
    self_data: frozenset[str] = _EMPTY

    def parameter(self, name: str, at: Step) -> Val:
        """The value a handler's parameter starts with."""
        if name in self.trusted:
            return CLEAN
        flags = frozenset({"request"}) if name in self.requests else _EMPTY
        return tainted(self.kinds, at, flags)

    def self_attrs(self, at: Step) -> dict[str, Val]:
        """What a handler method finds on ``self`` before its body runs."""
        out = {a: tainted(self.kinds, at) for a in self.self_data}
        out.update({a: tainted(self.kinds, at, frozenset({"request"}))
                    for a in self.self_request})
        return out


def _decorators(sf: SourceFile, func: Node) -> list[tuple[str, str | None]]:
    """(dotted name, literal first argument) of each decorator of a function."""
    parent = func.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    out: list[tuple[str, str | None]] = []
    for deco in parent.named_children:
        if deco.type != "decorator":
            continue
        name = sf.text(deco).lstrip("@").split("(")[0].strip()
        expr = deco.named_children[0] if deco.named_children else None
        args = expr.child_by_field_name("arguments") if expr is not None and \
            expr.type == "call" else None
        first = args.named_children[0] if args is not None and args.named_children else None
        out.append((name, string_value(sf, first)))
    return out


def called_names(sf: SourceFile, calls: list[Node]) -> set[str]:
    """The last name segment of every call (``a.b.run()`` gives ``run``), and of every name
    a call is handed (``partial(run)``, ``map(self.run, xs)``: the repository calls it)."""
    out: set[str] = set()
    for node in calls:
        fn = node.child_by_field_name("function")
        if fn is not None:
            out.add(sf.text(fn).rsplit(".", 1)[-1].strip())
        args = node.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else []:
            value = arg.child_by_field_name("value") if arg.type == "keyword_argument" else arg
            if value is not None and value.type in ("identifier", "attribute"):
                out.add(sf.text(value).rsplit(".", 1)[-1].strip())
    return out


@dataclass(frozen=True)
class _Param:
    name: str
    default: Node | None
    #: The last name of the annotation (``web.Request`` gives ``Request``), if any.
    annotation: str | None


def _params(sf: SourceFile, func: Node) -> list[_Param]:
    """Each named parameter, with its default and annotation."""
    params = func.child_by_field_name("parameters")
    out: list[_Param] = []
    for p in params.named_children if params is not None else []:
        name = p if p.type == "identifier" else p.child_by_field_name("name")
        if name is None and p.named_children and p.named_children[0].type == "identifier":
            name = p.named_children[0]
        kind = p.child_by_field_name("type")
        if name is not None:
            out.append(_Param(sf.text(name), p.child_by_field_name("value"),
                              sf.text(kind).rsplit(".", 1)[-1] if kind is not None else None))
    return out


def _trusted(sf: SourceFile, params: list[_Param],
             frameworks: Sequence[Framework]) -> frozenset[str]:
    """Parameters the server supplies: by name, or by a default such as ``Depends(db)``."""
    names = {t for f in frameworks for t in f.handlers.trusted}
    calls = {t for f in frameworks for t in f.handlers.trusted_defaults}
    out = set()
    for p in params:
        called = p.default.child_by_field_name("function") \
            if p.default is not None and p.default.type == "call" else None
        if p.name in names or (called is not None and
                               sf.text(called).rsplit(".", 1)[-1] in calls):
            out.add(p.name)
    return frozenset(out)


def _requests(params: list[_Param], frameworks: Sequence[Framework]) -> frozenset[str]:
    """Parameters holding the request object: by name, or by annotation (``req: Request``)."""
    names = {n for f in frameworks for n in f.request.parameters}
    types = {t for f in frameworks for t in f.request.types}
    return frozenset(p.name for p in params if p.name in names or p.annotation in types)


def _web(sf: SourceFile, func: Node, what: str, frameworks: Sequence[Framework],
         path: str | None = None) -> Entry:
    """A web handler's entry, as the frameworks that recognise it describe their requests."""
    imported = [f for f in frameworks if f.imported_by(sf.source)]
    params = _params(sf, func)
    return Entry(what, True, ALL, path, html=all(f.html for f in imported),
                 requests=_requests(params, frameworks),
                 trusted=_trusted(sf, params, frameworks),
                 self_request=frozenset(a for f in frameworks for a in f.request.self_request),
                 self_data=frozenset(a for f in frameworks for a in f.request.self_data))


def _routed(sf: SourceFile, func: Node, decorators: list[tuple[str, str | None]],
            applying: list[Framework]) -> Entry | None:
    for name, path in decorators:
        found = [f for f in applying if any(matches(p, name) for p in f.handlers.decorators)]
        if found:
            fixed = path if path is not None and "<" not in path and "{" not in path else None
            return _web(sf, func, f"web route @{name}", found, fixed)
    return None


def _owner(func: Node) -> Node | None:
    parent = func.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    cls = parent.parent if parent is not None and parent.type == "block" else None
    return cls if cls is not None and cls.type == "class_definition" else None


def _handler(sf: SourceFile, func: Node, registry: Registry,
             applying: list[Framework]) -> Entry | None:
    """A web handler recognised by a decorator, a registration, its class or its signature."""
    name = sf.text(func.child_by_field_name("name"))
    routed = _routed(sf, func, _decorators(sf, func), applying)
    if routed is not None:
        return routed
    web = [f for r in registry.registered(sf, name) for f in r.frameworks]
    if web:
        return _web(sf, func, f"a handler registered with {web[0].name}", web)
    cls = _owner(func)
    by_class = registry.handler_of(sf, cls, name) if cls is not None else []
    if by_class:
        return _web(sf, func, f"a {by_class[0].name} handler method", by_class)
    params = _params(sf, func)
    first = params[:1] if cls is None else []
    views = [f for f in applying if f.handlers.views and f.imported_by(sf.source)
             and _requests(first, [f])]
    return _web(sf, func, "a web view", views) if views else None


def entry_points(sf: SourceFile, functions: list[Node], registry: Registry) -> dict[int, Entry]:
    """Start byte -> entry description, for every entry-point function of a file."""
    applying = [f for f in FRAMEWORKS if f.applies(sf.source)]
    out: dict[int, Entry] = {}
    for node in functions:
        entry = _handler(sf, node, registry, applying)
        name = sf.text(node.child_by_field_name("name"))
        exposing = [d for d, _ in _decorators(sf, node)
                    if d.rsplit(".", 1)[-1] not in library.BENIGN]
        if entry is None and registry.registered(sf, name):
            entry = Entry("a registered handler", False, LOCAL)
        elif entry is None and exposing:
            entry = Entry(f"a function exposed by @{exposing[0]}", False, LOCAL)
        if entry is not None:
            out[node.start_byte] = entry
    return out
