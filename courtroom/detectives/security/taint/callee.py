"""Calls into the repository: a function interpreted on its caller's abstract arguments.

A callee sees its arguments' taint and identity, not their constants or contents, so its
result can be memoised per argument shape (and, for a method, per object state) and holds
for every caller with that shape. A chain of calls is followed until it ends or repeats:
recursion (a call meeting itself with the same shape) is given the call's result so far,
and the call is run again until that result stops growing. Two bounds remain: a chain
deeper than ``MAX_DEPTH`` calls, and more interpretations than the repository's size allows
(``WORK_PER_FUNCTION``). A call they cut that carries attacker data is recorded as a
``BOUND_RULE`` flow, so the scan says it is incomplete instead of passing on what it did
not follow.
"""

from __future__ import annotations

from collections import Counter

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint.frame import Args, Frame
from courtroom.detectives.security.taint.keys import Key, call_key
from courtroom.detectives.security.taint.params import bind_arguments
from courtroom.detectives.security.taint.program import (
    BOUND_RULE,
    ClassRef,
    Flow,
    FuncRef,
    Instance,
)
from courtroom.detectives.security.taint.values import CLEAN, Val, join, merge

#: How many calls deep a chain is followed from a root. Each call costs the interpreter
#: some 20 Python frames, so this bound keeps a chain well inside Python's default
#: recursion limit (1000) with room for deeply nested code at every level.
MAX_DEPTH = 16
#: How many times a recursive function is run until its result stops growing: each run
#: widens the guess in a small finite lattice (taint kinds and flags), so a few settle
#: it; a recursion that has not settled by then is reported like a depth cut.
MAX_ROUNDS = 4
#: Interpretations of calls allowed per function of the repository (plus ``WORK_BASE``):
#: keeps the analysis linear in the code's size however many argument shapes a large
#: library's call graph combines. Two, because following static and class methods,
#: lambdas, ``partial`` and ``map`` made an ordinary application of 3,000 functions need
#: about 1.2 per function, and a spent budget fails the gate closed.
WORK_PER_FUNCTION, WORK_BASE = 2, 2000


def _opaque(v: Val) -> Val:
    """An argument as a callee sees it: taint and identity, not constants or contents.

    Calls are memoised by argument shape; a callee that saw constants or container
    contents could return a result that holds only for the first caller.
    """
    if v.items is None and v.seq is None and not v.known():
        return v
    return Val(kinds=v.kinds, ref=v.ref, inst=v.inst, flags=v.flags, steps=v.steps)


def joined(values: list[Val]) -> Val:
    """What a function returns over all its return statements (clean when it has none)."""
    if not values:
        return CLEAN
    out = values[0]
    for v in values[1:]:
        out = join(out, v)
    return out


