"""What one graph function does with the state it is handed: the keys it returns (the
update LangGraph applies), the keys it writes in place, and the keys it reads.

Only the function's own body counts (nested functions and lambdas are other scopes). Only
keys written as literals or string constants are known: keys built at run time are not, so
the rule that says a key is written nowhere looks for its spelling in the whole tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from courtroom.detectives.nodes import SCOPES, call_arguments, string_value, walk
from courtroom.detectives.parsing import Node, SourceFile

_CATCHES = re.compile(r"\b(KeyError|LookupError|AttributeError|Exception|BaseException)\b")


@dataclass
class Access:
    """The state keys one function returns, writes in place and reads."""

    returned: dict[str, str] = field(default_factory=dict)  # key -> location
    in_place: dict[str, str] = field(default_factory=dict)
    returns_state: bool = False
    #: (key, how, location); how is "subscript", "attribute", "get" or "guarded" (a read
    #: inside a try that catches its failure).
    reads: list[tuple[str, str, str]] = field(default_factory=list)
    #: (state key, inner key, location): a lookup inside a dict-valued state key.
    inner_reads: list[tuple[str, str, str]] = field(default_factory=list)


def own_nodes(fn: Node) -> list[Node]:
    """The nodes of a function's body, without descending into nested scopes."""
    body = fn.child_by_field_name("body")
    if body is None:
        return []
    return [node for node in walk(body, SCOPES) if node.type not in SCOPES]


def key_of(sf: SourceFile, node: Node | None, table: dict[str, str]) -> str | None:
    """A key written as a string literal or a string constant, else None."""
    literal = string_value(sf, node)
    if literal is not None or node is None:
        return literal
    text = sf.text(node)
    if node.type == "identifier":
        return table.get(text)
    if node.type == "attribute":
        return table.get(".".join(text.split(".")[-2:]))
    return None


def analyse(sf: SourceFile, fn: Node, param: str, table: dict[str, str]) -> Access:
    """The state access of one function (a def or a lambda) whose state is ``param``."""
    acc = Access()
    nodes = own_nodes(fn)
    aliases = _aliases(sf, nodes, param, table)
    for node in nodes:
        _read_or_write(sf, node, param, table, aliases, acc)
    if fn.type == "lambda":
        _returned(sf, fn.child_by_field_name("body"), param, nodes, table, acc)
    for node in nodes:
        if node.type == "return_statement":
            value = node.named_children[0] if node.named_children else None
            _returned(sf, value, param, nodes, table, acc)
    return acc


def _is_state(sf: SourceFile, node: Node | None, param: str) -> bool:
    return node is not None and node.type == "identifier" and sf.text(node) == param


def _stored(node: Node) -> bool:
    """Whether ``node`` is the target of a plain assignment (not a read)."""
    parent = node.parent
    return parent is not None and parent.type == "assignment" and \
        parent.child_by_field_name("left") == node


def _guarded(sf: SourceFile, node: Node) -> str | None:
    """"guarded" when a read sits in a ``try`` whose handler catches its failure (a
    KeyError, an AttributeError, any Exception or everything): it tolerates absence."""
    scope = node.parent
    while scope is not None and scope.type not in SCOPES:
        if scope.type == "try_statement":
            for clause in scope.named_children:
                if clause.type == "except_clause" and (
                        _CATCHES.search(sf.text(clause).split(":", 1)[0]) or
                        sf.text(clause).split(":", 1)[0].strip() == "except"):
                    return "guarded"
        scope = scope.parent
    return None


def _read_or_write(sf: SourceFile, node: Node, param: str, table: dict[str, str],
                   aliases: dict[str, str], acc: Access) -> None:
    """Record one subscript, attribute or ``.get`` call on the state (or an alias)."""
    where = sf.loc(node)
    if node.type == "subscript":
        value, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
        key = key_of(sf, index, table)
        outer = _outer_key(sf, value, param, table, aliases)
        if key is not None and _is_state(sf, value, param):
            if _stored(node):
                acc.in_place[key] = where
            else:
                acc.reads.append((key, _guarded(sf, node) or "subscript", where))
        elif key is not None and outer is not None and not _stored(node):
            acc.inner_reads.append((outer, key, where))
    elif node.type == "attribute":
        obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
        parent = node.parent
        called = parent is not None and parent.type == "call" and \
            parent.child_by_field_name("function") == node
        if _is_state(sf, obj, param) and not called:
            if _stored(node):
                acc.in_place[sf.text(attr)] = where
            else:
                acc.reads.append((sf.text(attr), _guarded(sf, node) or "attribute", where))
    elif node.type == "call":
        _call(sf, node, param, table, aliases, acc)


