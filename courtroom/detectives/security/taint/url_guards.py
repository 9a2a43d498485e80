"""What makes a URL safe to fetch or redirect to: a host the code fixed, or checked.

A URL built after a constant prefix that already names the scheme and host
(``"https://api.example.com/" + x``) or a path of the site itself (``"/users/" + x``)
sends nobody elsewhere, whatever follows. A prefix that stops inside the host does not
fix it (``"https://example.com" + ".evil.net"``), nor does ``"/"`` alone (``"//evil.net"``
is another host). The application's own URL (``url_for``, ``reverse``) fixes the host once
a query or fragment follows it (``url_for("login") + "?next=" + x``): alone it may be
``"/"``. A branch that tests a parsed URL's host or scheme against constants
(``urlparse(u).netloc in ALLOWED``, ``url.hostname == "example.com"``), or the URL's own
prefix (``u.startswith("https://example.com/")``), proves the same of the URL it parsed.
"""

from __future__ import annotations

import re

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint.frame import Frame
from courtroom.detectives.security.taint.values import CLEAN, REDIRECT, SSRF, Val, const, merge

#: Taint kinds a fixed host defends against.
KINDS = frozenset({SSRF, REDIRECT})
#: Flags of text whose host is fixed, and of a URL of the application's own.
HOST, SITE = "host", "site"
_FIXED = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//[^/?#\\@]+[/?#]|^/[^/\\]")
#: Attributes of a parsed URL that name its host.
_PARTS = frozenset({"netloc", "hostname", "host"})
_PARSERS = frozenset({"urlparse", "urlsplit", "urllib.parse.urlparse",
                      "urllib.parse.urlsplit", "parse.urlparse", "parse.urlsplit"})
#: Validators of a redirect target that web frameworks ship.
_VALIDATORS = frozenset({"url_has_allowed_host_and_scheme", "is_safe_url"})

Fact = tuple[str, str, frozenset[str]]


def fixes_host(prefix: object) -> bool:
    """Whether text that starts with ``prefix`` goes to a host the prefix names."""
    return isinstance(prefix, str) and _FIXED.match(prefix) is not None


def after(prefix: Val, built: Val, rest: Val = CLEAN) -> Val:
    """A string ``built`` from ``prefix`` (then ``rest``, then more): no longer a URL the
    attacker directs when the prefix fixes its host."""
    fixed = HOST in prefix.flags or (prefix.known() and fixes_host(prefix.const)) or (
        SITE in prefix.flags and rest.known() and str(rest.const)[:1] in ("?", "#"))
    if not fixed:
        return built
    return Val(kinds=built.kinds - KINDS, flags=built.flags | {HOST}, steps=built.steps)


def own(url: Val) -> Val:
    """A URL of the application's own."""
    return Val(kinds=url.kinds - KINDS, flags=url.flags | {SITE}, steps=url.steps)


def formatted(frame: Frame, node: Node, parts: list[Val]) -> Val:
    """An f-string of ``parts``: its host fixed by its literal start or its first value."""
    built = merge(parts)
    pieces = [c for c in node.named_children if c.type in ("string_content", "interpolation")]
    if not pieces:
        return built
    if pieces[0].type == "string_content":
        return after(const(frame.sf.text(pieces[0])), built)
    rest = const(frame.sf.text(pieces[1])) if len(pieces) > 1 and \
        pieces[1].type == "string_content" else CLEAN
    return after(parts[0], built, rest) if parts else built


def _parsed(frame: Frame, node: Node | None) -> list[str]:
    """The variables a parsed-URL expression stands for: ``urlparse(u).netloc`` gives u,
    and ``p.netloc`` gives p and the u of ``p = urlparse(u)`` above it, if u was not
    assigned again in between."""
    if node is None or node.type != "attribute":
        return []
    if frame.sf.text(node.child_by_field_name("attribute")) not in _PARTS:
        return []
    obj = node.child_by_field_name("object")
    if obj is not None and obj.type == "call":
        return _parse_argument(frame, obj)
    if obj is None or obj.type != "identifier":
        return []
    name = frame.sf.text(obj)
    return [name, *_source_of(frame, name, node)]


def _parse_argument(frame: Frame, call: Node) -> list[str]:
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if fn is None or frame.sf.text(fn) not in _PARSERS or first is None or \
            first.type != "identifier":
        return []
    return [frame.sf.text(first)]


def _source_of(frame: Frame, name: str, use: Node) -> list[str]:
    """The URL variable ``name`` was parsed from, by its last assignment before ``use``."""
    scope = use
    while scope.parent is not None and scope.type != "function_definition":
        scope = scope.parent
    assignments = [n for n in _assignments(scope) if n.end_byte <= use.start_byte]
    for node in reversed(assignments):
        if frame.sf.text(node.child_by_field_name("left")) != name:
            continue
        right = node.child_by_field_name("right")
        found = _parse_argument(frame, right) if right is not None and \
            right.type == "call" else []
        later = [n for n in assignments if n.start_byte > node.end_byte and
                 frame.sf.text(n.child_by_field_name("left")) in found]
        return [] if later else found
    return []


def _assignments(scope: Node) -> list[Node]:
    out: list[Node] = []
    stack = [scope]
    while stack:
        node = stack.pop()
        if node.type == "assignment":
            out.append(node)
        stack.extend(c for c in node.named_children
                     if c.type not in ("function_definition", "class_definition"))
    return sorted(out, key=lambda n: n.start_byte)


def facts(frame: Frame, node: Node, truth: bool) -> list[Fact]:
    """What a condition proves about where a URL goes, when it is ``truth``."""
    if node.type == "comparison_operator" and len(node.named_children) == 2:
        left, right = node.named_children
        ops = " ".join(frame.sf.text(c) for c in node.children if not c.is_named)
        ops = " ".join(ops.split())
        proven = (ops in ("in", "==") and truth) or (ops in ("not in", "!=") and not truth)
        names = _parsed(frame, left) if proven else []
        allowed = frame.eval(right) if names else CLEAN
        if allowed.known() or (allowed.seq is not None and all(v.known() for v in allowed.seq)):
            return [(name, "host", KINDS) for name in names]
        return []
    if node.type != "call" or not truth:
        return []
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if fn is None or first is None:
        return []
    if fn.type == "attribute" and frame.sf.text(fn.child_by_field_name("attribute")) == \
            "startswith":
        obj = fn.child_by_field_name("object")
        if obj is not None and obj.type == "identifier" and fixes_host(frame.eval(first).const):
            return [(frame.sf.text(obj), "host", KINDS)]
        return []
    name = frame.sf.text(fn).rsplit(".", 1)[-1]
    if name in _VALIDATORS and first.type == "identifier":
        return [(frame.sf.text(first), "host", KINDS)]
    return []
