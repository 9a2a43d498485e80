"""Expressions: constants folded where known, taint carried through everything else."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from courtroom.detectives.parsing import Node, string_value
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
    join,
    merge,
    tainted,
)

if TYPE_CHECKING:
    from courtroom.detectives.security.taint.frame import Frame

BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "&": operator.and_, "|": operator.or_,
    "^": operator.xor,
}
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
    "<=": operator.le, ">=": operator.ge, "in": lambda a, b: operator.contains(b, a),
    "not in": lambda a, b: not operator.contains(b, a),
    "is": operator.is_, "is not": operator.is_not,
}
#: A format width large enough to build a huge string from a tiny literal.
_WIDE = re.compile(r"%[-+ #0]*\d{4,}")
_LITERAL_TYPES = {"integer", "float", "true", "false", "none"}


def fold(fn: Callable[[Any, Any], Any], a: Val, b: Val) -> Val:
    """Apply an operator to two known constants, refusing results too large to keep."""
    if not (a.known() and b.known()):
        return CLEAN
    if fn is operator.mod and isinstance(a.const, str) and _WIDE.search(a.const):
        return CLEAN  # "%999999999d" would build a huge string
    if fn is operator.mul and any(isinstance(x, str | bytes | tuple) for x in (a.const, b.const)):
        n = b.const if isinstance(b.const, int) else a.const
        if not isinstance(n, int) or n > 256:
            return CLEAN
    try:
        return const(fn(a.const, b.const))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, KeyError, IndexError):
        return CLEAN


def _literal(frame: Frame, node: Node) -> Val:
    text = frame.sf.text(node)
    try:
        if node.type == "integer":
            return const(int(text.replace("_", ""), 0))
        if node.type == "float":
            return const(float(text.replace("_", "")))
    except ValueError:
        return CLEAN
    return const({"true": True, "false": False, "none": None}[node.type])


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
    return merge(parts)


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
    attr = frame.sf.text(name)
    base = frame.eval(obj)
    if isinstance(base.inst, Instance):
        if attr in base.inst.attrs:
            return base.inst.attrs[attr]
        method = frame.engine.program.method(base.inst.cls, attr)
        return Val(inst=Bound(method, base.inst)) if method is not None else merge([base])
    if "request" in base.flags:
        if attr == "path" and frame.route_path is not None:
            return const(frame.route_path)  # a route without variable parts matches one path
        return tainted(ALL, frame.at(node, f"reads request data ({frame.text(node)})"))
    if base.ref is not None:
        return frame.engine.qualified(f"{base.ref}.{attr}", frame.at(node, frame.text(node)))
    if isinstance(base.inst, ModuleInfo | ClassRef | FuncRef):
        return CLEAN
    return merge([base])


def evaluate(frame: Frame, node: Node) -> Val:
    """The abstract value of ``node``."""
    kind = node.type
    if kind == "identifier":
        return frame.lookup(frame.sf.text(node))
    if kind in ("string", "concatenated_string"):
        return _string(frame, node)
    if kind in _LITERAL_TYPES:
        return _literal(frame, node)
    if kind == "attribute":
        return attribute(frame, node)
    if kind == "call":
        return frame.call(node)
    if kind == "subscript":
        value, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
        idx = _slice(frame, index) if index is not None and index.type == "slice" \
            else frame.eval(index)
        return subscript(frame.eval(value), idx)
    if kind in ("list", "tuple", "set", "dictionary", "expression_list"):
        return _container(frame, node)
    return _operators(frame, node)


def _operators(frame: Frame, node: Node) -> Val:
    kind = node.type
    if kind in ("parenthesized_expression", "await", "list_splat", "named_expression"):
        inner = node.named_children[-1] if node.named_children else None
        value = frame.eval(inner)
        if kind == "named_expression" and node.named_children:
            frame.env[frame.sf.text(node.named_children[0])] = value
        return value
    if kind == "binary_operator":
        left, right = frame.eval(node.child_by_field_name("left")), frame.eval(
            node.child_by_field_name("right"))
        op = frame.sf.text(node.child_by_field_name("operator"))
        out = fold(BINARY[op], left, right) if op in BINARY else CLEAN
        if out.known():
            return out
        if op == "+" and left.seq is not None and right.seq is not None:
            return Val(kinds=left.kinds | right.kinds, seq=left.seq + right.seq, flags=left.flags,
                       steps=left.steps or right.steps)
        mixed = merge([left, right])
        if op == "/" and "path" in left.flags | right.flags:
            return Val(kinds=mixed.kinds, flags=frozenset({"path"}), steps=mixed.steps)
        return mixed
    if kind == "unary_operator":
        value = frame.eval(node.child_by_field_name("argument"))
        op = frame.sf.text(node.child_by_field_name("operator"))
        if value.known() and isinstance(value.const, int | float):
            return const(-value.const if op == "-" else value.const)
        return merge([value])
    if kind == "not_operator":
        value = frame.eval(node.child_by_field_name("argument"))
        return const(not value.const) if value.known() else CLEAN
    if kind == "boolean_operator":
        return _boolean(frame, node)
    if kind == "comparison_operator":
        return _compare(frame, node)
    if kind == "conditional_expression":
        return _conditional(frame, node)
    if kind in ("list_comprehension", "set_comprehension", "generator_expression",
                "dictionary_comprehension"):
        return _comprehension(frame, node)
    return CLEAN


def _boolean(frame: Frame, node: Node) -> Val:
    left = frame.eval(node.child_by_field_name("left"))
    right = frame.eval(node.child_by_field_name("right"))
    op = frame.sf.text(node.child_by_field_name("operator"))
    if left.known():
        if op == "and":
            return right if left.const else left
        return left if left.const else right
    return merge([left, right])


def _compare(frame: Frame, node: Node) -> Val:
    operands = [c for c in node.named_children]
    ops = [frame.sf.text(c) for c in node.children if not c.is_named]
    ops = [" ".join(o.split()) for o in ops]
    values = [frame.eval(c) for c in operands]
    if len(values) == 2 and len(ops) >= 1:
        op = " ".join(ops)
        if op in _COMPARE:
            return fold(_COMPARE[op], values[0], values[1])
    return CLEAN


def _conditional(frame: Frame, node: Node) -> Val:
    body, cond, other = [*node.named_children, None, None, None][:3]
    test = frame.eval(cond)
    if test.known():
        return frame.eval(body if test.const else other)
    return join(frame.eval(body), frame.eval(other))


def _comprehension(frame: Frame, node: Node) -> Val:
    saved = dict(frame.env)
    for clause in node.named_children:
        if clause.type == "for_in_clause":
            source = frame.eval(clause.child_by_field_name("right"))
            frame.bind(clause.child_by_field_name("left"), element(source))
    body = node.named_children[0] if node.named_children else None
    value = frame.eval(body)
    if body is not None and body.type == "pair":
        value = merge([frame.eval(body.child_by_field_name("key")),
                       frame.eval(body.child_by_field_name("value"))])
    frame.env = saved
    out = merge([value])
    return Val(kinds=out.kinds, steps=out.steps, flags=frozenset({"list"}))


def shell_program(value: Val) -> bool:
    """Whether a command list starts with a shell (``sh -c ...``)."""
    head = value.seq[0] if value.seq else None
    return head is not None and "shell" in head.flags
