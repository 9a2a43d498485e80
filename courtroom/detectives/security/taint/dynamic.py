"""Calls that choose what they reach at run time, followed when the choice is a constant.

``getattr(os, "sys" + "tem")``, ``__import__("os")`` and ``importlib.import_module("os")``
denote what their constant (folded) names denote; ``setattr(obj, "a", v)`` is the
assignment ``obj.a = v``. Callables built from other callables keep what they wrap:
``functools.partial(f, a)`` is ``f`` with ``a`` bound first, ``operator.methodcaller("m", a)``
calls ``m`` on what it is given, ``map(f, xs)`` calls ``f`` on an element of ``xs``, and a
method taken by name from a value of unknown type (``getattr(cursor, "execute")``) is still
that method when called. A name that is not constant is not guessed: the call is left to
the ordinary handling of library calls.
"""

from __future__ import annotations

from dataclasses import dataclass

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import exprs, methods, stmts
from courtroom.detectives.security.taint.frame import Args, Frame
from courtroom.detectives.security.taint.program import ClassRef, Instance
from courtroom.detectives.security.taint.values import CLEAN, Made, Val, element

#: Calls that import a module named by their first argument.
IMPORTERS = frozenset({"__import__", "builtins.__import__", "importlib.import_module",
                       "importlib.__import__"})
_GETATTR = frozenset({"getattr", "builtins.getattr"})
_SETATTR = frozenset({"setattr", "builtins.setattr"})
_PARTIAL = frozenset({"functools.partial"})
_METHODCALLER = frozenset({"operator.methodcaller"})
_MAP = frozenset({"map", "builtins.map"})


@dataclass(frozen=True, eq=False)
class Partial(Made):
    """``functools.partial(func, *args, **keywords)``."""

    func: Val
    args: Args


@dataclass(frozen=True, eq=False)
class MethodCaller(Made):
    """``operator.methodcaller(name, *args, **keywords)``: calls ``name`` on its argument."""

    name: str
    args: Args


@dataclass(frozen=True, eq=False)
class Method(Made):
    """A method taken by name from a value whose type is not known."""

    receiver: Val
    name: str


#: The callable values this module builds (calls.invoke hands their calls back here).
CALLABLES = (Partial, MethodCaller, Method)


def _name(value: Val) -> str | None:
    return value.const if value.known() and isinstance(value.const, str) else None


def call(frame: Frame, node: Node, name: str, args: Args) -> Val | None:
    """The value of a dynamic builtin called on ``args``; None when ``name`` is not one, or
    when what it would reach is not a constant."""
    positional, keywords = args
    first = positional[0] if positional else keywords.get("name", CLEAN)
    if name in IMPORTERS:
        module = _name(first)
        if module is None or module.startswith("."):
            return None
        # ``__import__("os.path")`` returns the top package; import_module the module.
        top = module if name == "importlib.import_module" else module.split(".")[0]
        return frame.engine.qualified(top, frame.at(node, frame.text(node)))
    attr = _name(positional[1]) if len(positional) > 1 else None
    if name in _GETATTR and attr is not None:
        return member(frame, node, first, attr)
    if name in _SETATTR and attr is not None and len(positional) == 3:
        stmts.store(frame, first, attr, positional[2])
        return CLEAN
    if name in _PARTIAL and positional:
        return Val(inst=Partial(first, (positional[1:], keywords)))
    if name in _METHODCALLER and _name(first) is not None:
        return Val(inst=MethodCaller(str(first.const), (positional[1:], keywords)))
    if name in _MAP and len(positional) > 1:
        out = frame.engine.invoke(frame, node, first, ([element(p) for p in positional[1:]], {}))
        return Val(kinds=out.kinds, steps=out.steps, flags=frozenset({"list"}))
    return None


def member(frame: Frame, node: Node, base: Val, attr: str) -> Val:
    """``base.attr``, kept callable as a method when the type of ``base`` is not known."""
    value = exprs.attribute_value(frame, node, base, attr)
    if base.ref is None and base.inst is None and "request" not in base.flags:
        return Val(kinds=value.kinds, flags=value.flags, steps=value.steps,
                   inst=Method(base, attr))
    return value


def invoke(frame: Frame, node: Node, target: Partial | MethodCaller | Method, args: Args) -> Val:
    """Call one of :data:`CALLABLES` on evaluated arguments."""
    positional, keywords = args
    if isinstance(target, Partial):
        bound, named = target.args
        return frame.engine.invoke(frame, node, target.func,
                                   ([*bound, *positional], {**named, **keywords}))
    if isinstance(target, MethodCaller):
        return call_method(frame, node, positional[0] if positional else CLEAN, target.name,
                           target.args)
    return call_method(frame, node, target.receiver, target.name, args)


def call_method(frame: Frame, node: Node, receiver: Val, name: str, args: Args) -> Val:
    """``receiver.name(*args)``, as a method call written in the code would be analysed."""
    if receiver.ref is None and not isinstance(receiver.inst, Instance | ClassRef):
        return methods.call(frame, node, None, receiver, name, args)
    return frame.engine.invoke(frame, node, exprs.attribute_value(frame, node, receiver, name),
                               args)
