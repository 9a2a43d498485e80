"""Memo keys: what of a call a callee's result may depend on.

A call is memoised by its function (the file and start byte of its ``def`` or ``lambda``),
the shapes of its arguments (taint, name, object, flags: never constants or contents) and,
for a method, its object's state. Objects are compared by identity: a function by where it
lies, a class or module by ``id`` (they live as long as the program), and what the
analysis makes while it runs by serial number (``values.Made``).
"""

from __future__ import annotations

from typing import Final

from courtroom.detectives.parsing import Node, SourceFile
from courtroom.detectives.security.taint.frame import Args
from courtroom.detectives.security.taint.program import (
    Bound,
    ClassRef,
    FuncRef,
    Instance,
    ModuleInfo,
)
from courtroom.detectives.security.taint.values import NONE, Made, Val

Key = tuple[int, str, tuple[object, ...]]
#: The dotted parts of a name that recursion is recognised by: a recursion that walks a
#: structure (``walk(e.left)``, ``walk(e.right)``) builds a longer name at every level,
#: and telling those apart would run it 2**callee.MAX_DEPTH times.
_NAME_PARTS = 2
#: The shape of a value with no taint, name, object or flag (equal to the tuple it stands for).
_PLAIN: Final = (NONE, None, 0, NONE)


def identity(obj: object, exact: bool) -> object:
    """An object as a memo key sees it: itself, or (not ``exact``) what kind of object it is."""
    if obj is None:
        return 0
    if isinstance(obj, FuncRef):
        # One function however many times its ``def`` or ``lambda`` was evaluated.
        return (obj.sf.path, obj.start)
    if exact or not isinstance(obj, Instance | Bound):
        if isinstance(obj, Made):
            return obj.serial
        if isinstance(obj, ClassRef | ModuleInfo):
            return id(obj)  # (it lives as long as the program: its id is its own)
        raise TypeError(f"no memo identity for a {type(obj).__name__}")
    if isinstance(obj, Bound):
        return (obj.func.sf.path, obj.func.start, id(obj.instance.cls))
    return id(obj.cls)


def _shape(v: Val, exact: bool = True) -> object:
    if not v.kinds and v.ref is None and v.inst is None and not v.flags:
        # Most attributes an object's key lists are plain data: one shared tuple for all of
        # them keeps the memo's keys small (a large object's state has hundreds).
        return _PLAIN
    ref = v.ref if exact or v.ref is None else ".".join(v.ref.split(".")[:_NAME_PARTS])
    return (v.kinds, ref, 0 if v.inst is None else identity(v.inst, exact), v.flags)


def _state(instance: Instance | None, exact: bool = True) -> object:
    """What of an object a method's result may depend on: its class and attributes' shapes."""
    if instance is None:
        return None
    attrs = instance.attrs
    return (id(instance.cls), tuple((k, _shape(attrs[k], exact)) for k in sorted(attrs)))


def clean_key(node: Node, sf: SourceFile, instance: Instance | None) -> Key:
    """The memo key of a function run with nothing tainted (as a root or as a callee)."""
    return (node.start_byte, sf.path, ("clean", _state(instance)))


def call_key(func: FuncRef, args: Args, instance: Instance | None, exact: bool) -> Key:
    """A call's memo key (``exact``), or what recursion is recognised by: the same function
    on arguments of the same shape, objects compared by class (a recursion that builds a
    new object at every level is still one recursion)."""
    # Arguments untainted, with no object and no name cannot change what the callee does.
    if not any(v.kinds or v.flags or v.inst is not None or v.ref is not None
               for v in (*args[0], *args[1].values())):
        return (func.start, func.sf.path, ("clean", _state(instance, exact)))
    return (func.start, func.sf.path, (tuple(_shape(v, exact) for v in args[0]),
                                         tuple(sorted((k, _shape(v, exact)) for k, v in
                                                      args[1].items())),
                                         _state(instance, exact)))
