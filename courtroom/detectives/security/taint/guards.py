"""What a branch condition proves about a variable inside the branch (or after an exit).

``if x not in ALLOWED: return`` leaves ``x`` validated below it; so do a pattern match
(``re.fullmatch``), a digits-only test, a containment test on a resolved path
(``p.resolve()`` then ``startswith``/``is_relative_to``), a refusal of ``..``, and a
refusal of quotes (the value cannot leave a quoted SQL or XPath literal).
"""

from __future__ import annotations

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import url_guards
from courtroom.detectives.security.taint.frame import Env, Frame
from courtroom.detectives.security.taint.values import ALL, CODE, PATH, SQL, XPATH

_VALIDATORS = frozenset({"isdigit", "isnumeric", "isdecimal", "isalnum", "isalpha",
                         "isidentifier", "isascii_digits"})
_MATCHERS = frozenset({"re.match", "re.fullmatch", "fullmatch", "match"})
_CONTAINMENT = frozenset({"startswith", "is_relative_to", "commonpath"})
_QUOTES = frozenset({"'", '"'})

Fact = tuple[str, str, frozenset[str]]  # (variable, fact, kinds cleared)


def _root(frame: Frame, node: Node | None) -> str | None:
    """The variable an expression tests: ``str(p)``, ``os.path.realpath(p)`` and
    ``p.resolve()`` test ``p``, each a conversion of the whole value. A part of it
    (``request.method``, ``d["k"]``) is not the variable: proving something about one
    part proves nothing about the others, so it names none."""
    while node is not None:
        if node.type == "identifier":
            return frame.sf.text(node)
        if node.type == "call":
            fn = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children \
                else None
            if fn is not None and fn.type == "attribute" and not _library(frame, fn):
                node = fn.child_by_field_name("object")
            elif first is not None and first.type != "keyword_argument":
                node = first
            else:
                return None
        elif node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        else:
            return None
    return None


def _library(frame: Frame, fn: Node) -> bool:
    """Whether a dotted callee is a module's function (``os.path.realpath``), not a method
    of the value it is called on."""
    obj = fn.child_by_field_name("object")
    while obj is not None and obj.type == "attribute":
        obj = obj.child_by_field_name("object")
    return obj is not None and obj.type == "identifier" and \
        frame.eval(fn.child_by_field_name("object")).ref is not None


def _call_facts(frame: Frame, node: Node, truth: bool) -> list[Fact]:
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if fn is None:
        return []
    if fn.type == "attribute":
        method = frame.sf.text(fn.child_by_field_name("attribute"))
        name = _root(frame, fn.child_by_field_name("object"))
        if name is None or not truth:
            return []
        if method in _VALIDATORS:
            return [(name, "valid", ALL)]
        if method in ("startswith", "endswith") and first is not None:
            literal = frame.eval(first)
            if literal.known() and literal.const in _QUOTES:
                return [(name, f"{method}-quote", frozenset())]
        if method in _CONTAINMENT:
            return [(name, "contained", frozenset({PATH}))]
    full = frame.sf.text(fn)
    if truth and full in _MATCHERS and args is not None and len(args.named_children) > 1:
        name = _root(frame, args.named_children[1])
        return [(name, "valid", ALL)] if name else []
    return []


def _compare_facts(frame: Frame, node: Node, truth: bool) -> list[Fact]:
    operands = node.named_children
    ops = " ".join(" ".join(frame.sf.text(c).split()) for c in node.children if not c.is_named)
    if len(operands) != 2:
        return []
    left, right = operands
    member = (ops == "in" and truth) or (ops == "not in" and not truth)
    absent = (ops == "in" and not truth) or (ops == "not in" and truth)
    name = _root(frame, left)
    if member and name is not None and left.type == "identifier":
        container = frame.eval(right)
        if container.known() or (container.seq is not None and
                                  all(v.known() for v in container.seq)):
            return [(name, "valid", ALL)]
    pattern = frame.eval(left)
    target = _root(frame, right)
    if absent and pattern.known() and target is not None:
        if ".." in str(pattern.const):
            return [(target, "no-dotdot", frozenset({PATH}))]
        if pattern.const in _QUOTES:  # no quote: it cannot leave a quoted literal
            return [(target, "no-quote", frozenset({SQL, XPATH}))]
    if ops == "==" and truth and name is not None and frame.eval(right).known():
        return [(name, "valid", ALL)]
    return []


def facts(frame: Frame, node: Node | None, truth: bool) -> list[Fact]:
    """Facts a condition proves when it evaluates to ``truth``."""
    if node is None:
        return []
    if node.type == "parenthesized_expression" and node.named_children:
        return facts(frame, node.named_children[0], truth)
    if node.type == "not_operator":
        return facts(frame, node.child_by_field_name("argument"), not truth)
    if node.type == "boolean_operator":
        op = frame.sf.text(node.child_by_field_name("operator"))
        if (op == "and") == truth:
            return facts(frame, node.child_by_field_name("left"), truth) + \
                facts(frame, node.child_by_field_name("right"), truth)
        return []
    if node.type == "call":
        return _call_facts(frame, node, truth) + url_guards.facts(frame, node, truth)
    if node.type == "comparison_operator":
        return _compare_facts(frame, node, truth) + url_guards.facts(frame, node, truth)
    return []


def refine(frame: Frame, cond: Node | None, truth: bool, env: Env) -> Env:
    """``env`` with what ``cond == truth`` proves applied to its variables."""
    found = facts(frame, cond, truth)
    quoted = {n for n, f, _ in found if f == "startswith-quote"} & \
        {n for n, f, _ in found if f == "endswith-quote"}
    for name, fact, kinds in found:
        value = env.get(name)
        if value is None:
            continue
        if fact == "contained" and "normalised" not in value.flags:
            continue  # a prefix test on an unresolved path is defeated by '..'
        env[name] = value.clean(kinds)
    for name in quoted:
        if name in env:
            env[name] = env[name].clean(frozenset({CODE}))
    return env

