"""The repository's model classes (TypedDict, pydantic, dataclass) read in full for the
state-flow rules: every field with whether it has a default, the other members, and
whether the class can be known at all.

A class is only *known* when its whole base chain is: a base from outside the repository
(other than TypedDict, BaseModel, MessagesState and plain typing helpers) may add fields
no tree shows, so such a class is open and no rule may claim a field is missing from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.common import is_test_path
from courtroom.detectives.nodes import string_value
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, captures

_TYPED_DICT = {"TypedDict", "typing.TypedDict", "typing_extensions.TypedDict"}
_PYDANTIC = {"BaseModel", "pydantic.BaseModel"}
_NEUTRAL = {"object", "Generic", "ABC", "abc.ABC", "Protocol"}
#: LangGraph's MessagesState declares this one field.
_MESSAGES = {"MessagesState": "messages", "langgraph.graph.MessagesState": "messages"}
#: Class bodies that accept attributes or keywords no field names.
_NAME = re.compile(r"[A-Za-z_]\w*")
_OPEN_MARKERS = ("__getattr__", "extra=\"allow\"", "extra='allow'", "Extra.allow",
                 "alias_generator", "__getattribute__", "__slots__", "AliasChoices",
                 "AliasPath", "mode=\"before\"", "mode='before'", "pre=True",
                 "__get_validators__")
#: Field types LangGraph fills itself (managed values): read, never written by a node.
_MANAGED = re.compile(r"RemainingSteps|IsLastStep|Managed")


@dataclass(frozen=True)
class ClassInfo:
    """One class definition as written."""

    name: str
    path: str
    location: str
    bases: tuple[str, ...]
    fields: dict[str, bool]  # field -> has a default
    members: frozenset[str]  # methods, class attributes, nested classes
    aliases: frozenset[str]  # Field(alias=...) names accepted as keywords
    types: frozenset[str]  # names used in the fields' annotations
    dataclass: bool
    custom_init: bool
    open: bool


@dataclass(frozen=True)
class Schema:
    """A class with its whole base chain resolved."""

    name: str
    location: str
    kind: str  # "typeddict", "pydantic" or "dataclass"
    fields: dict[str, bool]
    members: frozenset[str]
    aliases: frozenset[str]
    types: frozenset[str]
    custom_init: bool


def class_table(index: SourceIndex) -> dict[str, list[ClassInfo]]:
    """Every class of the non-test sources, by name (a name may be defined twice)."""
    table: dict[str, list[ClassInfo]] = {}
    for sf in index.files:
        if is_test_path(sf.path) or b"class" not in sf.source:
            continue
        for node in captures("definitions", sf.root).get("class", []):
            info = _read_class(sf, node)
            table.setdefault(info.name, []).append(info)
    return table


def _read_class(sf: SourceFile, node: Node) -> ClassInfo:
    """Fields, members and markers of one class definition."""
    name = sf.text(node.child_by_field_name("name"))
    supers = node.child_by_field_name("superclasses")
    bases = tuple(sf.text(b) for b in (supers.named_children if supers is not None else [])
                  if b.type != "keyword_argument")
    body = node.child_by_field_name("body")
    fields: dict[str, bool] = {}
    members: set[str] = set()
    aliases: set[str] = set()
    types: set[str] = set()
    for stmt in body.named_children if body is not None else []:
        inner = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" \
            else stmt
        if inner is not None and inner.type in ("function_definition", "class_definition"):
            members.add(sf.text(inner.child_by_field_name("name")))
            continue
        assign = stmt.named_children[0] if stmt.type == "expression_statement" and \
            stmt.named_children else None
        if assign is None or assign.type != "assignment":
            continue
        left = assign.child_by_field_name("left")
        right = assign.child_by_field_name("right")
        if left is None or left.type != "identifier":
            continue
        if assign.child_by_field_name("type") is None:
            members.add(sf.text(left))
            continue
        kind = sf.text(assign.child_by_field_name("type"))
        fields[sf.text(left)] = bool(_MANAGED.search(kind)) or (
            right is not None and not _required_field(sf, right))
        types |= set(_NAME.findall(kind))
        aliases |= _aliases(sf, right)
    members |= {sf.text(n.child_by_field_name("attribute"))
                for n in captures("attributes", body).get("attribute", []) if _assigned(n) and
                sf.text(n.child_by_field_name("object")) == "self"} if body is not None else set()
    decorated = node.parent is not None and node.parent.type == "decorated_definition"
    decorators = sf.text(node.parent).split("class ", 1)[0] if decorated and \
        node.parent is not None else ""
    text = sf.text(body)
    return ClassInfo(name, sf.path, sf.loc(node), bases, fields, frozenset(members),
                     frozenset(aliases), frozenset(types), "dataclass" in decorators,
                     "__init__" in members, any(marker in text for marker in _OPEN_MARKERS))


def _assigned(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type in ("assignment", "augmented_assignment") and \
        parent.child_by_field_name("left") == node


def _required_field(sf: SourceFile, right: Node) -> bool:
    """``x: T = Field(...)`` / ``Field(description=...)`` without a default is required."""
    if right.type != "call" or sf.text(right.child_by_field_name("function")).split(".")[-1] \
            not in ("Field", "field"):
        return False
    args = right.child_by_field_name("arguments")
    children = args.named_children if args is not None else []
    if any(c.type != "keyword_argument" and sf.text(c) != "..." for c in children):
        return False
    names = {sf.text(c.child_by_field_name("name")) for c in children
             if c.type == "keyword_argument"}
    return not names & {"default", "default_factory"}


def _aliases(sf: SourceFile, right: Node | None) -> set[str]:
    """Keyword names a ``Field(alias=...)`` also accepts."""
    if right is None or right.type != "call":
        return set()
    args = right.child_by_field_name("arguments")
    out: set[str] = set()
    for child in args.named_children if args is not None else []:
        if child.type == "keyword_argument" and sf.text(child.child_by_field_name("name")) \
                in ("alias", "validation_alias"):
            value = string_value(sf, child.child_by_field_name("value"))
            if value:
                out.add(value)
    return out


def _kind(info: ClassInfo) -> str | None:
    """What a class is from its own bases: a state or model kind, or None."""
    if any(b in _TYPED_DICT or b in _MESSAGES for b in info.bases):
        return "typeddict"
    if any(b in _PYDANTIC for b in info.bases):
        return "pydantic"
    return "dataclass" if info.dataclass else None


def resolve_schema(table: dict[str, list[ClassInfo]], name: str,
                   depth: int = 0) -> Schema | None:
    """The class named ``name`` with every field of its base chain, or None when it is
    defined more than once, open to extra attributes, or derives from an unknown class."""
    found = table.get(name.strip("\"'"), [])
    if len(found) != 1 or depth > 6 or found[0].open:
        return None
    info = found[0]
    kind = _kind(info)
    fields = dict(info.fields)
    members = set(info.members)
    aliases = set(info.aliases)
    types = set(info.types)
    custom_init = info.custom_init
    for base in info.bases:
        head = base.split("[", 1)[0]
        if head in _MESSAGES:
            fields.setdefault(_MESSAGES[head], True)
        if head in _TYPED_DICT | _PYDANTIC | _NEUTRAL | set(_MESSAGES):
            continue
        parent = resolve_schema(table, head, depth + 1)
        if parent is None:
            return None
        kind = kind or parent.kind
        fields = {**parent.fields, **fields}
        members |= parent.members
        aliases |= parent.aliases
        types |= parent.types
        custom_init = custom_init or parent.custom_init
    if kind is None:
        return None
    return Schema(info.name, info.location, kind, fields, frozenset(members),
                  frozenset(aliases), frozenset(types), custom_init)


def state_models(table: dict[str, list[ClassInfo]], roots: list[str]) -> dict[str, Schema]:
    """The state schemas and every model their fields hold, transitively (the evidence
    and opinion models a state carries), each read in full."""
    out: dict[str, Schema] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        schema = resolve_schema(table, name) if name not in out else None
        if schema is not None:
            out[name] = schema
            todo.extend(t for t in schema.types if t in table and t not in out)
    return out
