"""Drive the interpreter over a repository: every function is a root, calls are followed.

Each function (and each module's top level) is interpreted once as a root; its parameters
are attacker data only when it is an entry point (a web route, a registered tool or graph
node, a decorated handler). Calls into the repository are interpreted with the caller's
abstract arguments, memoised per argument shape, to a fixed depth; recursion is cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom.detectives.common import is_test_path
from courtroom.detectives.parsing import Node, SourceFile, captures
from courtroom.detectives.security.taint import library
from courtroom.detectives.security.taint.entry import Entry, called_names, entry_points
from courtroom.detectives.security.taint.frame import Env, Frame
from courtroom.detectives.security.taint.program import (
    ClassRef,
    Flow,
    FuncRef,
    Instance,
    ModuleInfo,
    Program,
    absolute_module,
)
from courtroom.detectives.security.taint.values import (
    ALL,
    API,
    CLEAN,
    LOCAL,
    XSS,
    Step,
    Val,
    join,
    merge,
    tainted,
)

if TYPE_CHECKING:
    from courtroom.detectives.security.taint.calls import Args
    from courtroom.detectives.security.taint.library import Sink

#: How deep calls into the repository are followed from a root.
MAX_DEPTH = 3
Key = tuple[int, str, tuple[object, ...]]


def _shape(v: Val) -> object:
    return (v.kinds, v.ref, id(v.inst) if v.inst is not None else 0, v.flags)


def _opaque(v: Val) -> Val:
    """An argument as a callee sees it: taint and identity, not constants or contents.

    Calls are memoised by argument shape; a callee that saw constants or container
    contents could return a result that holds only for the first caller.
    """
    return Val(kinds=v.kinds, ref=v.ref, inst=v.inst, flags=v.flags, steps=v.steps)


class Engine:
    """The analysis of one repository; ``flows`` holds what it found."""

    def __init__(self, files: list[SourceFile]) -> None:
        self.program = Program(files)
        self.files = files
        self.flows: dict[tuple[str, int, int, str], Flow] = {}
        self._memo: dict[Key, tuple[Val, dict[str, Val]]] = {}
        self._active: set[Key] = set()
        self._globals: dict[str, Env] = {}
        self._computing: set[str] = set()
        self._entries: dict[int, Entry] = {}
        self._called: set[str] = set()
        #: Files whose analysis could not finish, with the reason.
        self.unfinished: dict[str, str] = {}

    def run(self) -> list[Flow]:
        """Analyse every module and every function as a root."""
        functions: list[tuple[SourceFile, list[Node]]] = []
        for sf in self.files:
            found = captures("taint", sf.root)
            defs, calls = found.get("function", []), found.get("call", [])
            self._entries.update(entry_points(sf, defs, calls))
            self._called |= called_names(sf, calls)
            functions.append((sf, defs))
        for sf, defs in functions:
            try:
                self.module_env(sf)
                for node in defs:
                    self._root(sf, node)
            except RecursionError:
                # Code nested deeper than the interpreter's stack: say so (the scan is
                # incomplete) rather than lose every other file's findings.
                self.unfinished[sf.path] = "nested too deeply for the taint analysis"
                self._active.clear()
                self._computing.clear()
        return sorted(self.flows.values(), key=lambda f: (f.path, f.line, f.column, f.rule))

    def module_env(self, sf: SourceFile) -> Env:
        """A module's globals after its top level ran (computed once)."""
        name = self.program.module_of(sf)
        if name in self._globals:
            return self._globals[name]
        if name in self._computing:
            return {}
        self._computing.add(name)
        frame = Frame(self, sf, {}, {})
        frame.module_env = frame.env
        env = frame.run(sf.root, frame.env) or frame.env
        self._globals[name] = env
        self._computing.discard(name)
        return env

    def _root(self, sf: SourceFile, node: Node) -> None:
        entry = self._entries.get(node.id)
        owner = self._owner(sf, node)
        called = sf.text(node.child_by_field_name("name")) in self._called
        plain = entry is None and called
        key = _clean_key(node, sf, Instance(owner) if owner is not None else None)
        if plain and key in self._memo:
            return  # already interpreted as a callee given nothing tainted: same result
        html = bool(entry and entry.web and entry.html)
        frame = Frame(self, sf, {}, self.module_env(sf), route=html,
                      route_path=entry.path if entry is not None else None)
        params = _params(frame, node)
        for i, (name, _default) in enumerate(params):
            if i == 0 and owner is not None and name in ("self", "cls"):
                frame.env[name] = Val(inst=Instance(owner))
            elif entry is not None:
                frame.env[name] = tainted(entry.kinds, frame.at(node, f"parameter {name} of "
                                                                      f"{entry.what}"),
                                          frozenset({"request"}) if name == "request" and
                                          entry.web else frozenset())
            elif not called and not is_test_path(sf.path):
                # (A test's parameters are fixtures the test runner passes, not input.)
                # Nothing in the repository calls it: an API whose callers choose the
                # argument. Passing it on whole is the API's purpose ("run this command");
                # building a command, query or path from it is injection.
                frame.env[name] = tainted(LOCAL, frame.at(node, f"parameter {name} of an "
                                                                "API nothing here calls"),
                                          frozenset({API}))
        frame.run(node.child_by_field_name("body"), frame.env)
        if plain:
            self._memo[key] = (_joined(frame.returns) if frame.returns else CLEAN, {})

    def _owner(self, sf: SourceFile, node: Node) -> ClassRef | None:
        parent = node.parent
        if parent is not None and parent.type == "decorated_definition":
            parent = parent.parent
        cls = parent.parent if parent is not None and parent.type == "block" else None
        if cls is None or cls.type != "class_definition":
            return None
        found = self.program.resolve(f"{self.program.module_of(sf)}."
                                     f"{sf.text(cls.child_by_field_name('name'))}")
        return found if isinstance(found, ClassRef) else None

    def global_value(self, sf: SourceFile, name: str) -> Val:
        """An unbound name: a builtin or a global of this module's own scope."""
        return Val(ref=name)

    def qualified(self, name: str, at: Step) -> Val:
        """The value a dotted name denotes: a repository definition, a source, or a name."""
        found = self.program.resolve(name)
        if isinstance(found, FuncRef | ClassRef):
            return Val(inst=found, ref=None)
        if isinstance(found, ModuleInfo):
            return Val(ref=name)
        head, _, attr = name.rpartition(".")
        info = self.program.modules.get(head)
        if info is not None:
            env = self.module_env(info.sf)
            return env.get(attr, CLEAN)
        if name in library.REQUESTS:
            return Val(kinds=ALL, ref=name, flags=frozenset({"request"}), steps=(at,))
        if name in library.LOCAL_ATTRS:
            return tainted(library.LOCAL_KINDS, at)
        return Val(ref=name)

    def imports(self, frame: Frame, node: Node) -> None:
        """Bind the names an import statement introduces."""
        at = frame.at(node, frame.text(node))
        if node.type == "import_statement":
            for child in node.named_children:
                if child.type == "aliased_import":
                    target = frame.sf.text(child.child_by_field_name("name"))
                    frame.env[frame.sf.text(child.child_by_field_name("alias"))] = \
                        self.qualified(target, at)
                else:
                    head = frame.sf.text(child).split(".")[0]
                    frame.env[head] = Val(ref=head)
            return
        module_node = node.child_by_field_name("module_name")
        module = absolute_module(frame.sf.path, frame.sf.text(module_node))
        for child in node.named_children:
            if child == module_node:
                continue
            if child.type == "aliased_import":
                name = frame.sf.text(child.child_by_field_name("name"))
                alias = frame.sf.text(child.child_by_field_name("alias"))
            elif child.type == "dotted_name":
                name = alias = frame.sf.text(child)
            else:
                continue
            frame.env[alias] = self.qualified(f"{module}.{name}", at)



    def call_function(self, caller: Frame, node: Node, func: FuncRef, args: Args,
                      instance: Instance | None) -> Val:
        """Interpret a repository function on abstract arguments (memoised)."""
        positional, keywords = args
        at = caller.at(node, f"passed to {func.name}()")
        passed = [_opaque(v).step(at) for v in positional]
        keyed = {k: _opaque(v).step(at) for k, v in keywords.items()}
        state = (id(instance.cls), tuple(sorted((k, _shape(v)) for k, v in
                                                instance.attrs.items()))) \
            if instance is not None else None
        key: Key = (func.node.id, func.sf.path, (tuple(_shape(v) for v in passed),
                                                tuple(sorted((k, _shape(v)) for k, v in
                                                             keyed.items())), state))
        if all(_inert(v) for v in (*passed, *keyed.values())):
            key = _clean_key(func.node, func.sf, instance)
        if caller.depth >= MAX_DEPTH or key in self._active:
            # Not followed: the result carries the arguments' taint, but nothing is known
            # of its shape (it may be a list), so no sink reads it as a program name.
            cut = merge([*passed, *keyed.values()])
            return Val(kinds=cut.kinds, flags=frozenset({"opaque"}), steps=cut.steps)
        if key in self._memo:
            # Same arguments and same object state: same result and same attribute writes.
            result, attrs = self._memo[key]
            if instance is not None:
                instance.attrs.update(attrs)
            return result
        self._active.add(key)
        frame = Frame(self, func.sf, {}, self.module_env(func.sf), depth=caller.depth + 1,
                      self_inst=instance)
        params = _params(frame, func.node)
        if instance is not None and params and params[0][0] in ("self", "cls"):
            frame.env[params[0][0]] = Val(inst=instance)
            params = params[1:]
        for i, (name, default) in enumerate(params):
            if name.startswith("*"):
                rest = list(keyed.values()) if name.startswith("**") else passed[i:]
                frame.env[name.lstrip("*")] = merge(rest)
                continue
            frame.env[name] = passed[i] if i < len(passed) else keyed.get(name, default)
        frame.run(func.node.child_by_field_name("body"), frame.env)
        self._active.discard(key)
        result = merge([]) if not frame.returns else _joined(frame.returns)
        self._memo[key] = (result, dict(instance.attrs) if instance is not None else {})
        return result

    def construct(self, caller: Frame, node: Node, cls: ClassRef, args: Args) -> Val:
        """An instance of a repository class, its ``__init__`` run on the arguments."""
        instance = Instance(cls)
        init = self.program.method(cls, "__init__")
        if init is not None:
            self.call_function(caller, node, init, args, instance)
        return Val(inst=instance)

    def sink(self, frame: Frame, node: Node, sink: Sink, value: Val, callee: str) -> None:
        """Record a flow when ``value`` carries taint the sink cares about."""
        if sink.kind not in value.kinds or API in value.flags:
            return
        at = frame.at(node, f"reaches {callee}()")
        key = (frame.sf.path, at.line, at.column, sink.rule)
        if key not in self.flows:
            self.flows[key] = Flow(sink.rule, sink.kind, sink.cwe, frame.sf.path, at.line,
                                   at.column, callee, (*value.steps, at))

    def returned(self, frame: Frame, node: Node, value: Val) -> None:
        """A return: collected for the caller; a web route's response body is an XSS sink."""
        frame.returns.append(value)
        if frame.route and frame.depth == 0 and XSS in value.kinds and value.items is None:
            self.sink(frame, node, library.Sink(XSS, "cross-site-scripting", 79), value,
                      "the response body")


