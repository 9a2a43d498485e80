"""Handlers named elsewhere: functions registered by a call, methods of handler classes.

A URLconf (``path("items/", views.items)``) or a router table (``router.add_get("/", h)``)
often sits in another module than the function it exposes, so registrations are gathered
from the whole repository first; a function is a handler when a registration names it and
the module it was imported from. A method is a handler when its class derives, directly or
through classes of the repository, from a framework's handler base.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from courtroom.detectives.parsing import Node, SourceFile
from courtroom.detectives.security.taint import library
from courtroom.detectives.security.taint.program import ClassRef, absolute_module, module_name
from courtroom.detectives.security.taint.spec import FRAMEWORKS, Framework, matches

#: Bases are matched to the repository's classes by name; a name many classes share (a
#: repository built to be slow) is followed to its first few.
MAX_NAMESAKES = 8


@dataclass(frozen=True)
class Registration:
    """A function handed to a registrar: its name, its module's last name, by which frameworks.

    No framework means a local registrar (a model's tool, a graph node): not a web handler.
    """

    name: str
    module: str
    frameworks: tuple[Framework, ...]


def _imports(sf: SourceFile) -> dict[str, str]:
    """Local name -> qualified name, for the module's top-level imports."""
    out: dict[str, str] = {}
    for node in sf.root.named_children:
        if node.type == "import_statement":
            for child in node.named_children:
                if child.type == "aliased_import":
                    out[sf.text(child.child_by_field_name("alias"))] = \
                        sf.text(child.child_by_field_name("name"))
        elif node.type == "import_from_statement":
            module_node = node.child_by_field_name("module_name")
            module = absolute_module(sf.path, sf.text(module_node))
            for child in node.named_children:
                name_node = child.child_by_field_name("name") \
                    if child.type == "aliased_import" else child
                alias_node = child.child_by_field_name("alias") \
                    if child.type == "aliased_import" else child
                if child != module_node and name_node is not None and alias_node is not None:
                    out[sf.text(alias_node)] = f"{module}.{sf.text(name_node)}"
    return out


def _target(text: str, aliases: dict[str, str], own: str) -> tuple[str, str]:
    """(function name, last name of its module) of a registered ``f`` or ``views.f``."""
    head, _, name = text.rpartition(".")
    if not head:
        module, _, name = aliases.get(name, f"{own}.{name}").rpartition(".")
    else:
        first = head.split(".")[0]
        module = aliases.get(first, first) + head[len(first):]
    return name, module.rpartition(".")[2]


def registrations(sf: SourceFile, calls: list[Node]) -> list[Registration]:
    """Every function a call of this module registers as a handler."""
    applying = [f for f in FRAMEWORKS if f.applies(sf.source)]
    aliases: dict[str, str] | None = None
    own = module_name(sf.path)
    out: list[Registration] = []
    for node in calls:
        fn = node.child_by_field_name("function")
        short = sf.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
        frameworks = tuple(f for f in applying if short in f.handlers.registrars)
        if not frameworks and short not in library.REGISTRARS:
            continue
        aliases = _imports(sf) if aliases is None else aliases
        args = node.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else []:
            value = arg.child_by_field_name("value") if arg.type == "keyword_argument" else arg
            if value is not None and value.type in ("identifier", "attribute"):
                out.append(Registration(*_target(sf.text(value), aliases, own), frameworks))
    return out


class Registry:
    """The registrations of a repository and its classes, asked about one function at a time."""

    def __init__(self, found: list[Registration], classes: list[ClassRef]) -> None:
        # One module often registers many views: keyed and deduplicated, a lookup stays cheap.
        self._registered: dict[tuple[str, str], set[Registration]] = defaultdict(set)
        for reg in found:
            self._registered[reg.name, reg.module].add(reg)
        self._classes: dict[str, list[ClassRef]] = defaultdict(list)
        for cls in classes:
            self._classes[cls.name].append(cls)
        self._frameworks: dict[tuple[str, int], list[Framework]] = {}

    def registered(self, sf: SourceFile, name: str) -> list[Registration]:
        """The registrations naming a function ``name`` defined in ``sf``."""
        found = self._registered.get((name, module_name(sf.path).rpartition(".")[2]))
        return sorted(found, key=lambda r: [f.name for f in r.frameworks]) if found else []

    def handler_of(self, sf: SourceFile, cls: Node, method: str) -> list[Framework]:
        """The frameworks for which ``method`` of class ``cls`` (in ``sf``) is a handler."""
        return [f for f in self._derived(sf, cls)
                if any(matches(p, method) for p in f.handlers.methods)]

    def _derived(self, sf: SourceFile, cls: Node) -> list[Framework]:
        """The frameworks a class derives a handler base of (each class computed once)."""
        key = (sf.path, cls.start_byte)
        if key in self._frameworks:
            return self._frameworks[key]
        self._frameworks[key] = []  # a cycle of bases ends here
        supers = cls.child_by_field_name("superclasses")
        bases = [sf.text(c).rsplit(".", 1)[-1] for c in supers.named_children
                 if c.type in ("identifier", "attribute")] if supers is not None else []
        out = [f for f in FRAMEWORKS if f.handlers.methods and f.imported_by(sf.source) and
               (not f.handlers.bases or any(b in f.handlers.bases for b in bases))]
        for base in bases:
            for parent in self._classes.get(base, [])[:MAX_NAMESAKES]:
                out += self._derived(parent.sf, parent.node)
        self._frameworks[key] = list({f.name: f for f in out}.values())
        return self._frameworks[key]
