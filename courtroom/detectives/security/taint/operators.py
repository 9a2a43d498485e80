"""Operators: arithmetic and comparisons folded on constants, boolean and conditional
expressions that pick a side when the test is known, comprehensions over container elements.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import url_guards
from courtroom.detectives.security.taint.frame import Frame
from courtroom.detectives.security.taint.values import CLEAN, Val, const, element, join, merge

BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "&": operator.and_, "|": operator.or_,
    "^": operator.xor,
}
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
    "<=": operator.le, ">=": operator.ge, "in": lambda a, b: operator.contains(b, a),
    "not in": lambda a, b: not operator.contains(b, a),
}
#: A format width large enough to build a huge string from a tiny literal.
_WIDE = re.compile(r"%[-+ #0]*\d{4,}")


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


def evaluate(frame: Frame, node: Node) -> Val:
    """The value of an operator, a conditional expression or a comprehension."""
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
        mixed = url_guards.after(left, merge([left, right]), right)
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
        if op in ("is", "is not"):
            same = identical(values[0], values[1])
            return CLEAN if same is None else const(same == (op == "is"))
    return CLEAN


def identical(a: Val, b: Val) -> bool | None:
    """What ``a is b`` surely is, by the language's rules; None when it is not known.

    Only ``None``, ``True`` and ``False`` are guaranteed to be one object each, and two
    unequal strings or integers are never one object. Whether two equal strings or numbers
    are one object is up to the interpreter (interning, constant folding), so it is unknown
    here however the analyser's own constants happen to be stored.
    """
    if not (a.known() and b.known()):
        return None
    x, y = a.const, b.const
    if x is None or y is None or isinstance(x, bool) or isinstance(y, bool):
        return x is y
    if isinstance(x, str | bytes | int) and isinstance(y, str | bytes | int) and x != y:
        return False
    return None


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
