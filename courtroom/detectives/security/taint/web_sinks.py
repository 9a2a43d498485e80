"""The web's own sinks, read from :mod:`web_library`'s tables: SSRF, XXE, template
injection, open redirects, NoSQL queries and the response bodies of every framework.

``call`` is asked first about every library call; it answers None for a call it does not
model, which the generic library code then handles.
"""

from __future__ import annotations

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import (
    library,
    pins,
    templates,
    url_guards,
    web_library,
)
from courtroom.detectives.security.taint.frame import Args, Frame
from courtroom.detectives.security.taint.program import ClassRef
from courtroom.detectives.security.taint.values import CLEAN, SQL, XSS, Val, merge

#: Flag of a parser that resolves external entities, or a template that does not escape.
ENTITIES, RAW = "entities", "raw"
_MONGO = "pymongo.MongoClient."
#: Library methods inherited by a repository class that the engine names by their type.
INHERITED = frozenset({*web_library.REDIRECTS, *web_library.RESPONSES})


def call(frame: Frame, node: Node, name: str, args: Args) -> Val | None:
    """The value of a modelled library call (its sinks recorded), else None."""
    positional, keywords = args
    for table in (web_library.FETCHES, web_library.REDIRECTS, web_library.TEMPLATES):
        sink = table.get(name)
        if sink is not None:
            frame.engine.sink(frame, node, sink, sink.argument(positional, keywords), name)
    if name in web_library.RESPONSES:
        _response(frame, node, name, args)
    cleared = web_library.CLEARS.get(name)
    if cleared is not None:
        out = merge([*positional, *keywords.values()]).clean(cleared)
        return url_guards.own(out) if name in web_library.OWN_URLS else out
    if name in web_library.XML_PARSES:
        _parse_xml(frame, node, name, args)
        return None
    if name.startswith(_MONGO):
        return _mongo(frame, node, name, args)
    rendered = templates.call(frame, node, name, args)
    if rendered is not None:
        return rendered
    _query(frame, node, name, args)
    return _objects(frame, node, name, args)


def _query(frame: Frame, node: Node, name: str, args: Args) -> None:
    """A query method of an imported object (``User.objects.raw(q)``): SQL as on any other
    object; a module's own function of that name (``re.search``) is no query."""
    short = name.rsplit(".", 1)[-1]
    sink = library.METHOD_SINKS.get(short)
    if sink is not None and sink.kind == SQL and name.count(".") >= 2:
        frame.engine.sink(frame, node, sink, sink.argument(*args), name)


def receiver(frame: Frame, node: Node) -> Val:
    """The object a method call is made on (evaluated again: asked only of the few calls
    whose result depends on how their object was built)."""
    fn = node.child_by_field_name("function")
    obj = fn.child_by_field_name("object") if fn is not None and fn.type == "attribute" \
        else None
    return frame.eval(obj)


def _objects(frame: Frame, node: Node, name: str, args: Args) -> Val | None:
    """Library objects followed by type: clients, parsers, template environments."""
    positional, keywords = args
    kind = web_library.OBJECTS.get(name)
    if kind == "lxml.etree.XMLParser":
        asked = keywords.get("resolve_entities")
        resolves = old_lxml(frame) if asked is None else asked.known() and asked.const is True
        return Val(ref=kind, flags=frozenset({ENTITIES}) if resolves else frozenset())
    if name in ("jinja2.Environment", "jinja2.Template"):
        # Jinja escapes nothing unless told to (``select_autoescape`` is taken as told).
        escape = keywords.get("autoescape", CLEAN if "autoescape" in keywords else Val(
            const=False))
        raw = escape.known() and not escape.const
        return Val(ref=kind, flags=frozenset({RAW}) if raw else frozenset())
    if kind is not None:
        # A template from an environment not followed escapes as Jinja does by default.
        env = receiver(frame, node)
        raw = name.startswith("jinja2.E") and (env.ref is None or RAW in env.flags)
        return Val(ref=kind, flags=frozenset({RAW}) if raw else frozenset())
    if name == "xml.sax.XMLReader.setFeature" and len(positional) == 2:
        feature, on = positional
        if (feature.ref or feature.const) in web_library.EXTERNAL_FEATURES and on.known():
            fn = node.child_by_field_name("function")
            obj = fn.child_by_field_name("object") if fn is not None else None
            frame.bind(obj, Val(ref="xml.sax.XMLReader",
                                flags=frozenset({ENTITIES}) if on.const else frozenset()))
        return CLEAN
    if name == "xml.sax.XMLReader.parse" and ENTITIES in receiver(frame, node).flags:
        doc = positional[0] if positional else keywords.get("source", CLEAN)
        frame.engine.sink(frame, node, web_library.XXE_SINK, doc, name)
    if name in ("jinja2.Template.render", "jinja2.Template.render_async"):
        out = merge([*positional, *keywords.values()])
        return out if RAW in receiver(frame, node).flags else out.clean(frozenset({XSS}))
    return None


