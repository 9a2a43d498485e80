"""Statements: flow-sensitive, branches joined, constant conditions and guards respected."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import guards
from courtroom.detectives.security.taint.exprs import BINARY, fold
from courtroom.detectives.security.taint.program import FuncRef, Instance
from courtroom.detectives.security.taint.values import CLEAN, Val, element, join, merge

if TYPE_CHECKING:
    from courtroom.detectives.security.taint.frame import Env, Frame

_LEAVE = ("return_statement", "raise_statement")


def join_envs(envs: list[Env | None]) -> Env | None:
    """Variables after paths that may each have run (None: the path left the block)."""
    live = [e for e in envs if e is not None]
    if not live:
        return None
    out = dict(live[0])
    for env in live[1:]:
        for name in out.keys() | env.keys():
            out[name] = join(out.get(name, CLEAN), env.get(name, CLEAN))
    return out


def execute(frame: Frame, block: Node | None, env: Env | None) -> Env | None:
    """Run a block's statements in order from ``env``."""
    if block is None or env is None:
        return env
    frame.env = env
    statements = block.named_children if block.type in ("block", "module") else [block]
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
        return None
    if kind in ("break_statement", "continue_statement"):
        frame.exits.append(dict(frame.env))
        return None
    if kind == "if_statement":
        return _if(frame, node)
    if kind in ("for_statement", "while_statement"):
        return _loop(frame, node)
    if kind == "try_statement":
        return _try(frame, node)
    if kind == "with_statement":
        return _with(frame, node)
    if kind == "match_statement":
        return _match(frame, node)
    if kind in ("function_definition", "class_definition", "decorated_definition"):
        return _define(frame, node)
    if kind in ("import_statement", "import_from_statement"):
        frame.engine.imports(frame, node)
    return frame.env


def _expression(frame: Frame, node: Node) -> None:
    if node.type == "assignment":
        right = node.child_by_field_name("right")
        if right is None:
            return
        value = frame.eval(right)
        target = node.child_by_field_name("left")
        bind(frame, target, value.step(frame.at(node, f"assigned: {frame.text(target)}")))
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
    else:
        frame.eval(node)


def bind(frame: Frame, target: Node | None, value: Val) -> None:
    """Assign ``value`` to a target: a name, a pattern, an item or an attribute."""
    if target is None:
        return
    kind = target.type
    if kind == "identifier":
        frame.env[frame.sf.text(target)] = value
    elif kind in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list",
                  "expression_list"):
        names = [c for c in target.named_children if c.type != "comment"]
        seq = value.seq if value.seq is not None and len(value.seq) == len(names) else None
        for i, name in enumerate(names):
            bind(frame, name, seq[i] if seq is not None else element(value))
    elif kind == "subscript":
        _bind_item(frame, target, value)
    elif kind == "attribute":
        base = frame.eval(target.child_by_field_name("object"))
        if isinstance(base.inst, Instance):
            base.inst.attrs[frame.sf.text(target.child_by_field_name("attribute"))] = value
    elif kind in ("parenthesized_expression", "list_splat_pattern") and target.named_children:
        bind(frame, target.named_children[0], value)


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


def _if(frame: Frame, node: Node) -> Env | None:
    start = frame.env
    branches: list[Env | None] = []
    clauses = [node, *[c for c in node.named_children
                       if c.type in ("elif_clause", "else_clause")]]
    env: Env | None = dict(start)
    for clause in clauses:
        if env is None:
            break
        frame.env = env
        cond = clause.child_by_field_name("condition")
        body = clause.child_by_field_name("consequence") or clause.child_by_field_name("body")
        if cond is None:  # else
            branches.append(frame.run(body, dict(env)))
            env = None
            break
        test = frame.eval(cond)
        if test.known():
            if test.const:
                branches.append(frame.run(body, dict(env)))
                env = None
                break
            continue
        branches.append(frame.run(body, guards.refine(frame, cond, True, dict(env))))
        env = guards.refine(frame, cond, False, dict(env))
    if env is not None:
        branches.append(env)
    out = join_envs(branches)
    if out is not None:
        frame.env = out
    return out


