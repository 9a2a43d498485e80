"""Drive the interpreter over a repository: every function is a root, calls are followed.

Each function (and each module's top level) is interpreted once as a root; its parameters
are attacker data only when it is an entry point (a web route, a registered tool or graph
node, a decorated handler). Calls into the repository are interpreted with the caller's
abstract arguments (:mod:`callee`). The engine is the frames' :class:`~.frame.Interpreter`:
it wires expressions, statements and calls together, so none of those modules imports another
in a loop.
"""

from __future__ import annotations

from courtroom.detectives.common import is_test_path
from courtroom.detectives.parsing import Node, SourceFile, captures
from courtroom.detectives.security.taint import calls, exprs, library, stmts
from courtroom.detectives.security.taint.callee import WORK_PER_FUNCTION, Callees, joined
from courtroom.detectives.security.taint.entry import Entry, called_names, entry_points
from courtroom.detectives.security.taint.frame import Args, Env, Frame, Signature
from courtroom.detectives.security.taint.handlers import Registration, Registry, registrations
from courtroom.detectives.security.taint.keys import clean_key
from courtroom.detectives.security.taint.library import Sink
from courtroom.detectives.security.taint.params import parameters
from courtroom.detectives.security.taint.program import (
    ClassRef,
    Flow,
    FuncRef,
    Instance,
    ModuleInfo,
    Program,
    definition_at,
)
from courtroom.detectives.security.taint.state import Shared
from courtroom.detectives.security.taint.values import (
    ALL,
    API,
    CLEAN,
    LOCAL,
    XSS,
    Step,
    Val,
    tainted,
)

#: How many times roots are run while functions keep adding taint to shared state (a
#: global or class attribute one function writes and another, run earlier, read): the
#: passes after the first run again only the functions that name a variable whose taint
#: grew, as roots and as callees (the others' memoised results stand).
MAX_PASSES = 3
#: Where a function lies in its file: start and end byte.
Span = tuple[int, int]


