"""Statements: run in order, assignments bound to names, items and attributes; compound
statements are run by :mod:`flow`.
"""

from __future__ import annotations

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import flow, patterns
from courtroom.detectives.security.taint.frame import Env, Frame
from courtroom.detectives.security.taint.operators import BINARY, fold
from courtroom.detectives.security.taint.program import (
    ClassRef,
    FuncRef,
    Instance,
    absolute_module,
)
from courtroom.detectives.security.taint.values import CLEAN, Val, element, merge

_LEAVE = ("return_statement", "raise_statement")


def execute(frame: Frame, block: Node | None, env: Env | None) -> Env | None:
    """Run a block's statements in order from ``env``."""
    if block is None or env is None:
        return env
    frame.env = env
    if block.type in ("block", "module"):
        statements = block.named_children
    # (A lambda's body is an expression, never a block: its parent, which tree-sitter finds
    # by walking down from the root, is asked only then.)
    elif block.parent is not None and block.parent.type == "lambda":
        frame.engine.returned(frame, block, frame.eval(block))  # a lambda's body is its result
        return None
    else:
        statements = [block]
    for stmt in statements:
        result = statement(frame, stmt)
        if result is None:
            return None
        frame.env = result
    return frame.env


def statement(frame: Frame, node: Node) -> Env | None:
    """Run one statement; the environment after it, or None when it leaves."""
    kind = node.type
    if kind == "expression_statement":
        for child in node.named_children:
            _expression(frame, child)
        return frame.env
    if kind in _LEAVE:
        value = frame.eval(node.named_children[0]) if node.named_children else CLEAN
        if kind == "return_statement":
            frame.engine.returned(frame, node, value)
        elif node.named_children:
            frame.raised.append(value)
        return None
    if kind == "global_statement":
        frame.declared.update(frame.sf.text(c) for c in node.named_children
                              if c.type == "identifier")
    if kind in ("break_statement", "continue_statement"):
        frame.exits.append(dict(frame.env))
        return None
    compound = flow.COMPOUND.get(kind)
    if compound is not None:
        return compound(frame, node)
    if kind in ("function_definition", "class_definition", "decorated_definition"):
        return _define(frame, node)
    if kind in ("import_statement", "import_from_statement"):
        _import(frame, node)
    return frame.env


def _expression(frame: Frame, node: Node) -> None:
    if node.type == "assignment":
        right = node.child_by_field_name("right")
        if right is None:
            return
        value = frame.eval(right)
        target = node.child_by_field_name("left")
        # (Only tainted values keep a path: the step is described for them alone.)
        bind(frame, target, value.step(frame.at(node, f"assigned: {frame.text(target)}"))
             if value.kinds else value)
        while right is not None and right.type == "assignment":  # a = b = value
            bind(frame, right.child_by_field_name("left"), value)
            right = right.child_by_field_name("right")
    elif node.type == "augmented_assignment":
        left = node.child_by_field_name("left")
        current, value = frame.eval(left), frame.eval(node.child_by_field_name("right"))
        op = frame.sf.text(node.child_by_field_name("operator")).rstrip("=")
        folded = fold(BINARY[op], current, value) if op in BINARY else CLEAN
        if folded.known():
            bind(frame, left, folded)
        elif current.seq is not None and value.seq is not None and op == "+":
            bind(frame, left, Val(kinds=current.kinds | value.kinds,
                                  seq=current.seq + value.seq, flags=current.flags,
                                  steps=current.steps or value.steps))
        else:
            merged = merge([current, value])
            if "list" in current.flags:  # a list extended by an unknown one is still a list
                merged = Val(kinds=merged.kinds, flags=merged.flags | {"list"},
                             steps=merged.steps)
            bind(frame, left, merged.step(frame.at(node, f"extended: {frame.text(left)}")))
    elif node.type == "yield":
        # What a generator yields is what iterating over it (or ``next``) gives its caller.
        value = frame.eval(node.named_children[0]) if node.named_children else CLEAN
        frame.returns.append(element(value) if any(c.type == "from" for c in node.children)
                             else value)
    else:
        frame.eval(node)


