"""Tell a confirmed sink (an externally influenced value reaches it) from a constant one.

A small, local, flow-insensitive taint analysis on the tree-sitter tree: inside the
enclosing function, parameters (``self`` included) and reads of argv/environment/input/
request data are tainted, and so is every name assigned from a tainted expression. At
module level only the explicit sources are tainted. It is deliberately simple: it never
follows calls into other functions, so "unconfirmed" means "not shown to be reachable".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.callers import CallSites, exposed_by_decorator
from courtroom.detectives.parsing import Node, SourceFile, enclosing, walk

SOURCES = re.compile(
    r"\binput\s*\(|sys\.argv|os\.environ|os\.getenv|\brequest\.|\.args\b|\.form\b|"
    r"\.json\s*\(|\.recv\s*\(|\.read\s*\(|argparse|\.parse_args\s*\(|\bstate\[|\bstate\.get\(",
)
_SCOPES = ("function_definition", "lambda")


@dataclass(frozen=True)
class Verdict:
    """Whether the sink is reached by external input, and why we think so."""

    confirmed: bool
    constant: bool
    reason: str


def node_at(sf: SourceFile, line: int, col: int, kinds: tuple[str, ...]) -> Node | None:
    """The smallest node of ``kinds`` starting on ``line`` (1-based) nearest ``col``."""
    # Fast path: climb from the leaf at (line, col) to the nearest enclosing node of kind.
    node: Node | None = sf.root.descendant_for_point_range((line - 1, col), (line - 1, col))
    while node is not None:
        if node.type in kinds and node.start_point[0] + 1 == line:
            return node
        node = node.parent
    best: Node | None = None
    for node in walk(sf.root):
        if node.type not in kinds or node.start_point[0] + 1 != line:
            continue
        if best is None or (abs(node.start_point[1] - col), node.end_byte - node.start_byte) < \
                (abs(best.start_point[1] - col), best.end_byte - best.start_byte):
            best = node
    return best


def is_constant(node: Node | None, consts: set[str] | None = None) -> bool:
    """Whether an expression is built from literals (and known constants) only."""
    if node is None:
        return True
    for sub in walk(node):
        if sub.type in ("interpolation", "call", "subscript", "attribute"):
            return False
        if sub.type == "identifier" and not (consts and sub.text and
                                             sub.text.decode() in consts) \
                and sub.text not in (b"True", b"False", b"None"):
            parent = sub.parent
            if parent is not None and parent.type == "keyword_argument" and \
                    parent.child_by_field_name("name") == sub:
                continue
            return False
    return True


def _identifiers(node: Node) -> set[str]:
    """Variable names read by an expression (not attribute or keyword names)."""
    out = set()
    for sub in walk(node):
        if sub.type == "identifier" and sub.text is not None:
            parent = sub.parent
            # `obj.attr`: only `obj` is a variable read; `attr` is a field name.
            if parent is not None and parent.type == "attribute" and \
                    parent.child_by_field_name("attribute") == sub:
                continue
            if parent is not None and parent.type == "keyword_argument" and \
                    parent.child_by_field_name("name") == sub:
                continue
            out.add(sub.text.decode("utf-8", "replace"))
    return out


def _params(func: Node) -> set[str]:
    """Parameter names of a function (self included)."""
    params = func.child_by_field_name("parameters")
    if params is None:
        return set()
    names = set()
    for p in params.named_children:
        target = p if p.type == "identifier" else (
            p.child_by_field_name("name") or next(
                (c for c in p.named_children if c.type == "identifier"), None))
        if target is not None and target.text is not None:
            names.add(target.text.decode("utf-8", "replace"))
    return names


def tainted_names(
    sf: SourceFile, scope: Node | None, *, trusted: frozenset[str] = frozenset()
) -> set[str]:
    """Names that may hold external input inside ``scope`` (a function, or the module).

    ``trusted`` parameters are left out: callers only ever pass them constants.
    """
    tainted = (_params(scope) - trusted) if scope is not None else set()
    body = scope if scope is not None else sf.root
    assigns = [n for n in walk(body) if n.type in ("assignment", "augmented_assignment",
                                                    "for_statement", "as_pattern")]
    # Iterate to a fixed point: assignment order does not matter in loops.
    for _ in range(4):
        grew = False
        for a in assigns:
            if a.type == "as_pattern":  # `with open(path) as fh`: fh carries path's taint
                left = a.child_by_field_name("alias")
                right = a.named_children[0] if a.named_children else None
            else:
                left = a.child_by_field_name("left")
                right = a.child_by_field_name("right")
            if left is None or right is None:
                continue
            text = sf.text(right)
            if _identifiers(right) & tainted or SOURCES.search(text):
                new = _identifiers(left) - tainted
                if new:
                    tainted |= new
                    grew = True
        if not grew:
            break
    return tainted


def _function_name(scope: Node | None) -> str | None:
    """The name of an undecorated function scope (decorated ones are entry points)."""
    if scope is None or scope.type != "function_definition":
        return None
    if exposed_by_decorator(scope):
        return None
    name = scope.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None and name.text else None


def judge_sink(sf: SourceFile, expr: Node | None, calls: CallSites | None = None) -> Verdict:
    """Decide whether ``expr`` (the value reaching a sink) is externally influenced.

    With ``calls``, a value tainted only through the function's parameters is not
    confirmed when every in-repository caller passes literals.
    """
    if expr is None:
        return Verdict(False, True, "no argument reaches the sink")
    if is_constant(expr):
        return Verdict(False, True, "the argument is a constant literal")
    scope = enclosing(expr, _SCOPES)
    text = sf.text(expr)
    if SOURCES.search(text):
        return Verdict(True, False, f"the argument reads external input ({text[:60]})")
    hits = sorted(_identifiers(expr) & tainted_names(sf, scope))
    func = _function_name(scope)
    if hits and calls is not None and func is not None and scope is not None:
        trusted = frozenset(p for p in _params(scope) if calls.constant_fed_param(func, p))
        if trusted and not _identifiers(expr) & tainted_names(sf, scope, trusted=trusted):
            return Verdict(
                False, False, f"{', '.join(hits[:3])} comes from parameters of {func}() that "
                "every caller in the repository passes a constant"
            )
    if hits:
        where = "a parameter or value derived from one" if scope is not None else \
            "module-level external input"
        return Verdict(True, False, f"{', '.join(hits[:3])} is {where}")
    return Verdict(False, False, "the argument is computed, but no external source was traced")