def _call(sf: SourceFile, node: Node, param: str, table: dict[str, str],
          aliases: dict[str, str], acc: Access) -> None:
    """``state.get("k")``, ``state.update({...})`` and ``<state["S"]>.get("k")``."""
    fn = node.child_by_field_name("function")
    if fn is None or fn.type != "attribute":
        return
    obj, method = fn.child_by_field_name("object"), sf.text(fn.child_by_field_name("attribute"))
    positional, keywords = call_arguments(node.child_by_field_name("arguments"))
    first = key_of(sf, positional[0], table) if positional else None
    if _is_state(sf, obj, param):
        if method == "get" and first is not None:
            acc.reads.append((first, "get", sf.loc(node)))
        elif method in ("update", "setdefault"):
            keys = _dict_keys(sf, positional[0] if positional else None, [], table)
            keys = {first: sf.loc(node)} if method == "setdefault" and first else keys
            acc.in_place.update(keys)
            acc.in_place.update({k: sf.loc(node) for k in keywords})
        return
    outer = _outer_key(sf, obj, param, table, aliases)
    if outer is not None and method == "get" and first is not None:
        acc.inner_reads.append((outer, first, sf.loc(node)))


def _outer_key(sf: SourceFile, node: Node | None, param: str, table: dict[str, str],
               aliases: dict[str, str]) -> str | None:
    """The state key an expression reads whole: ``state["S"]``, ``state.S``,
    ``state.get("S", ...)``, or a local name assigned once from one of those."""
    if node is None:
        return None
    if node.type == "identifier":
        return aliases.get(sf.text(node))
    if node.type == "subscript" and _is_state(sf, node.child_by_field_name("value"), param):
        return key_of(sf, node.child_by_field_name("subscript"), table)
    if node.type == "attribute" and _is_state(sf, node.child_by_field_name("object"), param):
        return sf.text(node.child_by_field_name("attribute"))
    if node.type == "call":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "attribute" and sf.text(fn.child_by_field_name(
                "attribute")) == "get" and _is_state(sf, fn.child_by_field_name("object"), param):
            positional, _ = call_arguments(node.child_by_field_name("arguments"))
            return key_of(sf, positional[0], table) if positional else None
    return None


def _aliases(sf: SourceFile, nodes: list[Node], param: str,
             table: dict[str, str]) -> dict[str, str]:
    """Local names bound exactly once, to a whole state key (``ev = state["evidences"]``)."""
    bound: dict[str, list[Node]] = {}
    for node in nodes:
        if node.type in ("assignment", "augmented_assignment", "for_statement"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                bound.setdefault(sf.text(left), []).append(node)
    out: dict[str, str] = {}
    for name, assigns in bound.items():
        if len(assigns) == 1 and assigns[0].type == "assignment":
            outer = _outer_key(sf, assigns[0].child_by_field_name("right"), param, table, {})
            if outer is not None:
                out[name] = outer
    return out


def _returned(sf: SourceFile, value: Node | None, param: str, nodes: list[Node],
              table: dict[str, str], acc: Access) -> None:
    """Add one returned value's keys to the update the function makes."""
    if value is None or sf.text(value) == "None":
        return
    if _is_state(sf, value, param):
        acc.returns_state = True
        return
    if value.type == "conditional_expression":
        # a if cond else b: the condition is not returned.
        for part in value.named_children[0:3:2]:
            _returned(sf, part, param, nodes, table, acc)
        return
    keys = _dict_keys(sf, value, nodes, table)
    acc.returned.update({k: v for k, v in keys.items() if k not in acc.returned})


def _dict_keys(sf: SourceFile, value: Node | None, nodes: list[Node],
               table: dict[str, str]) -> dict[str, str]:
    """Literal keys of a dict literal, ``dict(k=...)``, ``Command(update=...)`` or a local
    dict built in the function, each with where it is written."""
    if value is None:
        return {}
    if value.type == "dictionary":
        keys: dict[str, str] = {}
        for child in value.named_children:
            key = key_of(sf, child.child_by_field_name("key"), table) \
                if child.type == "pair" else None
            if key is not None:
                keys.setdefault(key, sf.loc(child))
        return keys
    if value.type == "call":
        name = sf.text(value.child_by_field_name("function")).split(".")[-1]
        positional, keywords = call_arguments(value.child_by_field_name("arguments"))
        if name == "dict" and not positional:
            return {k: sf.loc(v) for k, v in keywords.items()}
        if name == "Command":
            return _dict_keys(sf, keywords.get("update"), nodes, table)
        return {}
    if value.type == "identifier":
        return _local_dict(sf, sf.text(value), nodes, table)
    return {}


def _local_dict(sf: SourceFile, var: str, nodes: list[Node],
                table: dict[str, str]) -> dict[str, str]:
    """Keys of ``var = {...}; var["k"] = ...; return var``."""
    keys: dict[str, str] = {}
    for node in nodes:
        if node.type == "assignment" and sf.text(node.child_by_field_name("left")) == var:
            keys.update(_dict_keys(sf, node.child_by_field_name("right"), [], table))
        elif node.type == "subscript" and _stored(node) and \
                sf.text(node.child_by_field_name("value")) == var:
            key = key_of(sf, node.child_by_field_name("subscript"), table)
            keys.update({key: sf.loc(node)} if key else {})
    return keys
