"""Expressions: constants folded where known, taint carried through everything else."""

from __future__ import annotations

import operator

from courtroom.detectives.nodes import string_value
from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import library, operators, url_guards, web_sinks
from courtroom.detectives.security.taint.frame import Frame
from courtroom.detectives.security.taint.operators import fold
from courtroom.detectives.security.taint.program import (
    Bound,
    ClassRef,
    FuncRef,
    Instance,
    ModuleInfo,
)
from courtroom.detectives.security.taint.values import (
    ALL,
    CLEAN,
    UNKNOWN,
    Val,
    const,
    element,
    merge,
    tainted,
)

_LITERAL_TYPES = {"integer", "float", "true", "false", "none"}
#: The keyword constants, built once: a value is immutable, so one serves every use.
_KEYWORDS = {"true": const(True), "false": const(False), "none": const(None)}


def _literal(frame: Frame, node: Node) -> Val:
    keyword = _KEYWORDS.get(node.type)
    if keyword is not None:
        return keyword
    text = frame.sf.text(node)
    try:
        if node.type == "integer":
            return const(int(text.replace("_", ""), 0))
        return const(float(text.replace("_", "")))
    except ValueError:
        return CLEAN


def _string(frame: Frame, node: Node) -> Val:
    value = string_value(frame.sf, node)
    if value is not None:
        return const(value)
    parts = [frame.eval(c.named_children[0]) for c in node.named_children
             if c.type == "interpolation" and c.named_children]
    if node.type == "concatenated_string":
        parts = [frame.eval(c) for c in node.named_children]
    if all(p.known() for p in parts) and node.type == "string":
        pieces: list[str] = []
        for child in node.named_children:
            if child.type == "string_content":
                pieces.append(frame.sf.text(child))
            elif child.type == "interpolation" and child.named_children:
                pieces.append(str(frame.eval(child.named_children[0]).const))
        return const("".join(pieces))
    return url_guards.formatted(frame, node, parts) if node.type == "string" else merge(parts)


def _container(frame: Frame, node: Node) -> Val:
    if node.type == "dictionary":
        items: list[tuple[object, Val]] = []
        values: list[Val] = []
        for pair in node.named_children:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            v = frame.eval(value if pair.type == "pair" else pair)
            values.append(v)
            k = frame.eval(key) if key is not None else CLEAN
            if k.known() and _hashable(k.const):
                items.append((k.const, v))
            else:
                values.append(k)
        out = merge(values)
        return Val(kinds=out.kinds, items=tuple(items), steps=out.steps)
    elems: list[Val] = []
    exact = True  # False once a splat of unknown length makes positions unknown
    for child in node.named_children:
        if child.type in ("list_splat", "dictionary_splat"):
            spliced = frame.eval(child.named_children[0])
            if spliced.seq is not None:
                elems.extend(spliced.seq)
            else:
                elems.append(element(spliced))
                exact = False
        elif child.type != "comment":
            elems.append(frame.eval(child))
    out = merge(elems)
    folded: object = UNKNOWN
    if node.type == "tuple" and exact and all(e.known() for e in elems):
        folded = tuple(e.const for e in elems)
    return Val(kinds=out.kinds, const=folded, seq=tuple(elems) if exact else None,
               steps=out.steps, flags=frozenset({"list"}))


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def subscript(base: Val, index: Val) -> Val:
    """``base[index]`` with constant keys and indices followed exactly."""
    if index.known():
        key = index.const
        if base.items is not None and _hashable(key):
            return dict(base.items).get(key, CLEAN)
        if base.seq is not None and isinstance(key, int) and -len(base.seq) <= key < len(base.seq):
            return base.seq[key]
        if base.seq is not None and isinstance(key, slice):
            return Val(seq=base.seq[key], kinds=merge(base.seq[key]).kinds, flags=base.flags)
        if base.known():
            return fold(operator.getitem, base, index)
    out = element(base)
    return out if base.items is not None or base.seq is not None else merge([base])


def _slice(frame: Frame, node: Node) -> Val:
    bounds: list[object] = []
    current: object = None
    for child in node.children:
        if child.type == ":":
            bounds.append(current)
            current = None
        elif child.is_named and child.type != "comment":
            value = frame.eval(child)
            if not value.known():
                return CLEAN
            current = value.const
    bounds.append(current)
    try:
        return Val(const=slice(*bounds[:3]))
    except (TypeError, ValueError):
        return CLEAN


def attribute(frame: Frame, node: Node) -> Val:
    """``obj.attr``: a repository definition, an instance attribute, or carried taint."""
    obj, name = node.child_by_field_name("object"), node.child_by_field_name("attribute")
    return attribute_value(frame, node, frame.eval(obj), frame.sf.text(name))


def attribute_value(frame: Frame, node: Node, base: Val, attr: str) -> Val:
    """The attribute ``attr`` of the value ``base`` (read at ``node``)."""
    if isinstance(base.inst, Instance):
        if attr in base.inst.attrs:
            return base.inst.attrs[attr]
        method = frame.engine.program.method(base.inst.cls, attr)
        if method is not None:
            return Val(inst=Bound(method, base.inst))
        written = frame.engine.shared.of_class(base.inst.cls)
        if attr in written:
            return written[attr]
        return web_sinks.inherited(frame, base.inst.cls, attr) or merge([base])
    if isinstance(base.inst, ClassRef):
        return _class_member(frame, base.inst, attr)
    if "request" in base.flags:
        if attr == "path" and frame.route_path is not None:
            return const(frame.route_path)  # a route without variable parts matches one path
        if attr not in library.REQUEST_DATA:
            return CLEAN  # the server's: the method, the authenticated user, the session
        return tainted(ALL, frame.at(node, f"reads request data ({frame.text(node)})"))
    if base.ref is not None:
        return frame.engine.qualified(f"{base.ref}.{attr}", frame.at(node, frame.text(node)))
    if isinstance(base.inst, ModuleInfo | FuncRef):
        return CLEAN
    return merge([base])


def _class_member(frame: Frame, cls: ClassRef, attr: str) -> Val:
    """``Cls.attr``: an attribute written on the class, or a method called through it (a
    class method receives the class first, a static method only what it is passed)."""
    written = frame.engine.shared.of_class(cls)
    if attr in written:
        return written[attr]
    method = frame.engine.program.method(cls, attr)
    if method is None:
        return CLEAN
    wrapper = method.node.parent
    decorators = [method.sf.text(d) for d in wrapper.named_children if d.type == "decorator"] \
        if wrapper is not None and wrapper.type == "decorated_definition" else []
    return Val(inst=Bound(method, Instance(cls)) if "@classmethod" in decorators else method)


def evaluate(frame: Frame, node: Node) -> Val:
    """The abstract value of ``node``."""
    kind = node.type
    # (The most frequent kinds first: half of all expressions are names.)
    if kind == "identifier":
        return frame.lookup(frame.sf.text(node))
    if kind == "call":
        return frame.call(node)
    if kind == "attribute":
        return attribute(frame, node)
    if kind in ("string", "concatenated_string"):
        return _string(frame, node)
    if kind in _LITERAL_TYPES:
        return _literal(frame, node)
    if kind == "lambda":
        return Val(inst=FuncRef(frame.sf, node.start_byte,
                                frame.engine.program.module_of(frame.sf), "lambda"))
    if kind == "subscript":
        value, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
        idx = _slice(frame, index) if index is not None and index.type == "slice" \
            else frame.eval(index)
        return subscript(frame.eval(value), idx)
    if kind in ("list", "tuple", "set", "dictionary", "expression_list"):
        return _container(frame, node)
    return operators.evaluate(frame, node)