class Callees:
    """The repository calls one analysis has interpreted: results and attribute writes."""

    def __init__(self) -> None:
        #: Interpretations left before further calls are cut (the engine adds its share
        #: per function of the repository).
        self.work = WORK_BASE
        self.memo: dict[Key, tuple[Val, dict[str, Val]]] = {}
        #: Memoised results built on the provisional result of a recursive call still being
        #: run, with those calls: they are dropped when such a provisional result grows.
        self.pending: dict[Key, set[Key]] = {}
        #: Calls being interpreted now, each with the result a recursive call to it is given.
        self.active: dict[Key, Val] = {}
        #: The active calls by the shape recursion is recognised by.
        self.running: dict[Key, Key] = {}
        #: How many of those calls each function has, by (start byte, path): a call of a
        #: function with none cannot be a recursion, so its memo key is all it needs.
        self.live: Counter[tuple[int, str]] = Counter()
        #: Per call being interpreted (innermost last): the active calls whose provisional
        #: result it used, itself or through its callees.
        self.reads: list[set[Key]] = []
        #: Calls not followed although they carry attacker data, by location.
        self.cuts: dict[tuple[str, int, int], Flow] = {}
        #: What a memoised call raises and does not catch itself, when it raises anything.
        self.raises: dict[Key, Val] = {}

    def forget(self, functions: set[tuple[str, int]]) -> None:
        """Forget the results of these functions, by (path, start byte): the state they read
        changed."""
        for store in (self.memo, self.pending, self.raises):
            for key in [k for k in store if (k[1], k[0]) in functions]:
                del store[key]

    def reset(self) -> None:
        """Forget the calls in progress (an analysis was abandoned half way)."""
        self.active.clear()
        self.running.clear()
        self.live.clear()
        self.reads.clear()

    def call(self, caller: Frame, node: Node, func: FuncRef, args: Args,
             instance: Instance | None) -> Val:
        """Interpret a repository function on abstract arguments (memoised)."""
        at = caller.at(node, f"passed to {func.name}()")
        passed = [_opaque(v).step(at) for v in args[0]]
        keyed = {k: _opaque(v).step(at) for k, v in args[1].items()}
        key = call_key(func, (passed, keyed), instance, True)
        function = (func.start, func.sf.path)
        if not self.live[function] and key in self.memo:
            return self._recall(caller, key, instance)
        kind = call_key(func, (passed, keyed), instance, False)
        if kind in self.running:
            running = self.running[kind]
            self._used({running})
            return self.active[running]
        if key in self.memo:
            return self._recall(caller, key, instance)
        carried = [*passed, *keyed.values(), *(instance.attrs.values() if instance else ())]
        if caller.depth >= MAX_DEPTH or self.work <= 0:
            self._cut(caller, node, func, merge(carried), f"{MAX_DEPTH} calls deep"
                      if self.work > 0 else "past the analysis's work budget")
            return _unknown(carried)
        self.active[key], self.running[kind] = _unknown(carried), key
        self.live[function] += 1
        result, used, raised = self._fixed_point(caller, node, func, key, (passed, keyed),
                                                 instance)
        del self.active[key], self.running[kind]
        self.live[function] -= 1
        self._settle(key, used)
        self.memo[key] = (result, dict(instance.attrs) if instance is not None else {})
        if raised:
            # An exception the callee lets escape reaches the caller's ``except ... as e``.
            self.raises[key] = merge(raised)
            caller.raised.append(self.raises[key])
        return result

    def _recall(self, caller: Frame, key: Key, instance: Instance | None) -> Val:
        """A memoised call: same arguments and same object state, so the same result and
        the same attribute writes."""
        self._used(self.pending.get(key, set()))
        result, attrs = self.memo[key]
        if instance is not None:
            instance.attrs.update(attrs)
        if key in self.raises:
            caller.raised.append(self.raises[key])
        return result

    def _fixed_point(self, caller: Frame, node: Node, func: FuncRef, key: Key, args: Args,
                     instance: Instance | None) -> tuple[Val, set[Key], list[Val]]:
        """Run a call until the result its recursive calls were given covers its own."""
        result, used, raised = CLEAN, set(), []
        for _ in range(MAX_ROUNDS):
            frame = Frame(caller.engine, func.sf, {}, caller.engine.module_env(func.sf),
                          depth=caller.depth + 1, self_inst=instance)
            bind_arguments(frame, func, args[0], args[1], instance)
            self.work -= 1
            self.reads.append(set())
            frame.run(func.node.child_by_field_name("body"), frame.env)
            used = self.reads.pop()
            result, raised = joined(frame.returns), frame.raised
            guess = self.active[key]
            wider = _widen(guess, result)
            if key not in used or (wider.kinds, wider.flags) == (guess.kinds, guess.flags):
                return result, used, raised
            self.active[key] = wider
            self._drop(key)
        self._cut(caller, node, func, merge([result, self.active[key]]),
                  f"recursion not settled in {MAX_ROUNDS} rounds")
        return join(result, self.active[key]), used, raised

    def _used(self, keys: set[Key]) -> None:
        """The call being interpreted used the provisional results of ``keys``."""
        if self.reads and keys:
            self.reads[-1] |= keys

    def _drop(self, key: Key) -> None:
        """Forget results built on ``key``'s provisional result (it grew)."""
        for stale in [k for k, deps in self.pending.items() if key in deps]:
            del self.pending[stale]
            self.memo.pop(stale, None)

    def _settle(self, key: Key, used: set[Key]) -> None:
        """``key``'s result is final: what was built on it no longer waits for it."""
        if key in used:
            for k, deps in list(self.pending.items()):
                deps.discard(key)
                if not deps:
                    del self.pending[k]
        outer = used - {key}
        if outer:
            self.pending[key] = outer
            self._used(outer)

    def _cut(self, caller: Frame, node: Node, func: FuncRef, carried: Val, why: str) -> None:
        """Record a call left unfollowed when attacker data goes into it."""
        if not carried.kinds:
            return
        at = caller.at(node, f"passed to {func.name}(), {why}: analysis bound reached")
        where = (at.path, at.line, at.column)
        if where not in self.cuts:
            self.cuts[where] = Flow(BOUND_RULE, ",".join(sorted(carried.kinds)), 0, at.path,
                                    at.line, at.column, func.name, (*carried.steps, at))

    def construct(self, caller: Frame, node: Node, cls: ClassRef, args: Args) -> Val:
        """An instance of a repository class, its ``__init__`` run on the arguments."""
        instance = Instance(cls)
        init = caller.engine.program.method(cls, "__init__")
        if init is not None:
            self.call(caller, node, init, args, instance)
            return Val(inst=instance)
        # The constructor is a library base class's (an exception, a string, a dataclass):
        # keywords are attributes, and the object holds what it was given as its ``args``.
        positional, keywords = args
        given = merge(positional)
        instance.attrs.update(keywords)
        instance.attrs["args"] = Val(kinds=given.kinds, seq=tuple(positional), steps=given.steps,
                                     flags=frozenset({"list"}))
        return Val(kinds=given.kinds, inst=instance, steps=given.steps)


def _unknown(carried: list[Val]) -> Val:
    """The result of a call not (yet) followed: the taint it was given, no known shape.

    Nothing is known of its shape (it may be a list), so no sink reads it as a program name.
    """
    cut = merge(carried)
    return Val(kinds=cut.kinds, flags=frozenset({"opaque"}), steps=cut.steps)


def _widen(guess: Val, result: Val) -> Val:
    """The next guess of a recursive call's result: taint only grows, flags settle."""
    both = join(guess, result)
    return Val(kinds=both.kinds, flags=both.flags, steps=both.steps or result.steps)
