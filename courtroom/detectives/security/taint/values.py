"""The abstract values the taint interpreter computes: taint, constants, containers, paths.

A value says for which sink kinds it still carries attacker-controlled data (``kinds``), what
constant it is when that is known (so ``if 7 * 42 - num > 200`` picks one branch), what its
elements are when it is a list, tuple or dict built in view of the analysis, and how the
tainted data got there (``steps``, the source-to-sink path a report shows).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Final

#: Every sink kind the engine knows. A source taints the kinds it can attack.
SHELL, CODE, SQL, PATH, XSS, DESER, LDAP, XPATH = (
    "shell", "code", "sql", "path", "xss", "deserialization", "ldap", "xpath")
#: Kinds of the web's own sinks: a server fetching a URL (SSRF), an XML parser resolving
#: external entities, a template compiled from text, a redirect, a NoSQL query.
SSRF, XXE, SSTI, REDIRECT, NOSQL = "ssrf", "xxe", "template", "redirect", "nosql"
ALL: Final = frozenset({SHELL, CODE, SQL, PATH, XSS, DESER, LDAP, XPATH,
                        SSRF, XXE, SSTI, REDIRECT, NOSQL})
#: Local input (argv, environment, tool arguments, file contents): the user's own files are
#: theirs to open, so it is no path traversal; it still must not reach a shell or eval.
#: The user also names their own URLs, XML documents and redirects.
LOCAL: Final = ALL - {PATH, SSRF, XXE, REDIRECT}
NONE: Final = frozenset[str]()
#: Flag of an API parameter passed on whole (any operation that builds on it drops the flag).
API: Final = "api"
#: Longest constant string or sequence the interpreter keeps (bounds memory and time).
MAX_CONST = 4096
#: Programs that run their argument as a script (``sh -c ...``).
SHELLS: Final = frozenset({"sh", "bash", "zsh", "dash", "ksh", "cmd", "cmd.exe", "powershell",
                           "pwsh", "env"})
MAX_STEPS = 12
_PATH: Final = frozenset({"path"})


class _Unknown:
    """The constant of a value that is not statically known."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = _Unknown()
_set = object.__setattr__


@dataclass(frozen=True, init=False, slots=True)
class Step:
    """One hop of a tainted value: where it was read, copied or passed on."""

    path: str
    line: int
    column: int
    note: str

    def __init__(self, path: str, line: int, column: int, note: str) -> None:
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "note", note)


@dataclass(frozen=True, init=False, slots=True)
class Val:
    """An abstract value (see the module docstring)."""

    kinds: frozenset[str] = NONE
    const: object = UNKNOWN
    items: tuple[tuple[object, Val], ...] | None = None
    seq: tuple[Val, ...] | None = None
    ref: str | None = None
    inst: object = None
    flags: frozenset[str] = NONE
    steps: tuple[Step, ...] = field(default=(), compare=False)

    def __init__(self, kinds: frozenset[str] = NONE, const: object = UNKNOWN,
                 items: tuple[tuple[object, Val], ...] | None = None,
                 seq: tuple[Val, ...] | None = None, ref: str | None = None,
                 inst: object = None, flags: frozenset[str] = NONE,
                 steps: tuple[Step, ...] = ()) -> None:
        _set(self, "kinds", kinds)
        _set(self, "const", const)
        _set(self, "items", items)
        _set(self, "seq", seq)
        _set(self, "ref", ref)
        _set(self, "inst", inst)
        _set(self, "flags", flags)
        _set(self, "steps", steps)

    @property
    def tainted(self) -> bool:
        """Whether any sink kind is still reachable with attacker data."""
        return bool(self.kinds)

    def known(self) -> bool:
        """Whether the constant is statically known."""
        return self.const is not UNKNOWN

    def clean(self, kinds: frozenset[str] = ALL) -> Val:
        """The value with ``kinds`` removed (a sanitiser ran), elements included."""
        items = tuple((k, v.clean(kinds)) for k, v in self.items) if self.items else self.items
        seq = tuple(v.clean(kinds) for v in self.seq) if self.seq else self.seq
        return Val(self.kinds - kinds, self.const, items, seq, self.ref, self.inst,
                   self.flags, self.steps)

    def step(self, s: Step) -> Val:
        """The value with one more hop on its path (only tainted values keep paths)."""
        if not self.kinds or (self.steps and self.steps[-1] == s):
            return self
        return Val(self.kinds, self.const, self.items, self.seq, self.ref, self.inst,
                   self.flags, (*self.steps, s)[-MAX_STEPS:])


