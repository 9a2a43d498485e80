"""``match`` patterns: the names a ``case`` captures, bound to the part of the subject each
one matches (a dict pattern's value by its constant key, a sequence pattern's element by
position, a class pattern's attribute), so ``case {"cmd": c}`` carries the subject's taint
into ``c`` exactly as ``c = subject["cmd"]`` would.
"""

from __future__ import annotations

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint.frame import Frame
from courtroom.detectives.security.taint.program import Instance
from courtroom.detectives.security.taint.values import CLEAN, Val, element, merge

#: Pattern nodes this module binds (``case_pattern`` wraps each of them).
PATTERNS = frozenset({"case_pattern", "as_pattern", "dotted_name", "dict_pattern",
                      "class_pattern", "union_pattern", "splat_pattern"})


def bind(frame: Frame, pattern: Node, subject: Val) -> None:
    """Bind the captures of ``pattern`` matched against ``subject``."""
    kind = pattern.type
    children = [c for c in pattern.named_children if c.type != "comment"]
    if kind == "dotted_name":
        # One name is a capture; a dotted one (``Color.RED``) is a value to compare with.
        if len(children) == 1 and frame.sf.text(pattern) != "_":
            frame.bind(children[0], subject)
    elif kind in ("case_pattern", "union_pattern"):
        for child in children:
            frame.bind(child, subject)
    elif kind == "as_pattern" and children:
        frame.bind(children[0], subject)
        frame.bind(children[-1], subject)
    elif kind == "splat_pattern" and children:
        frame.bind(children[0], subject)
    elif kind == "dict_pattern":
        _mapping(frame, children, subject)
    elif kind == "class_pattern":
        _object(frame, children[1:], subject)


def _mapping(frame: Frame, children: list[Node], subject: Val) -> None:
    items = dict(subject.items) if subject.items is not None else None
    for i, child in enumerate(children):
        if child.type == "splat_pattern":
            frame.bind(child, subject)
        elif child.type == "case_pattern" and i > 0:
            key = frame.eval(children[i - 1])
            if items is not None and key.known():
                part = items.get(key.const, CLEAN) if isinstance(key.const, str | int) \
                    else CLEAN
            else:
                part = element(subject)
            frame.bind(child, part)


def _object(frame: Frame, arguments: list[Node], subject: Val) -> None:
    """``Cls(a, key=b)``: a keyword matches the attribute, a position the whole object's
    data (``str(c)`` matches the string itself)."""
    attrs = subject.inst.attrs if isinstance(subject.inst, Instance) else None
    for argument in arguments:
        inner = argument.named_children[0] if argument.named_children else argument
        if inner.type == "keyword_pattern" and len(inner.named_children) == 2:
            name, value = inner.named_children
            attr = frame.sf.text(name)
            part = attrs.get(attr, CLEAN) if attrs is not None else merge([subject])
            frame.bind(value, part)
        else:
            frame.bind(argument, subject if attrs is None else merge(list(attrs.values())))
