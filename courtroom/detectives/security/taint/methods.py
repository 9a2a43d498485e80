"""Methods called on values of unknown type: container updates and lookups followed by
key, string methods folded on constants, path and query sinks, file and input sources.
"""

from __future__ import annotations

import re

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import library, url_guards
from courtroom.detectives.security.taint.frame import Args, Frame
from courtroom.detectives.security.taint.library import FILE_CONTENT_KINDS
from courtroom.detectives.security.taint.values import (
    ALL,
    CLEAN,
    LOCAL,
    MAX_CONST,
    Val,
    const,
    merge,
    tainted,
)

_STR_METHODS = frozenset({"upper", "lower", "strip", "lstrip", "rstrip", "replace", "split",
                          "rsplit", "join", "format", "startswith", "endswith", "find",
                          "encode", "decode", "title", "capitalize", "zfill", "partition",
                          "splitlines", "count", "casefold", "removeprefix", "removesuffix"})
#: A format width large enough to build a huge string from a tiny literal. The spec never
#: runs past another ``{`` or ``%`` (the search finds the same widths from that one), so
#: a literal of thousands of braces is read once, not once per brace.
_WIDE = re.compile(r"[{%][^{}%]*?\d{4,}")


def call(frame: Frame, node: Node, obj: Node | None, receiver: Val, method: str,
         args: Args) -> Val:
    """A method on a value of unknown type: containers, strings, paths, sinks, sources."""
    positional, keywords = args
    if "request" in receiver.flags:
        return tainted(ALL, frame.at(node, f"reads request data ({frame.text(node)})")) \
            if method in library.REQUEST_DATA else CLEAN
    updated = _mutate(receiver, method, positional)
    if updated is not None and obj is not None:
        frame.bind(obj, updated[0])
        return updated[1]
    lookup = _lookup(receiver, method, positional, keywords)
    if lookup is not None:
        return lookup
    sink = library.METHOD_SINKS.get(method)
    if sink is not None and "pattern" not in receiver.flags:
        frame.engine.sink(frame, node, sink, sink.argument(positional, keywords), method)
    if method in library.PATH_METHODS and "path" in receiver.flags:
        frame.engine.sink(frame, node, library.SINKS["open"], receiver, method)
    if method in _STR_METHODS and receiver.known() and all(p.known() for p in positional):
        folded = _fold_method(receiver, method, positional)
        if folded is not None:
            return folded
    if method in library.CLEAN_METHODS:
        return CLEAN
    if method in library.NORMALISERS:
        return Val(kinds=receiver.kinds, flags=receiver.flags | {"path", "normalised"},
                   steps=receiver.steps)
    if method in ("parse_args", "parse_known_args", "invoke", "ainvoke"):
        return tainted(LOCAL, frame.at(node, f"reads input ({frame.text(node)})"))
    if method in library.LOCAL_METHODS:
        # What a file holds is the file's, not its name's: reading never forwards the
        # path's taint, it reads content that must not reach a shell, eval or a query.
        return tainted(FILE_CONTENT_KINDS, frame.at(node, f"reads input ({frame.text(node)})"))
    out = merge([receiver, *positional, *keywords.values()])
    if method == "format":
        out = url_guards.after(receiver, out)
    if method in ("joinpath", "with_name", "with_suffix", "parent"):
        return Val(kinds=out.kinds, flags=receiver.flags & {"path"}, steps=out.steps)
    return out


def _fold_method(receiver: Val, method: str, positional: list[Val]) -> Val | None:
    if method == "join" and positional and positional[0].seq is not None:
        parts = positional[0].seq
        if not all(p.known() for p in parts):
            return None
        values: list[object] = [p.const for p in parts]
    else:
        values = [p.const for p in positional]
    if _WIDE.search(str(receiver.const)) or (method == "zfill" and values and
                                              not (isinstance(values[0], int) and
                                                   values[0] <= MAX_CONST)):
        return None  # a hostile width ("{:>999999999}") must not exhaust memory
    try:
        result = getattr(receiver.const, method)(*([values] if method == "join" else values))
    except (TypeError, ValueError, AttributeError, IndexError, KeyError):
        return None
    if isinstance(result, list):
        return Val(seq=tuple(const(x) for x in result), flags=frozenset({"list"}))
    return const(result)


def _mutate(receiver: Val, method: str, positional: list[Val]) -> tuple[Val, Val] | None:
    """(new receiver, call result) for list/dict/config updates, else None."""
    if method in ("append", "add") and positional:
        seq = (receiver.seq or ()) + (positional[0],) if receiver.seq is not None or \
            not receiver.tainted else None
        return _with(receiver, seq=seq, extra=positional[0]), CLEAN
    if method == "insert" and len(positional) == 2 and receiver.seq is not None and \
            positional[0].known() and isinstance(positional[0].const, int):
        grown = list(receiver.seq)
        grown.insert(positional[0].const, positional[1])
        return _with(receiver, seq=tuple(grown), extra=positional[1]), CLEAN
    if method == "pop" and receiver.seq is not None:
        index = positional[0].const if positional and positional[0].known() else -1
        if isinstance(index, int) and receiver.seq and -len(receiver.seq) <= index < \
                len(receiver.seq):
            rest = list(receiver.seq)
            taken = rest.pop(index)
            return _with(receiver, seq=tuple(rest)), taken
    if method == "set" and len(positional) == 3 and receiver.items is not None:
        section, key, value = positional
        if section.known() and key.known():
            items = dict(receiver.items)
            items[(section.const, key.const)] = value
            return _with(receiver, items=tuple(items.items()), extra=value), CLEAN
    if method in ("add_section", "clear_cache"):
        return receiver, CLEAN
    return None


def _with(receiver: Val, *, seq: tuple[Val, ...] | None = None,
          items: tuple[tuple[object, Val], ...] | None = None, extra: Val = CLEAN) -> Val:
    parts = list(seq) if seq is not None else [x for _, x in items] if items is not None \
        else [receiver, extra]
    out = merge(parts)
    return Val(kinds=out.kinds, seq=seq, items=items if items is not None else receiver.items,
               flags=receiver.flags, steps=out.steps)


def _lookup(receiver: Val, method: str, positional: list[Val],
            keywords: dict[str, Val]) -> Val | None:
    """``get``/``getlist``/``values`` on a container whose contents are known."""
    if receiver.items is None:
        return None
    default = positional[-1] if len(positional) in (2, 3) and method == "get" else \
        keywords.get("fallback", CLEAN)
    if method == "get" and positional and positional[0].known():
        items = dict(receiver.items)
        key: object = positional[0].const
        if len(positional) >= 2 and positional[1].known() and (key, positional[1].const) in items:
            return items[(key, positional[1].const)]
        if isinstance(key, str | int | tuple) and key in items:
            return items[key]
        return default if len(positional) != 3 else CLEAN
    if method in ("values", "items"):
        return Val(kinds=receiver.kinds, seq=None, steps=receiver.steps,
                   flags=frozenset({"list"}))
    if method == "keys":
        return Val(seq=tuple(const(k) for k, _ in receiver.items), flags=frozenset({"list"}))
    return None