class Engine:
    """The analysis of one repository; ``flows`` holds what it found."""

    def __init__(self, files: list[SourceFile], texts: dict[str, str] | None = None) -> None:
        self.program = Program()
        self.files = files
        self.texts = texts or {}
        self.signatures: dict[tuple[str, int], Signature] = {}
        self.flows: dict[tuple[str, int, int, str], Flow] = {}
        self.callees = Callees()
        self.shared = Shared()
        self._globals: dict[str, Env] = {}
        self._computing: set[str] = set()
        #: Entry points by file and start byte (a file's found when its roots first run).
        self._entries: dict[str, dict[int, Entry]] = {}
        #: Every function of each file, by where it lies.
        self._spans: dict[str, list[Span]] = {}
        self._called: set[str] = set()
        #: Files whose analysis could not finish, with the reason.
        self.unfinished: dict[str, str] = {}

    def run(self) -> list[Flow]:
        """Analyse every module and every function as a root."""
        # Functions by where they lie (a node would hold its file's tree all along).
        functions: list[tuple[SourceFile, list[Span]]] = []
        found: list[Registration] = []
        for sf in self.files:
            root = sf.root  # (read once: every file's tree is read here, then in each pass)
            self.program.add(sf, root)
            nodes = captures("taint", root)
            found += registrations(sf, nodes.get("call", []))
            self._called |= called_names(sf, nodes.get("call", []))
            self._spans[sf.path] = [(n.start_byte, n.end_byte)
                                    for n in nodes.get("function", [])]
            functions.append((sf, self._spans[sf.path]))
        # A handler may be registered in another module (a URLconf): gather them all first.
        registry = Registry(found, [d for m in self.program.modules.values()
                                    for d in m.defs.values() if isinstance(d, ClassRef)])
        roots, base = functions, self.callees.work
        for _ in range(MAX_PASSES):
            # Each pass may interpret as many calls as a first pass over its roots would.
            self.callees.work = base + WORK_PER_FUNCTION * sum(len(d) for _sf, d in roots)
            self.shared.grown.clear()
            self._pass(roots, registry)
            if not self.shared.grown or self.callees.work <= 0:
                break  # (a spent budget would only cut the calls of another pass)
            names = [name.encode() for name in self.shared.grown]
            roots = [(sf, [(start, end) for start, end in spans if any(
                name in sf.source[start:end] for name in names)])
                for sf, spans in functions]
            # What those functions computed before the shared state grew is stale.
            self.callees.forget({(sf.path, start) for sf, spans in roots
                                 for start, _end in spans})
        return self._finish()

    def _pass(self, roots: list[tuple[SourceFile, list[Span]]], registry: Registry) -> None:
        """Interpret every module and, as roots, the functions given."""
        for sf, spans in roots:
            try:
                every = self._spans[sf.path]
                known = sf.path in self._entries
                # (One read of the tree for all of a file's roots; none when it needs none.)
                root = sf.root if spans or (every and not known) else None
                defs = _definitions(root, spans)
                if not known:
                    # From every function of the file, before its top level runs (which
                    # may stop at the stack's depth), whichever a later pass runs.
                    self._entries[sf.path] = entry_points(
                        sf, defs if spans is every else _definitions(root, every), registry)
                self.module_env(sf)
                for node in defs:
                    self._root(sf, node)
            except RecursionError:
                # Code nested deeper than the interpreter's stack: say so (the scan is
                # incomplete) rather than lose every other file's findings.
                self.unfinished[sf.path] = "nested too deeply for the taint analysis"
                self.callees.reset()
                self._computing.clear()

    def _finish(self) -> list[Flow]:
        """The flows found, after saying which files' analysis stopped at a bound."""
        cuts = sorted(self.callees.cuts.values(), key=lambda f: (f.path, f.line, f.column))
        for path in dict.fromkeys(f.path for f in cuts):
            lines = ", ".join(str(f.line) for f in cuts if f.path == path)
            # A flow not followed to its end may reach a sink: the scan is incomplete.
            reason = (f"analysis bound reached: attacker data passed on at line(s) {lines} "
                      f"was not followed to its end")
            self.unfinished[path] = "; ".join(filter(None, (self.unfinished.get(path), reason)))
        return sorted([*self.flows.values(), *cuts],
                      key=lambda f: (f.path, f.line, f.column, f.rule))

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
        entry = self._entries[sf.path].get(node.start_byte)
        owner = self._owner(sf, node)
        called = sf.text(node.child_by_field_name("name")) in self._called
        plain = entry is None and called
        key = clean_key(node, sf, Instance(owner) if owner is not None else None)
        if plain and key in self.callees.memo:
            return  # already interpreted as a callee given nothing tainted: same result
        html = bool(entry and entry.web and entry.html)
        frame = Frame(self, sf, {}, self.module_env(sf), route=html,
                      route_path=entry.path if entry is not None else None)
        params = parameters(frame, node)
        for i, (starred, _default) in enumerate(params):
            name = starred.lstrip("*")
            if i == 0 and owner is not None and name in ("self", "cls"):
                attrs = entry.self_attrs(frame.at(node, f"request data on {name}")) \
                    if entry is not None else {}
                frame.env[name] = Val(inst=Instance(owner, attrs))
            elif entry is not None:
                frame.env[name] = entry.parameter(name, frame.at(
                    node, f"parameter {name} of {entry.what}"))
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
            self.callees.memo[key] = (joined(frame.returns), {})

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

    # The wiring is the modules' functions themselves, not methods that call them: a
    # frame evaluates millions of expressions, and a forwarding call each doubles the
    # interpreter's own frames on that path.
    #: The abstract value of an expression.
    evaluate = staticmethod(exprs.evaluate)
    #: The abstract value of a call expression (recording any sink it reaches).
    call = staticmethod(calls.call)
    #: Run a block from ``env``; None when every path through it leaves.
    execute = staticmethod(stmts.execute)
    #: Assign a value to an assignment target.
    bind = staticmethod(stmts.bind)
    #: Call a value (a function, a class, a library name) on evaluated arguments.
    invoke = staticmethod(calls.invoke)

    def call_function(self, caller: Frame, node: Node, func: FuncRef, args: Args,
                      instance: Instance | None) -> Val:
        """Interpret a repository function on abstract arguments (memoised)."""
        return self.callees.call(caller, node, func, args, instance)

    def construct(self, caller: Frame, node: Node, cls: ClassRef, args: Args) -> Val:
        """An instance of a repository class, its ``__init__`` run on the arguments."""
        return self.callees.construct(caller, node, cls, args)

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
            self.sink(frame, node, Sink(XSS, "cross-site-scripting", 79), value,
                      "the response body")


def _definitions(root: Node | None, spans: list[Span]) -> list[Node]:
    """The functions lying at ``spans`` in the tree ``root`` (none without a tree)."""
    return [definition_at(root, start) for start, _end in spans] if root is not None else []