def bind(frame: Frame, target: Node | None, value: Val) -> None:
    """Assign ``value`` to a target: a name, a pattern, an item or an attribute."""
    if target is None:
        return
    kind = target.type
    if kind == "identifier":
        name = frame.sf.text(target)
        frame.env[name] = value
        if name in frame.declared and frame.env is not frame.module_env:
            frame.engine.shared.write(frame.module_env, name, value)
    elif kind in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list",
                  "expression_list"):
        parts = [c for c in target.named_children if c.type != "comment"]
        seq = value.seq if value.seq is not None and len(value.seq) == len(parts) else None
        for i, part in enumerate(parts):
            bind(frame, part, seq[i] if seq is not None else element(value))
    elif kind == "subscript":
        _bind_item(frame, target, value)
    elif kind == "attribute":
        store(frame, frame.eval(target.child_by_field_name("object")),
              frame.sf.text(target.child_by_field_name("attribute")), value)
    elif kind in ("parenthesized_expression", "list_splat_pattern", "as_pattern_target") and \
            target.named_children:
        bind(frame, target.named_children[0], value)
    elif kind in patterns.PATTERNS:
        patterns.bind(frame, target, value)


def store(frame: Frame, base: Val, attr: str, value: Val) -> None:
    """``base.attr = value`` on an object, a class or a module of the repository (a class's
    or module's attribute is shared by every function that reads it)."""
    if isinstance(base.inst, Instance):
        base.inst.attrs[attr] = value
    elif isinstance(base.inst, ClassRef):
        frame.engine.shared.write(frame.engine.shared.of_class(base.inst), attr, value)
    elif base.ref is not None and base.ref in frame.engine.program.modules:
        module = frame.engine.program.modules[base.ref]
        frame.engine.shared.write(frame.engine.module_env(module.sf), attr, value)


def _bind_item(frame: Frame, target: Node, value: Val) -> None:
    base_node = target.child_by_field_name("value")
    base = frame.eval(base_node)
    key = frame.eval(target.child_by_field_name("subscript"))
    if base.items is not None and key.known():
        items = dict(base.items)
        items[key.const] = value
        merged = merge([v for v in items.values()])
        new = Val(kinds=merged.kinds, items=tuple(items.items()), flags=base.flags,
                  steps=merged.steps)
    elif base.seq is not None and key.known() and isinstance(key.const, int) and \
            -len(base.seq) <= key.const < len(base.seq):
        seq = list(base.seq)
        seq[key.const] = value
        merged = merge(seq)
        new = Val(kinds=merged.kinds, seq=tuple(seq), flags=base.flags, steps=merged.steps)
    else:
        new = merge([base, value])
    if base_node is not None and base_node.type in ("identifier", "attribute"):
        bind(frame, base_node, new)


def _define(frame: Frame, node: Node) -> Env:
    inner = node.child_by_field_name("definition") if node.type == "decorated_definition" \
        else node
    if inner is None:
        return frame.env
    name = frame.sf.text(inner.child_by_field_name("name"))
    module = frame.engine.program.module_of(frame.sf)
    if inner.type == "function_definition":
        frame.env[name] = Val(inst=FuncRef(frame.sf, inner.start_byte, module, name or "lambda"))
    elif inner.type == "class_definition":
        found = frame.engine.program.resolve(f"{module}.{name}")
        if isinstance(found, ClassRef) and (found.sf.path, found.start) == \
                (frame.sf.path, inner.start_byte):
            frame.env[name] = Val(inst=found)
    return frame.env


def _import(frame: Frame, node: Node) -> None:
    """Bind the names an import statement introduces."""
    at = frame.at(node, frame.text(node))
    if node.type == "import_statement":
        for child in node.named_children:
            if child.type == "aliased_import":
                target = frame.sf.text(child.child_by_field_name("name"))
                frame.env[frame.sf.text(child.child_by_field_name("alias"))] = \
                    frame.engine.qualified(target, at)
            else:
                head = frame.sf.text(child).split(".")[0]
                frame.env[head] = Val(ref=head)
        return
    module_node = node.child_by_field_name("module_name")
    module = absolute_module(frame.sf.path, frame.sf.text(module_node))
    for child in node.named_children:
        if child == module_node:
            continue
        if child.type == "aliased_import":
            name = frame.sf.text(child.child_by_field_name("name"))
            alias = frame.sf.text(child.child_by_field_name("alias"))
        elif child.type == "dotted_name":
            name = alias = frame.sf.text(child)
        else:
            continue
        frame.env[alias] = frame.engine.qualified(f"{module}.{name}", at)
