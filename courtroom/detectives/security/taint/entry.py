"""Entry points: the functions whose parameters come from outside the program.

A web route (``@app.route``, ``@router.get``...) receives request data from anyone and its
return value is the response body; a function registered as a tool, graph node or command
receives data chosen by a model or by the user running the program, which must not reach
a shell or ``eval`` but may name the user's own files (so it is no path traversal).
Everything else receives only what its callers pass it, which the engine follows.
"""

from __future__ import annotations

from dataclasses import dataclass

from courtroom.detectives.parsing import Node, SourceFile, string_value
from courtroom.detectives.security.taint import library
from courtroom.detectives.security.taint.values import ALL, LOCAL


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


def _registered(sf: SourceFile, calls: list[Node]) -> dict[str, bool]:
    """Names of functions handed to a registrar (``add_node("x", fn)``), web or not."""
    out: dict[str, bool] = {}
    for node in calls:
        fn = node.child_by_field_name("function")
        name = sf.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
        if name not in library.REGISTRARS:
            continue
        args = node.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else []:
            value = arg.child_by_field_name("value") if arg.type == "keyword_argument" else arg
            if value is not None and value.type == "identifier":
                out[sf.text(value)] = name in ("add_url_rule", "add_api_route", "add_route")
    return out


def called_names(sf: SourceFile, calls: list[Node]) -> set[str]:
    """The last name segment of every call (``a.b.run()`` gives ``run``)."""
    out: set[str] = set()
    for node in calls:
        fn = node.child_by_field_name("function")
        if fn is not None:
            out.add(sf.text(fn).rsplit(".", 1)[-1].strip())
    return out


def _imports_web_framework(sf: SourceFile) -> bool:
    head = sf.source[:20000]
    return any(f in head for f in (b"django", b"starlette", b"fastapi"))


def entry_points(sf: SourceFile, functions: list[Node], calls: list[Node]) -> dict[int, Entry]:
    """Node id -> entry description, for every entry-point function of a file."""
    registered = _registered(sf, calls)
    web_module = _imports_web_framework(sf)
    out: dict[int, Entry] = {}
    for node in functions:
        name = sf.text(node.child_by_field_name("name"))
        decorators = _decorators(sf, node)
        routes = [(d, p) for d, p in decorators
                  if d.rsplit(".", 1)[-1] in library.ROUTES and "." in d]
        exposing = [d for d, _ in decorators if d.rsplit(".", 1)[-1] not in library.BENIGN]
        params = node.child_by_field_name("parameters")
        first = params.named_children[0] if params is not None and params.named_children \
            else None
        if routes:
            path = routes[0][1]
            fixed = path if path is not None and "<" not in path and "{" not in path else None
            out[node.id] = Entry(f"web route @{routes[0][0]}", True, ALL, fixed,
                                 html=b"fastapi" not in sf.source[:20000])
        elif name in registered:
            web = registered[name]
            out[node.id] = Entry("a registered handler", web, ALL if web else LOCAL)
        elif exposing:
            out[node.id] = Entry(f"a function exposed by @{exposing[0]}", False, LOCAL)
        elif web_module and first is not None and sf.text(first).split(":")[0] == "request":
            out[node.id] = Entry("a web view", True, ALL)
    return out
