"""Where a state key is spelled anywhere in the repository, which inner keys a
dict-valued state key is ever given, and the rule that reads one it is never given.

These are the conservative halves of the state-flow rules: a key counts as possibly
written when it is spelled anywhere outside a plain read (a dict key, a keyword, an
assignment target, a list of names, a data file), so a rule that says "nobody writes it"
only fires when nothing in the tree could.
"""

from __future__ import annotations

import re

from courtroom.detectives.common import REPO, UNWORKABLE, is_test_path, make
from courtroom.detectives.nodes import enclosing, string_value, walk
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex
from courtroom.detectives.repo.state_flow_access import Access, key_of
from courtroom.detectives.repo.state_flow_wiring import GraphFunction
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.shared import per_workspace
from courtroom.models import Evidence
from courtroom.untrusted import one_line

#: Code that builds state keys from a schema or by name: no key can be said unwritten.
DYNAMIC_KEYS = re.compile(rb"__annotations__|\.fromkeys\(|model_fields|get_type_hints|"
                          rb"\bsetattr\(|__fields__|\bvars\(|__dict__")
TAGS = (REPO, "state", UNWORKABLE)
PER_RULE = 3
#: Dict-valued state keys searched for at most (a key left unsearched is never charged).
MAX_OUTERS = 20
_DATA_SUFFIXES = (".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".env")


def _read_position(sf: SourceFile, node: Node) -> bool:
    """A string that is only looked up: ``x["k"]`` read, ``x.get("k")``."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "subscript" and parent.child_by_field_name("subscript") == node:
        grand = parent.parent
        return not (grand is not None and grand.type == "assignment" and
                    grand.child_by_field_name("left") == parent)
    if parent.type == "argument_list" and parent.named_children[0] == node:
        call = parent.parent
        fn = call.child_by_field_name("function") if call is not None else None
        return fn is not None and sf.text(fn).endswith(".get")
    return False


def spelled(index: SourceIndex, ws: Workspace, key: str) -> bool:
    """Whether ``key`` appears anywhere as something other than a plain read: then some
    code, caller or data file may provide it."""
    needle = key.encode()
    for sf in index.files:
        if needle not in sf.source or is_test_path(sf.path):
            continue
        for node in walk(sf.root):
            if node.type == "string" and string_value(sf, node) == key and \
                    not _read_position(sf, node):
                return True
            if node.type == "keyword_argument" and \
                    sf.text(node.child_by_field_name("name")) == key:
                return True
            if node.type == "attribute" and sf.text(node.child_by_field_name("attribute")) \
                    == key and _assigned(node):
                return True
            if node.type == "interpolation" and _fragment_of(sf, node, key):
                return True
    return in_data_files(ws, key)


def in_data_files(ws: Workspace, word: str) -> bool:
    """Whether a data file (JSON, YAML, TOML, INI, .env) names ``word``: a caller or a
    loader may hand it to the graph. The files' words are read once per workspace."""
    return word in _data_words(ws)


@per_workspace
def _data_words(ws: Workspace) -> frozenset[str]:
    return frozenset(w for rel in ws.files() if rel.endswith(_DATA_SUFFIXES)
                     and not is_test_path(rel)
                     for w in re.findall(r"[\w-]+", ws.read_text(rel) or ""))


def _assigned(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type in ("assignment", "augmented_assignment") and \
        parent.child_by_field_name("left") == node


def _fragment_of(sf: SourceFile, interpolation: Node, key: str) -> bool:
    """An f-string key whose fixed parts all occur in ``key`` may build it."""
    string = interpolation.parent
    if string is None:
        return False
    parts = [sf.text(c) for c in string.named_children if c.type == "string_content"]
    return all(p in key for p in parts)


def inner_keys(index: SourceIndex, outer: str,
               table: dict[str, str]) -> set[str] | None:
    """Every inner key a dict-valued state key is given anywhere (``{"S": {"k": ...}}``,
    ``x["S"]["k"] = ...``), or None when some write of it cannot be read."""
    found: set[str] = set()
    for sf in index.files:
        if outer.encode() not in sf.source or is_test_path(sf.path):
            continue
        for node in walk(sf.root):
            result = _inner_write(sf, node, outer, table)
            if result is None:
                return None
            found |= result
    return found


def _names_outer(sf: SourceFile, node: Node | None, outer: str, table: dict[str, str]) -> bool:
    """Whether an expression is ``x["S"]`` or ``x.S``."""
    if node is None:
        return False
    if node.type == "subscript":
        return key_of(sf, node.child_by_field_name("subscript"), table) == outer
    return node.type == "attribute" and sf.text(node.child_by_field_name("attribute")) == outer


def _mutated_alias(sf: SourceFile, assign: Node, outer: str, table: dict[str, str]) -> bool:
    """``ev = state["S"]`` (or ``.get("S", {})``) in a function that then stores into
    ``ev[...]`` or updates it: the alias writes inner keys no literal shows."""
    left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
    if left is None or right is None or left.type != "identifier":
        return False
    if right.type == "call":
        fn = right.child_by_field_name("function")
        args = right.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        if fn is None or not sf.text(fn).endswith(".get") or key_of(sf, first, table) != outer:
            return False
    elif not _names_outer(sf, right, outer, table):
        return False
    scope = enclosing(assign, ("function_definition",))
    text = sf.text(scope if scope is not None else sf.root)
    name = re.escape(sf.text(left))
    # Bounded subscripts: an unclosed ``ev[`` must not scan the rest of the file each time.
    return bool(re.search(rf"\b{name}\s*\[[^\]\n]{{0,200}}\]\s*=(?!=)|\b{name}\.(update|"
                          rf"setdefault|__setitem__)\(", text))


def _inner_write(sf: SourceFile, node: Node, outer: str,
                 table: dict[str, str]) -> set[str] | None:
    """The inner keys one node writes under ``outer`` (empty if none), None if unreadable."""
    if node.type == "pair" and key_of(sf, node.child_by_field_name("key"), table) == outer:
        value = node.child_by_field_name("value")
        if value is None or value.type != "dictionary":
            return None
        keys = set()
        for child in value.named_children:
            key = key_of(sf, child.child_by_field_name("key"), table) \
                if child.type == "pair" else None
            if key is None:
                return None
            keys.add(key)
        return keys
    if node.type == "keyword_argument" and sf.text(node.child_by_field_name("name")) == outer:
        return None
    if node.type in ("assignment", "augmented_assignment"):
        left = node.child_by_field_name("left")
        if _names_outer(sf, left, outer, table) or _mutated_alias(sf, node, outer, table):
            return None
        if left is not None and left.type == "subscript" and \
                _names_outer(sf, left.child_by_field_name("value"), outer, table):
            key = key_of(sf, left.child_by_field_name("subscript"), table)
            return {key} if key is not None else None
    if node.type == "call":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "attribute" and _names_outer(
                sf, fn.child_by_field_name("object"), outer, table) and sf.text(
                fn.child_by_field_name("attribute")) in ("update", "setdefault", "__setitem__"):
            return None
    return set()


def unread_inner(index: SourceIndex, flow: list[tuple[GraphFunction, Access]],
                 table: dict[str, str], detective: str) -> list[Evidence]:
    """Rule: a node looks evidence up under an inner key it is never stored under."""
    out: list[Evidence] = []
    stored: dict[str, set[str] | None] = {}
    seen: set[tuple[str, str]] = set()
    for g, acc in flow:
        for outer, key, where in acc.inner_reads:
            if outer not in stored and len(stored) < MAX_OUTERS:
                stored[outer] = inner_keys(index, outer, table)
            known = stored.get(outer)
            if not known or key in known or (outer, key) in seen or len(out) >= PER_RULE:
                continue
            seen.add((outer, key))
            names = one_line(", ".join(sorted(known)[:8]), 160)  # hostile text
            name, outer, key = one_line(g.name, 60), one_line(outer, 60), one_line(key, 60)
            out.append(make(
                detective, "State looked up under a key it is never stored under", True, where,
                f"{name} looks up '{key}' in the state's '{outer}', but every write of "
                f"'{outer}' stores only {names}: the lookup never finds anything.", 0.75, TAGS,
                content=f"{where} {outer}[{key}]", direction="adverse",
                fix=f"look up one of {names} at {where}, or store under '{key}' where "
                f"'{outer}' is written."))
    return out
