"""Which function parameters only ever receive constants from inside the repository.

Treating every parameter as external input made small internal helpers (a ``query(name)``
that reads a packaged file) look like confirmed path traversal, and the security cap then
punished a flaw that is not there. A parameter is *constant-fed* when the function has call
sites and each passes, in that position, a literal, a name bound only to literals, or a
parameter that is itself constant-fed. A function with no caller (a tool, an API, an entry
point) or a decorated one is never constant-fed: it stays reachable from outside.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from courtroom.detectives.parsing import Node, SourceIndex, call_arguments, enclosing, walk

_LITERALS = ("string", "concatenated_string", "integer", "float", "true", "false", "none")
_BINDINGS = ("assignment", "for_statement", "for_in_clause")
Param = tuple[str, str]  # (function name, parameter name)


@dataclass
class CallSites:
    """The (function, parameter) pairs fed only constants by in-repository callers."""

    constant_fed: set[Param] = field(default_factory=set)

    def constant_fed_param(self, function: str, param: str) -> bool:
        """True when every in-repository call passes ``param`` of ``function`` a constant."""
        return (function, param) in self.constant_fed


def _text(node: Node | None) -> str | None:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else None


def param_names(func: Node) -> list[str]:
    """Parameter names of a function definition, in order."""
    params = func.child_by_field_name("parameters")
    names: list[str] = []
    for p in params.named_children if params is not None else []:
        target = p if p.type == "identifier" else p.child_by_field_name("name")
        if target is None:
            target = next((c for c in p.named_children if c.type == "identifier"), None)
        if (text := _text(target)) is not None:
            names.append(text)
    return names


def _is_literal(node: Node) -> bool:
    if node.type in ("tuple", "list", "set"):
        return all(_is_literal(c) for c in node.named_children)
    return node.type in _LITERALS and not any(s.type == "interpolation" for s in walk(node))


def _bound_to_literals(name: str, func: Node | None) -> bool:
    """Whether every binding of ``name`` in ``func`` assigns it a literal (or loops over some)."""
    if func is None:
        return False
    bindings = 0
    for node in walk(func):
        if node.type not in _BINDINGS:
            continue
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or name not in {_text(n) for n in walk(left)}:
            continue
        bindings += 1
        if not _is_literal(right):
            return False
    return bindings > 0


def _feed(arg: Node, func: Node | None) -> Param | bool | None:
    """True for a constant, the (function, parameter) it forwards, or None for anything else."""
    if _is_literal(arg):
        return True
    if arg.type == "identifier" and func is not None:
        name = _text(arg) or ""
        if name in param_names(func):
            return (_text(func.child_by_field_name("name")) or "", name)
        if _bound_to_literals(name, func):
            return True
    return None


def imported(root: Node) -> set[str]:
    """Names a module binds by import (module aliases and imported objects)."""
    names: set[str] = set()
    for node in root.named_children:
        if node.type not in ("import_statement", "import_from_statement"):
            continue
        for child in node.named_children:
            if child.type == "aliased_import":
                names.add(_text(child.child_by_field_name("alias")) or "")
            elif child.type == "dotted_name" and child != node.child_by_field_name("module_name"):
                names.add((_text(child) or "").split(".")[0])
    return names


#: Decorators that wrap a function without exposing it to outside callers.
_BENIGN = {"lru_cache", "cache", "cached_property", "staticmethod", "classmethod", "property",
           "wraps", "overload", "override", "abstractmethod", "contextmanager", "setter"}


def exposed_by_decorator(func: Node) -> bool:
    """Whether a decorator may register the function as an entry point (tool, route, node)."""
    parent = func.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    for deco in parent.named_children:
        if deco.type != "decorator":
            continue
        name = (_text(deco) or "").lstrip("@").split("(")[0].split(".")[-1].strip()
        if name not in _BENIGN:
            return True
    return False


def _definitions(index: SourceIndex) -> dict[str, list[tuple[bool, bool, list[str]]]]:
    """name -> (is_method, is_decorated, parameters) of every def with that name."""
    defs: dict[str, list[tuple[bool, bool, list[str]]]] = defaultdict(list)
    for sf in index.files:
        for node in walk(sf.root):
            name = _text(node.child_by_field_name("name"))
            if node.type == "function_definition" and name:
                method = enclosing(node, ("class_definition", "function_definition")) is not None
                decorated = exposed_by_decorator(node)
                defs[name].append((method, decorated, param_names(node)))
    return defs


def call_sites(index: SourceIndex) -> CallSites:
    """Compute the constant-fed parameters of the repository's functions."""
    defs = _definitions(index)
    feeds: dict[Param, list[Param | bool | None]] = defaultdict(list)
    for sf in index.files:
        modules = imported(sf.root)
        for call in walk(sf.root):
            if call.type != "call":
                continue
            target = call.child_by_field_name("function")
            receiver: str | None = None
            if target is not None and target.type == "attribute":
                receiver = _text(target.child_by_field_name("object"))
                target = target.child_by_field_name("attribute")
            name = _text(target)
            if name is None or name not in defs:
                continue
            # `obj.f()` cannot reach a plain module-level `f` unless obj is a module we
            # imported: such sites belong to some other object's method.
            if (
                receiver is not None
                and receiver not in ("self", "cls")
                and receiver.split(".")[0] not in modules
                and not any(method for method, _, _ in defs[name])
            ):
                continue
            func = enclosing(call, ("function_definition",))
            positional, keywords = call_arguments(call.child_by_field_name("arguments"))
            for method, _decorated, params in defs[name]:
                offset = 1 if method and params[:1] in (["self"], ["cls"]) else 0
                for i, arg in enumerate(positional):
                    if i + offset < len(params):
                        feeds[(name, params[i + offset])].append(_feed(arg, func))
                for key, arg in keywords.items():
                    feeds[(name, key)].append(_feed(arg, func))
    reachable = {name for name, ds in defs.items() if any(d for _, d, _ in ds)}
    fed = {p for p, sources in feeds.items() if p[0] not in reachable and None not in sources}
    changed = True
    while changed:  # greatest fixed point: forwarded parameters must be constant-fed too
        changed = False
        for param in sorted(fed):
            if any(isinstance(s, tuple) and s not in fed for s in feeds[param]):
                fed.discard(param)
                changed = True
    return CallSites(fed)
