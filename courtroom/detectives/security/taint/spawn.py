"""The ``os.exec*``, ``os.spawn*`` and ``os.posix_spawn*`` families: a program and its
argument vector, no shell of their own.

They run attacker code when the program comes from the input, or when the program is a
shell (``os.execv("/bin/sh", ["sh", "-c", script])``) and the input reaches its arguments.
An argument passed to any other program is an argument, never a command line. The call's
name says how its arguments are laid out: ``spawn*`` takes a mode first, ``l`` lists the
arguments one by one where ``v`` (and ``posix_spawn``) takes one vector, and ``e`` adds an
environment after them.
"""

from __future__ import annotations

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import library
from courtroom.detectives.security.taint.frame import Frame
from courtroom.detectives.security.taint.values import CLEAN, Val, element, merge

_FAMILY = ("execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
           "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp",
           "spawnvpe", "posix_spawn", "posix_spawnp")
#: Every member of the families, by qualified name.
EXECS = frozenset(f"os.{name}" for name in _FAMILY)


def command(name: str, positional: list[Val]) -> tuple[Val, Val]:
    """(program, the arguments after ``argv[0]``) of a call of the families."""
    short = name.rsplit(".", 1)[-1]
    rest = positional[1:] if short.startswith("spawn") else positional
    if not rest:
        return CLEAN, CLEAN
    program, after = rest[0], rest[1:]
    letters = short.removeprefix("posix_").removeprefix("spawn").removeprefix("exec")
    if short.startswith("posix_") or letters.startswith("v"):
        vector = after[0] if after else CLEAN
        return program, merge(vector.seq[1:]) if vector.seq is not None else element(vector)
    listed = after[:-1] if "e" in letters else after
    return program, merge(listed[1:])


def execute(frame: Frame, node: Node, name: str, positional: list[Val]) -> Val:
    """Record shell injection when the input chooses the program or scripts a shell."""
    program, arguments = command(name, positional)
    sink = library.SINKS["os.system"]
    if program.tainted:
        frame.engine.sink(frame, node, sink, program, name)
    elif "shell" in program.flags:
        frame.engine.sink(frame, node, sink, arguments, name)
    return CLEAN
