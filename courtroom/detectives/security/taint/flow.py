"""Compound statements: each path runs on its own copy of the variables and the copies are
joined after it. Constant conditions pick their branch, guards refine the variables they
prove something about, a loop body runs twice so a value assigned late in it reaches the
top (once inside two enclosing loops, which bounds the cost), and a ``try`` handler starts
from what the body may have left.
"""

from __future__ import annotations

from collections.abc import Callable

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import guards
from courtroom.detectives.security.taint.frame import Env, Frame
from courtroom.detectives.security.taint.values import CLEAN, Val, element, join, merge


def join_envs(envs: list[Env | None]) -> Env | None:
    """Variables after paths that may each have run (None: the path left the block)."""
    live = [e for e in envs if e is not None]
    if not live:
        return None
    out = dict(live[0])
    for env in live[1:]:
        for name, value in env.items():
            before = out.get(name)
            # Most variables come out of most branches untouched: the very same value.
            if before is not value:
                out[name] = join(CLEAN if before is None else before, value)
        # Every name of ``env`` is in ``out`` now: a longer ``out`` has names ``env`` lacks
        # (most paths bind the same names, so the set difference is seldom built).
        if len(out) > len(env):
            for name in out.keys() - env.keys():
                out[name] = join(out[name], CLEAN)
    return out


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
            frame.bind(node.child_by_field_name("left"),
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
    outer, frame.raised = frame.raised, []
    body = frame.run(node.child_by_field_name("body"), dict(before))
    raised, frame.raised = frame.raised, outer
    outcomes: list[Env | None] = []
    handler_start = join_envs([before, body]) or before
    final = None
    for clause in node.named_children:
        if clause.type in ("except_clause", "except_group_clause"):
            block = next((c for c in clause.named_children if c.type == "block"), None)
            frame.env = dict(handler_start)
            caught = next((c for c in clause.named_children if c.type == "as_pattern"), None)
            if caught is not None and caught.named_children:
                # ``except E as e``: ``e`` is whichever exception the body raised.
                frame.bind(caught.named_children[-1], merge(raised))
            outcomes.append(frame.run(block, frame.env))
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
                frame.bind(alias.named_children[0] if alias is not None and
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
        frame.env = dict(start)
        for pattern in case.named_children:
            if pattern.type == "case_pattern":
                frame.bind(pattern, subject)
        guard = case.child_by_field_name("guard")
        env = guards.refine(frame, guard.named_children[0], True, frame.env) \
            if guard is not None and guard.named_children else frame.env
        branches.append(frame.run(case.child_by_field_name("consequence"), env))
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
    if not literals:
        return None
    # ``case None/True/False`` match by identity, every other literal by equality (so
    # ``case True`` does not match 1, though ``1 == True``).
    return any(subject.const is lit if lit is None or isinstance(lit, bool) else
               subject.const == lit for lit in literals)


#: Statement type -> how it runs.
COMPOUND: dict[str, Callable[[Frame, Node], Env | None]] = {
    "if_statement": _if, "for_statement": _loop, "while_statement": _loop,
    "try_statement": _try, "with_statement": _with, "match_statement": _match,
}
