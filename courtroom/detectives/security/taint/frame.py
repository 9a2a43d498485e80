"""One activation of the interpreter, and what it asks of the interpreter running it.

The expression, statement and call modules reach each other only through the frame's
``engine``, typed here as the :class:`Interpreter` protocol: this module imports none of
them, so they all sit below the engine that wires them together and none imports another
in a loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from courtroom.detectives.parsing import Node, SourceFile
from courtroom.detectives.security.taint.library import Sink
from courtroom.detectives.security.taint.program import ClassRef, FuncRef, Instance, Program
from courtroom.detectives.security.taint.state import Shared
from courtroom.detectives.security.taint.values import CLEAN, Step, Val

Env = dict[str, Val]
#: Positional and keyword argument values of a call.
Args = tuple[list[Val], dict[str, Val]]
#: A function's parameter names (``*args``/``**kw`` keep their stars), each with where its
#: default lies (start and end byte) when that is a literal: spans, not nodes, so a
#: signature read once does not hold its file's tree.
Signature = tuple[tuple[str, tuple[int, int] | None], ...]


class Interpreter(Protocol):
    """The services a frame's code needs: evaluation, execution, calls, sinks, names."""

    program: Program
    shared: Shared
    #: Text files of the repository by path: templates (what a render call reads) and
    #: dependency files (which library versions the code runs with).
    texts: dict[str, str]
    #: Signatures of the repository's functions read so far, by (path, start byte).
    signatures: dict[tuple[str, int], Signature]

    def evaluate(self, frame: Frame, node: Node) -> Val:
        """The abstract value of an expression."""

    def call(self, frame: Frame, node: Node) -> Val:
        """The abstract value of a call expression (recording any sink it reaches)."""

    def execute(self, frame: Frame, block: Node | None, env: Env | None) -> Env | None:
        """Run a block from ``env``; None when every path through it leaves."""

    def bind(self, frame: Frame, target: Node | None, value: Val) -> None:
        """Assign a value to an assignment target."""

    def module_env(self, sf: SourceFile) -> Env:
        """A module's globals after its top level ran."""

    def global_value(self, sf: SourceFile, name: str) -> Val:
        """An unbound name: a builtin or a global of this module's own scope."""

    def qualified(self, name: str, at: Step) -> Val:
        """The value a dotted name denotes."""

    def invoke(self, frame: Frame, node: Node, callee: Val, args: Args) -> Val:
        """Call a value (a function, a class, a library name) on evaluated arguments."""

    def call_function(self, caller: Frame, node: Node, func: FuncRef, args: Args,
                      instance: Instance | None) -> Val:
        """Interpret a repository function on abstract arguments."""

    def construct(self, caller: Frame, node: Node, cls: ClassRef, args: Args) -> Val:
        """An instance of a repository class, its ``__init__`` run on the arguments."""

    def sink(self, frame: Frame, node: Node, sink: Sink, value: Val, callee: str) -> None:
        """Record a flow when ``value`` carries taint the sink cares about."""

    def returned(self, frame: Frame, node: Node, value: Val) -> None:
        """A return statement's value."""


@dataclass
class Frame:
    """Variables of one activation, plus where its returns and loop exits go."""

    engine: Interpreter
    sf: SourceFile
    env: Env
    module_env: Env
    depth: int = 0
    route: bool = False
    route_path: str | None = None
    self_inst: Instance | None = None
    returns: list[Val] = field(default_factory=list)
    exits: list[Env] = field(default_factory=list)
    loops: int = 0
    #: Names this function declares ``global``: assigning one writes the module's variable.
    declared: set[str] = field(default_factory=set)
    #: Values raised in the ``try`` body being run (an ``except ... as e`` handler's ``e``).
    raised: list[Val] = field(default_factory=list)

    def at(self, node: Node, note: str) -> Step:
        """A path step at ``node``."""
        row, column = node.start_point
        return Step(self.sf.path, row + 1, column + 1, note)

    def text(self, node: Node | None) -> str:
        """Source text of a node, one line, capped."""
        return " ".join(self.sf.text(node).split())[:80]

    def lookup(self, name: str) -> Val:
        """A variable's value: local, then module global, else a builtin by name."""
        value = self.env.get(name)
        if value is None:
            value = self.module_env.get(name)
        return self.engine.global_value(self.sf, name) if value is None else value

    def eval(self, node: Node | None) -> Val:
        """The abstract value of an expression."""
        return CLEAN if node is None else self.engine.evaluate(self, node)

    def call(self, node: Node) -> Val:
        """The abstract value of a call (recording any sink it reaches)."""
        return self.engine.call(self, node)

    def run(self, block: Node | None, env: Env | None) -> Env | None:
        """Execute a block from ``env``; None when every path through it leaves."""
        return self.engine.execute(self, block, env)

    def bind(self, target: Node | None, value: Val) -> None:
        """Assign ``value`` to an assignment target (a name, a pattern, an item ...)."""
        self.engine.bind(self, target, value)