def _inert(v: Val) -> bool:
    """An argument that cannot change what a callee does: untainted, no object, no name."""
    return not v.kinds and v.inst is None and v.ref is None and not v.flags


def _clean_key(node: Node, sf: SourceFile, instance: Instance | None) -> Key:
    """The memo key of a function run with nothing tainted (as a root or as a callee)."""
    state = (id(instance.cls), tuple(sorted((k, _shape(v)) for k, v in
                                            instance.attrs.items()))) \
        if instance is not None else None
    return (node.id, sf.path, ("clean", state))


def _joined(values: list[Val]) -> Val:
    out = values[0]
    for v in values[1:]:
        out = join(out, v)
    return out


def _params(frame: Frame, func: Node) -> list[tuple[str, Val]]:
    """Parameter names (``*args``/``**kw`` keep their stars) with their defaults' values."""
    params = func.child_by_field_name("parameters")
    out: list[tuple[str, Val]] = []
    for p in params.named_children if params is not None else []:
        if p.type == "identifier":
            out.append((frame.sf.text(p), CLEAN))
        elif p.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            stars = "*" if p.type == "list_splat_pattern" else "**"
            out.append((stars + frame.sf.text(p.named_children[0] if p.named_children else p),
                        CLEAN))
        elif p.type in ("default_parameter", "typed_default_parameter", "typed_parameter"):
            name = p.child_by_field_name("name") or next(
                (c for c in p.named_children if c.type == "identifier"), None)
            value = p.child_by_field_name("value")
            default = frame.eval(value) if value is not None and value.type in (
                "string", "integer", "float", "true", "false", "none") else CLEAN
            if name is not None:
                out.append((frame.sf.text(name), default))
    return out