def _loop(frame: Frame, node: Node) -> Env | None:
    before = dict(frame.env)
    saved_exits, frame.exits = frame.exits, []
    body = node.child_by_field_name("body")
    env: Env | None = dict(before)
    rounds = 2 if frame.loops < 2 else 1
    frame.loops += 1
    results: list[Env | None] = [before]
    for _ in range(rounds):
        if env is None:
            break
        frame.env = env
        if node.type == "for_statement":
            bind(frame, node.child_by_field_name("left"),
                 element(frame.eval(node.child_by_field_name("right"))).step(
                     frame.at(node, "loop variable")))
        else:
            test = frame.eval(node.child_by_field_name("condition"))
            if test.known() and not test.const:
                break
        env = frame.run(body, dict(frame.env))
        results.append(env)
        env = join_envs([before, env])
    frame.loops -= 1
    out = join_envs([*results, *frame.exits])
    frame.exits = saved_exits
    alternative = node.child_by_field_name("alternative")
    if out is not None and alternative is not None:
        out = frame.run(alternative.child_by_field_name("body") or alternative, out)
    if out is not None:
        frame.env = out
    return out


def _try(frame: Frame, node: Node) -> Env | None:
    before = dict(frame.env)
    body = frame.run(node.child_by_field_name("body"), dict(before))
    outcomes: list[Env | None] = []
    handler_start = join_envs([before, body]) or before
    final = None
    for clause in node.named_children:
        if clause.type in ("except_clause", "except_group_clause"):
            block = next((c for c in clause.named_children if c.type == "block"), None)
            outcomes.append(frame.run(block, dict(handler_start)))
        elif clause.type == "else_clause":
            body = frame.run(clause.child_by_field_name("body"), body)
        elif clause.type == "finally_clause":
            final = next((c for c in clause.named_children if c.type == "block"), None)
    out = join_envs([body, *outcomes])
    if final is not None:
        after = frame.run(final, dict(out if out is not None else handler_start))
        out = after if out is not None else None
    if out is not None:
        frame.env = out
    return out


def _with(frame: Frame, node: Node) -> Env | None:
    for clause in node.named_children:
        if clause.type != "with_clause":
            continue
        for item in clause.named_children:
            value_node = item.child_by_field_name("value") or (
                item.named_children[0] if item.named_children else None)
            if value_node is not None and value_node.type == "as_pattern":
                value = frame.eval(value_node.named_children[0])
                alias = value_node.child_by_field_name("alias")
                bind(frame, alias.named_children[0] if alias is not None and
                     alias.named_children else alias, value)
            else:
                frame.eval(value_node)
    return frame.run(node.child_by_field_name("body"), frame.env)


def _match(frame: Frame, node: Node) -> Env | None:
    subject = frame.eval(node.child_by_field_name("subject"))
    body = node.child_by_field_name("body")
    start = dict(frame.env)
    branches: list[Env | None] = []
    for case in body.named_children if body is not None else []:
        if case.type != "case_clause":
            continue
        fits = _fits(frame, case, subject)
        if fits is False:
            continue
        branches.append(frame.run(case.child_by_field_name("consequence"), dict(start)))
        if fits is True:
            break
    else:
        branches.append(start)
    out = join_envs(branches)
    if out is not None:
        frame.env = out
    return out


def _fits(frame: Frame, case: Node, subject: Val) -> bool | None:
    """True/False when a case surely does/doesn't match a constant subject, else None."""
    if case.child_by_field_name("guard") is not None or not subject.known():
        return None
    literals: list[object] = []
    for pattern in case.named_children:
        if pattern.type != "case_pattern":
            continue
        for leaf in [pattern, *pattern.named_children]:
            if leaf.type in ("string", "integer", "float", "true", "false", "none"):
                literals.append(frame.eval(leaf).const)
            elif leaf.type == "union_pattern":
                literals.extend(frame.eval(c).const for c in leaf.named_children)
            elif leaf.type in ("identifier", "dotted_name") or frame.sf.text(leaf) == "_":
                return True
        if not pattern.named_children:
            return True
    return subject.const in literals if literals else None


def _define(frame: Frame, node: Node) -> Env:
    inner = node.child_by_field_name("definition") if node.type == "decorated_definition" \
        else node
    if inner is not None and inner.type == "function_definition":
        name = frame.sf.text(inner.child_by_field_name("name"))
        module = frame.engine.program.module_of(frame.sf)
        frame.env[name] = Val(inst=FuncRef(frame.sf, inner, module))
    return frame.env