CLEAN: Final = Val()


def const(value: object) -> Val:
    """A known constant (too large a constant is kept as unknown)."""
    if isinstance(value, str | bytes | tuple) and len(value) > MAX_CONST:
        return CLEAN
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return CLEAN
    if isinstance(value, str) and value.rsplit("/", 1)[-1] in SHELLS:
        # A shell's name survives a join of two platforms' branches ("sh" or "cmd.exe").
        return Val(const=value, flags=frozenset({"shell"}))
    return Val(const=value)


def tainted(kinds: frozenset[str], s: Step, flags: frozenset[str] = frozenset()) -> Val:
    """A value read from a source."""
    return Val(kinds=kinds, flags=flags, steps=(s,))


def merge(values: list[Val] | tuple[Val, ...]) -> Val:
    """A value derived from all of ``values``: their taint and path, no constant."""
    kinds = NONE
    steps: tuple[Step, ...] = ()
    path = False
    # (Sets are united only when there is something to add: most values merged are clean.)
    for v in values:
        if v.kinds:
            if not steps:
                steps = v.steps
            kinds = kinds | v.kinds if kinds else v.kinds
        path = path or "path" in v.flags
    return Val(kinds, UNKNOWN, None, None, None, None, _PATH if path else NONE, steps)


def join(a: Val, b: Val) -> Val:
    """The value of a variable after two branches that may each have run."""
    if a is b:
        return a
    if a == b:
        return a if a.steps or not b.steps else b
    items = None
    if a.items is not None and b.items is not None:
        keys = dict(a.items).keys() | dict(b.items).keys()
        da, db = dict(a.items), dict(b.items)
        items = tuple((k, join(da.get(k, CLEAN), db.get(k, CLEAN))) for k in sorted(keys, key=repr))
    seq = None
    if a.seq is not None and b.seq is not None and len(a.seq) == len(b.seq):
        seq = tuple(join(x, y) for x, y in zip(a.seq, b.seq, strict=True))
    return Val(kinds=a.kinds | b.kinds,
               const=a.const if a.known() and b.known() and a.const == b.const else UNKNOWN,
               items=items, seq=seq, ref=a.ref if a.ref == b.ref else None,
               inst=a.inst if a.inst is b.inst else None,
               # "None or a list" is still a list; "maybe a path" still a path.
               flags=a.flags & b.flags | ((a.flags | b.flags) & {"path", "list"}),
               steps=a.steps if a.kinds else b.steps)


def element(v: Val) -> Val:
    """Any one element of a container (or the container's own taint)."""
    parts = [x for _, x in v.items] if v.items is not None else list(v.seq or ())
    if isinstance(v.const, str | bytes | tuple | list) and v.known():
        return merge(parts) if parts else CLEAN
    return merge([v, *parts])


_SERIALS = itertools.count(1)


class Made:
    """An object the analysis makes while it runs (an instance, a bound method, a partial):
    memo keys know it by its ``serial``, a number no other object of this process is given,
    not by ``id``, which a freed object hands on to a new one, so a stale memo entry would
    match it."""

    serial: int

    def __new__(cls, *args: object, **kwargs: object) -> Made:
        # Set here, not as a field of each kind: frozen dataclasses among them too.
        made = super().__new__(cls)
        object.__setattr__(made, "serial", next(_SERIALS))
        return made
