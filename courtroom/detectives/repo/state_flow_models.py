"""Repository models used with fields they do not define: ``opinion.verdict`` when the
model has no ``verdict``, ``Evidence(confidance=...)`` when no field is so named.

The type of a name is taken only where it is certain: a parameter annotated with exactly
the model, or a local name assigned once from the model's constructor. The model must be
the repository's one class of that name (defined in the file or imported from the module
that defines it), with its whole base chain known and nothing that accepts extra names.
"""

from __future__ import annotations

from courtroom.detectives.common import REPO, UNWORKABLE, is_test_path, make
from courtroom.detectives.nodes import walk
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, matches
from courtroom.detectives.repo.state_flow_access import own_nodes
from courtroom.detectives.repo.state_flow_schema import ClassInfo, Schema, state_models
from courtroom.models import Evidence

TAGS = (REPO, "state", UNWORKABLE)
PER_RULE = 3
#: Attributes every pydantic model or dataclass instance has besides its fields.
_MODEL_API = frozenset({
    "model_dump", "model_dump_json", "model_copy", "model_fields", "model_fields_set",
    "model_config", "model_extra", "model_computed_fields", "model_json_schema",
    "model_validate", "model_validate_json", "model_construct", "model_post_init",
    "model_rebuild", "dict", "json", "copy", "parse_obj", "parse_raw", "schema",
    "schema_json", "construct", "validate", "update_forward_refs"})


def _models(classes: dict[str, list[ClassInfo]], roots: list[str]) -> dict[str, Schema]:
    """The pydantic models and dataclasses the graph's state holds, read in full."""
    found = state_models(classes, roots)
    return {name: s for name, s in found.items() if s.kind in ("pydantic", "dataclass")}


def _refers(sf: SourceFile, name: str, schema: Schema) -> bool:
    """Whether ``name`` in this file is the repository's model: defined here, or imported
    by name from the module file that defines it."""
    home = schema.location.rsplit(":", 1)[0]
    if home == sf.path:
        return True
    for node in sf.root.named_children:
        if node.type != "import_from_statement":
            continue
        module = node.child_by_field_name("module_name")
        names = [sf.text(c) for c in node.named_children
                 if c.type == "dotted_name" and c != module]
        if name not in names:
            continue
        text = sf.text(module)
        dots = len(text) - len(text.lstrip("."))
        stem = text.lstrip(".").replace(".", "/")
        if dots:
            base = sf.path.split("/")[:-1]
            base = base[: len(base) - (dots - 1)] if dots > 1 else base
            stem = "/".join([*base, stem]) if stem else "/".join(base)
        return home == f"{stem}.py" or (not dots and home.endswith(f"/{stem}.py"))
    return False


def _typed_names(sf: SourceFile, fn: Node, nodes: list[Node],
                 models: dict[str, Schema]) -> dict[str, str]:
    """Names of one function (its own ``nodes``) whose model type is certain."""
    known: dict[str, str] = {}
    params = fn.child_by_field_name("parameters")
    for child in params.named_children if params is not None else []:
        if child.type in ("typed_parameter", "typed_default_parameter"):
            kind = sf.text(child.child_by_field_name("type")).strip("\"'")
            ident = child.child_by_field_name("name") or child.named_children[0]
            if kind in models and _refers(sf, kind, models[kind]):
                known[sf.text(ident)] = kind
    bound: dict[str, list[Node]] = {}
    for node in nodes:
        if node.type in ("assignment", "augmented_assignment", "for_statement",
                         "named_expression", "with_item", "as_pattern"):
            left = node.child_by_field_name("left") or node.child_by_field_name("name")
            if left is not None:
                for ident in walk(left):
                    if ident.type == "identifier":
                        bound.setdefault(sf.text(ident), []).append(node)
    for name, assigns in bound.items():
        right = assigns[0].child_by_field_name("right") if len(assigns) == 1 else None
        ctor = sf.text(right.child_by_field_name("function")) \
            if right is not None and right.type == "call" else ""
        if name in known:
            known.pop(name)  # reassigned: its type is no longer certain
        elif ctor in models and _refers(sf, ctor, models[ctor]):
            known[name] = ctor
    return known


def _misused(sf: SourceFile, fn: Node, models: dict[str, Schema]) -> list[tuple[str, str, str]]:
    """(location, model, attribute) of attributes read on typed names but not defined."""
    nodes = own_nodes(fn)
    known = _typed_names(sf, fn, nodes, models)
    out = []
    for node in nodes if known else []:
        if node.type != "attribute":
            continue
        obj = node.child_by_field_name("object")
        attr = sf.text(node.child_by_field_name("attribute"))
        if obj is None or obj.type != "identifier" or sf.text(obj) not in known:
            continue
        schema = models[known[sf.text(obj)]]
        parent = node.parent
        stored = parent is not None and parent.type == "assignment" and \
            parent.child_by_field_name("left") == node
        if stored or attr.startswith("__") or attr in schema.fields or \
                attr in schema.members or attr in _MODEL_API:
            continue
        out.append((sf.loc(node), schema.name, attr))
    return out


def _bad_keywords(sf: SourceFile, call: Node,
                  models: dict[str, Schema]) -> list[tuple[str, str, str]]:
    """(location, model, keyword) of constructor keywords that name no field."""
    name = sf.text(call.child_by_field_name("function"))
    schema = models.get(name)
    if schema is None or schema.custom_init or not _refers(sf, name, schema):
        return []
    args = call.child_by_field_name("arguments")
    out = []
    for child in args.named_children if args is not None else []:
        if child.type == "keyword_argument":
            key = sf.text(child.child_by_field_name("name"))
            if key not in schema.fields and key not in schema.aliases:
                out.append((sf.loc(child), schema.name, key))
    return out


def model_misuse(index: SourceIndex, classes: dict[str, list[ClassInfo]], roots: list[str],
                 detective: str) -> list[Evidence]:
    """Rule: a model the state holds (or the state itself) is read or built with a field
    it does not define."""
    models = _models(classes, roots)
    hits: list[tuple[str, str, str, bool]] = []
    names = [name.encode() for name in models]
    for sf in index.files:
        # A file that never names a model can neither annotate nor build one.
        if is_test_path(sf.path) or not any(name in sf.source for name in names):
            continue
        for caps in matches("functions", sf.root):
            hits += [(*h, False) for h in _misused(sf, caps["function"][0], models)]
        hits += [(*h, True) for node in walk(sf.root) if node.type == "call"
                 for h in _bad_keywords(sf, node, models)]
    out = []
    for where, model, attr, keyword in hits[:PER_RULE]:
        schema = models[model]
        effect = ("the keyword is not a field: a dataclass raises TypeError" if
                  schema.kind == "dataclass" else "the keyword is not a field: pydantic "
                  "drops the value (or rejects it when extra fields are forbidden)") \
            if keyword else "reading it raises AttributeError"
        usage = f"{model}({attr}=...) is built" if keyword else f"{model}.{attr} is read"
        out.append(make(
            detective, "Model used with a field it does not define", True, where,
            f"{usage} at {where}, but {model} ({schema.location}) defines no field {attr}: "
            f"{effect}.", 0.75, TAGS, content=f"{where} {model}.{attr}", direction="adverse",
            fix=f"use one of {model}'s fields "
            f"({', '.join(sorted(schema.fields)[:8]) or 'none'}) at {where}, or add {attr} "
            f"to {model} at {schema.location}."))
    return out