def _response(frame: Frame, node: Node, name: str, args: Args) -> None:
    """A response constructor: its body is an XSS sink when it is sent as HTML."""
    positional, keywords = args
    spec = web_library.RESPONSES[name]
    body = keywords.get(spec.keyword, CLEAN)
    if spec.arg is not None and len(positional) > spec.arg:
        body = positional[spec.arg]
    if spec.keyword == "text" and "body" in keywords:
        body = merge([body, keywords["body"]])
    html = spec.html
    if spec.content_type is not None and spec.content_type in keywords:
        kind = keywords[spec.content_type]
        # An unknown content type may be HTML: only a known other type (a constant string
        # or a named one, ``MediaType.JSON``) clears the body.
        named = str(kind.const) if kind.known() else kind.ref
        html = named is None or "html" in named.lower()
    if html and body.items is None:  # a dict is sent as JSON
        frame.engine.sink(frame, node, web_library.XSS_SINK, body, name)


def _parse_xml(frame: Frame, node: Node, name: str, args: Args) -> None:
    positional, keywords = args
    index, keyword = web_library.XML_PARSES[name]
    parser = keywords.get(keyword, positional[index] if len(positional) > index else CLEAN)
    default = parser.ref is None and name.startswith("lxml.") and old_lxml(frame)
    if (ENTITIES in parser.flags or default) and positional:
        frame.engine.sink(frame, node, web_library.XXE_SINK, positional[0], name)


def old_lxml(frame: Frame) -> bool:
    """Whether the repository pins an lxml whose parsers resolve external entities unless
    told not to (before 5.0; since, only internal ones)."""
    return pins.below(frame.engine.texts, "lxml", 5)


def _mongo(frame: Frame, node: Node, name: str, args: Args) -> Val:
    """A MongoDB call: a query filter from the request, or attacker JavaScript in it."""
    positional, keywords = args
    if name.rsplit(".", 1)[-1] not in web_library.QUERIES:
        return Val(ref=name)  # a database or collection: followed by name
    query = positional[0] if positional else keywords.get("filter", CLEAN)
    if query.items is None:
        frame.engine.sink(frame, node, web_library.NOSQL_SINK, query, name)
    else:
        fields = dict(query.items)
        for operator in web_library.JS_OPERATORS:
            if operator in fields:
                frame.engine.sink(frame, node, web_library.NOSQL_SINK, fields[operator], name)
    return CLEAN  # documents from the database are not the request's data


def inherited(frame: Frame, cls: ClassRef, attr: str, depth: int = 0) -> Val | None:
    """A modelled library method a repository class inherits (``self.write`` of a Tornado
    handler), named by the library class it comes from."""
    env = frame.engine.module_env(cls.sf)
    for base in cls.bases:
        head, _, rest = base.partition(".")
        found = env.get(head, CLEAN)
        local = frame.engine.program.resolve(f"{cls.module}.{base}")
        parent = found.inst if isinstance(found.inst, ClassRef) else local
        if isinstance(parent, ClassRef):  # a repository base class: what it inherits
            method = inherited(frame, parent, attr, depth + 1) if depth < 4 else None
            if method is not None:
                return method
            continue
        full = base if found.ref is None else f"{found.ref}.{rest}" if rest else found.ref
        if f"{full}.{attr}" in INHERITED:
            return Val(ref=f"{full}.{attr}")
    return None
