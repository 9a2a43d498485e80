"""The repository as one program: modules by dotted name, their functions and classes.

The interpreter asks it to resolve a qualified name (``helpers.utils.escape_for_html``) to
the definition it denotes, and to run a function of the repository on abstract arguments.
Each module is indexed by one pass over its top level (and its classes' bodies), so the
index grows linearly with the code; nothing here walks every call of every file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from courtroom.detectives.parsing import Node, SourceFile
from courtroom.detectives.security.taint.values import Made, Step, Val

DEFS = ("function_definition", "class_definition")
#: What a FuncRef or ClassRef may point at.
_DEFINED = frozenset({*DEFS, "lambda"})
#: The rule of a flow the analysis stopped following (its call chain went too deep): not
#: a sink reached, but attacker data whose fate is unknown, so the scan is incomplete.
BOUND_RULE = "analysis-bound"


def definition_at(root: Node, start: int) -> Node:
    """The ``def``, ``class`` or ``lambda`` that begins at byte ``start`` of a file."""
    node = root.descendant_for_byte_range(start, start + 1)
    # (From the keyword up: the ``lambda`` keyword's own type is "lambda", but unnamed.)
    while node is not None and node.start_byte == start and not (
            node.is_named and node.type in _DEFINED):
        node = node.parent
    if node is None or node.start_byte != start or node.type not in _DEFINED:
        # The same bytes parse to the same tree: a miss is a bug, never a quiet module.
        raise LookupError(f"no definition at byte {start}")
    return node


@dataclass(frozen=True, eq=False)
class FuncRef:
    """A function of the repository (a method when ``owner`` is set).

    It is known by where it begins, not by a node: a node holds its whole tree in memory,
    and the analysis keeps functions (in values and memo keys) for as long as it runs.
    """

    sf: SourceFile
    start: int
    module: str
    #: The function's own name ("lambda" for a lambda).
    name: str
    owner: ClassRef | None = None

    @property
    def node(self) -> Node:
        """The function's node, in its file's tree as read now."""
        return definition_at(self.sf.root, self.start)


@dataclass(frozen=True, eq=False)
class ClassRef:
    """A class of the repository, with its methods and base-class names."""

    sf: SourceFile
    start: int
    module: str
    name: str
    #: Method name -> where its ``def`` begins.
    methods: dict[str, int]
    bases: tuple[str, ...]

    @property
    def node(self) -> Node:
        """The class's node, in its file's tree as read now."""
        return definition_at(self.sf.root, self.start)


@dataclass(eq=False)
class Instance(Made):
    """An object of a repository class whose attributes the analysis has seen assigned."""

    cls: ClassRef
    attrs: dict[str, Val] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Bound(Made):
    """A method looked up on an instance."""

    func: FuncRef
    instance: Instance


@dataclass(frozen=True)
class Flow:
    """Attacker data reaching a sink: what, where, and the path it took."""

    rule: str
    kind: str
    cwe: int
    path: str
    line: int
    column: int
    sink: str
    steps: tuple[Step, ...]


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None and name.text else ""


def module_name(path: str) -> str:
    """The dotted module name of a repo-relative ``.py`` path."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def absolute_module(path: str, module: str) -> str:
    """``module`` as written in the file at ``path`` (``.x``, ``..y``), made absolute."""
    if not module.startswith("."):
        return module
    dots = len(module) - len(module.lstrip("."))
    package = module_name(path).split(".")
    if not path.endswith("__init__.py"):
        package = package[:-1]
    base = package[: len(package) - (dots - 1)] if dots > 1 else package
    rest = module.lstrip(".")
    return ".".join([*base, rest] if rest else base)


def definitions(body: Node) -> Iterator[Node]:
    """Function and class definitions directly in a block (decorated ones unwrapped)."""
    for child in body.named_children:
        node = child.child_by_field_name("definition") if child.type == "decorated_definition" \
            else child
        if node is not None and node.type in DEFS:
            yield node


@dataclass
class ModuleInfo:
    """One module's top-level definitions."""

    sf: SourceFile
    name: str
    defs: dict[str, FuncRef | ClassRef] = field(default_factory=dict)


class Program:
    """Every module of the repository, indexed by dotted name (``src/`` layouts too)."""

    def __init__(self) -> None:
        self.modules: dict[str, ModuleInfo] = {}
        self._module_names: dict[str, str] = {}

    def add(self, sf: SourceFile, root: Node) -> None:
        """Index one module's top level (``root`` is its tree, as the caller read it)."""
        name = module_name(sf.path)
        info = ModuleInfo(sf, name)
        for node in definitions(root):
            info.defs[_name(node)] = self._define(sf, node, name)
        self.modules[name] = info
        for prefix in ("src.", "lib."):
            if name.startswith(prefix):
                self.modules.setdefault(name[len(prefix):], info)

    @staticmethod
    def _define(sf: SourceFile, node: Node, module: str) -> FuncRef | ClassRef:
        if node.type == "function_definition":
            return FuncRef(sf, node.start_byte, module, _name(node) or "lambda")
        body = node.child_by_field_name("body")
        methods = {_name(n): n.start_byte for n in definitions(body)
                   if n.type == "function_definition"} \
            if body is not None else {}
        supers = node.child_by_field_name("superclasses")
        bases = tuple(c.text.decode("utf-8", "replace") for c in supers.named_children
                      if c.text and c.type in ("identifier", "attribute")) \
            if supers is not None else ()
        return ClassRef(sf, node.start_byte, module, _name(node), methods, bases)

    def module_of(self, sf: SourceFile) -> str:
        """The dotted name a file is indexed under."""
        name = self._module_names.get(sf.path)
        if name is None:  # (asked for every definition and import the interpreter runs)
            name = self._module_names[sf.path] = module_name(sf.path)
        return name

    def resolve(self, qualified: str) -> FuncRef | ClassRef | ModuleInfo | None:
        """The repository definition (or module) a dotted name denotes, if any."""
        if qualified in self.modules:
            return self.modules[qualified]
        head, _, attr = qualified.rpartition(".")
        info = self.modules.get(head)
        if info is not None:
            return info.defs.get(attr)
        return None

    def method(self, cls: ClassRef, name: str, depth: int = 0) -> FuncRef | None:
        """A method by name on a class or (by name, within the repository) its bases."""
        start = cls.methods.get(name)
        if start is not None:
            return FuncRef(cls.sf, start, cls.module, name or "lambda", cls)
        if depth > 4:
            return None
        info = self.modules.get(cls.module)
        for base in cls.bases:
            found = info.defs.get(base.split(".")[-1]) if info is not None else None
            if isinstance(found, ClassRef):
                return self.method(found, name, depth + 1)
        return None
