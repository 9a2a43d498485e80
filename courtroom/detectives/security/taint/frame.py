"""One activation of the interpreter: a function body (or a module) and its variables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from courtroom.detectives.parsing import Node, SourceFile
from courtroom.detectives.security.taint import calls, exprs, stmts
from courtroom.detectives.security.taint.values import CLEAN, Step, Val

if TYPE_CHECKING:
    from courtroom.detectives.security.taint.engine import Engine
    from courtroom.detectives.security.taint.program import Instance

Env = dict[str, Val]


@dataclass
class Frame:
    """Variables of one activation, plus where its returns and loop exits go."""

    engine: Engine
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

    def at(self, node: Node, note: str) -> Step:
        """A path step at ``node``."""
        return Step(self.sf.path, node.start_point[0] + 1, node.start_point[1] + 1, note)

    def text(self, node: Node | None) -> str:
        """Source text of a node, one line, capped."""
        return " ".join(self.sf.text(node).split())[:80]

    def lookup(self, name: str) -> Val:
        """A variable's value: local, then module global, else a builtin by name."""
        if name in self.env:
            return self.env[name]
        if name in self.module_env:
            return self.module_env[name]
        return self.engine.global_value(self.sf, name)

    def eval(self, node: Node | None) -> Val:
        """The abstract value of an expression."""
        return CLEAN if node is None else exprs.evaluate(self, node)

    def call(self, node: Node) -> Val:
        """The abstract value of a call (recording any sink it reaches)."""
        return calls.call(self, node)

    def run(self, block: Node | None, env: Env | None) -> Env | None:
        """Execute a block from ``env``; None when every path through it leaves."""
        return stmts.execute(self, block, env)

    def bind(self, target: Node | None, value: Val) -> None:
        """Assign ``value`` to an assignment target (a name, a pattern, an item ...)."""
        stmts.bind(self, target, value)
