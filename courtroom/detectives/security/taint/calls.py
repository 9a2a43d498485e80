"""Calls: sinks, sanitisers, sources, container updates, and calls into the repository."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import library
from courtroom.detectives.security.taint.exprs import shell_program
from courtroom.detectives.security.taint.library import FILE_CONTENT_KINDS
from courtroom.detectives.security.taint.program import Bound, ClassRef, FuncRef, Instance
from courtroom.detectives.security.taint.stmts import bind
from courtroom.detectives.security.taint.values import (
    ALL,
    CLEAN,
    LOCAL,
    MAX_CONST,
    SHELL,
    XPATH,
    XSS,
    Val,
    const,
    element,
    merge,
    tainted,
)

if TYPE_CHECKING:
    from courtroom.detectives.security.taint.frame import Frame

Args = tuple[list[Val], dict[str, Val]]
#: A function whose name says it escapes text for HTML/XML is an escaper, wherever it lives.
_ESCAPER = re.compile(r"escape", re.I)
_STR_METHODS = frozenset({"upper", "lower", "strip", "lstrip", "rstrip", "replace", "split",
                          "rsplit", "join", "format", "startswith", "endswith", "find",
                          "encode", "decode", "title", "capitalize", "zfill", "partition",
                          "splitlines", "count", "casefold", "removeprefix", "removesuffix"})
_PATHS = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "os.path.join",
                    "Path", "os.fspath"})
_RESPONSES = frozenset({"flask.make_response", "flask.Response", "werkzeug.Response",
                        "make_response", "Response"})


def arguments(frame: Frame, node: Node | None) -> Args:
    """Positional and keyword argument values (splats stand for any element)."""
    positional: list[Val] = []
    keywords: dict[str, Val] = {}
    if node is None:
        return positional, keywords
    if node.type == "generator_expression":
        return [frame.eval(node)], keywords
    for child in node.named_children:
        if child.type == "keyword_argument":
            keywords[frame.sf.text(child.child_by_field_name("name"))] = frame.eval(
                child.child_by_field_name("value"))
        elif child.type == "list_splat":
            positional.append(element(frame.eval(child.named_children[0])))
        elif child.type not in ("comment", "dictionary_splat"):
            positional.append(frame.eval(child))
    return positional, keywords


def call(frame: Frame, node: Node) -> Val:
    """The value of a call expression."""
    fn = node.child_by_field_name("function")
    args = arguments(frame, node.child_by_field_name("arguments"))
    if fn is not None and fn.type == "attribute":
        obj = fn.child_by_field_name("object")
        method = frame.sf.text(fn.child_by_field_name("attribute"))
        receiver = frame.eval(obj)
        if receiver.ref is None and not isinstance(receiver.inst, Instance):
            return _method(frame, node, obj, receiver, method, args)
        callee = frame.eval(fn)
    else:
        callee = frame.eval(fn)
    return invoke(frame, node, callee, args)


def invoke(frame: Frame, node: Node, callee: Val, args: Args) -> Val:
    """Call a value: a repository function or class, or a library name."""
    positional, keywords = args
    target = callee.inst
    if isinstance(target, FuncRef | Bound):
        func = target.func if isinstance(target, Bound) else target
        if _ESCAPER.search(func.name):
            return merge(positional).clean(frozenset({XSS, XPATH}))
        instance = target.instance if isinstance(target, Bound) else None
        return frame.engine.call_function(frame, node, func, args, instance)
    if isinstance(target, ClassRef):
        return frame.engine.construct(frame, node, target, args)
    if callee.ref is None:
        return merge([callee, *positional, *keywords.values()])
    return _library(frame, node, callee.ref, args)


def _library(frame: Frame, node: Node, name: str, args: Args) -> Val:
    positional, keywords = args
    first = positional[0] if positional else keywords.get("args", CLEAN)
    short = name.rsplit(".", 1)[-1]
    if name in library.SANITISERS or (short != name and _ESCAPER.search(short)):
        kinds = library.SANITISERS.get(name, frozenset({XSS, XPATH}))
        if name in _CASTS and first.known():
            return _cast(_CASTS[name], first)
        return merge(positional).clean(kinds)
    if name in library.PROCESS:
        return _process(frame, node, name, first, keywords)
    if name == "yaml.load":
        loader = keywords.get("Loader", positional[1] if len(positional) > 1 else CLEAN)
        if (loader.ref or "").rsplit(".", 1)[-1] not in library.SAFE_YAML_LOADERS:
            frame.engine.sink(frame, node, library.SINKS["yaml.full_load"], first, name)
        return merge(positional)
    sink = library.SINKS.get(name)
    if sink is not None:
        frame.engine.sink(frame, node, sink, _argument(positional, keywords, sink), name)
    if name in library.LOCAL_SOURCES or name in library.LOCAL_ATTRS:
        return tainted(LOCAL, frame.at(node, f"reads local input ({frame.text(node)})"))
    return _builtin(frame, node, name, positional, keywords)


#: A format width large enough to build a huge string from a tiny literal.
_WIDE = re.compile(r"[{%][^}]*?\d{4,}")
_CASTS: dict[str, Callable[[Any], object]] = {"int": int, "float": float, "bool": bool}


def _cast(fn: Callable[[Any], object], value: Val) -> Val:
    """A builtin conversion of a known constant (unknown when it would raise)."""
    try:
        return const(fn(value.const))
    except (TypeError, ValueError, OverflowError):
        return CLEAN


def _argument(positional: list[Val], keywords: dict[str, Val], sink: library.Sink) -> Val:
    if sink.keyword is not None and sink.keyword in keywords:
        return keywords[sink.keyword]
    return positional[sink.arg] if len(positional) > sink.arg else CLEAN


def _builtin(frame: Frame, node: Node, name: str, positional: list[Val],
             keywords: dict[str, Val]) -> Val:
    first = positional[0] if positional else CLEAN
    if name in _PATHS:
        out = merge(positional)
        return Val(kinds=out.kinds, flags=out.flags | {"path"}, steps=out.steps)
    if name in library.NORMALISERS:
        return Val(kinds=first.kinds, flags=first.flags | {"path", "normalised"},
                   steps=first.steps)
    if name in _RESPONSES:
        body = first.seq[0] if first.seq else first
        mimetype = keywords.get("mimetype", keywords.get("content_type", CLEAN))
        if mimetype.known() and "html" not in str(mimetype.const):
            return body.clean(frozenset({XSS}))
        return merge([body])
    if name in ("str", "repr", "bytes", "format"):
        if first.known() and name in ("str", "repr"):
            return _cast(str if name == "str" else repr, first)
        return Val(kinds=first.kinds, flags=first.flags, steps=first.steps)
    if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset"):
        return Val(kinds=first.kinds, seq=first.seq, steps=first.steps,
                   flags=frozenset({"list"}))
    if name in library.MAPPINGS:
        if first.items is not None:
            return first
        return Val(items=()) if not positional and not keywords else merge([first,
                                                                            *keywords.values()])
    return merge([*positional, *keywords.values()])


def _process(frame: Frame, node: Node, name: str, command: Val,
             keywords: dict[str, Val]) -> Val:
    """Shell injection through subprocess: a shell string, or a program from the input."""
    shell = keywords.get("shell", CLEAN)
    sink = library.SINKS["os.system"]
    if shell.known() and shell.const:
        frame.engine.sink(frame, node, sink, command, name)
    elif command.seq:
        head = command.seq[0]
        if head.tainted:
            frame.engine.sink(frame, node, sink, head, name)
        elif shell_program(command) and len(command.seq) > 1:
            frame.engine.sink(frame, node, sink, merge(command.seq[1:]), name)
    elif not command.flags & {"list", "opaque"}:
        frame.engine.sink(frame, node, sink, command, name)
    return merge([command]).clean(frozenset({SHELL}))


def _method(frame: Frame, node: Node, obj: Node | None, receiver: Val, method: str,
            args: Args) -> Val:
    """A method on a value of unknown type: containers, strings, paths, sinks, sources."""
    positional, keywords = args
    if "request" in receiver.flags:
        return tainted(ALL, frame.at(node, f"reads request data ({frame.text(node)})"))
    updated = _mutate(receiver, method, positional)
    if updated is not None and obj is not None:
        bind(frame, obj, updated[0])
        return updated[1]
    lookup = _lookup(receiver, method, positional, keywords)
    if lookup is not None:
        return lookup
    sink = library.METHOD_SINKS.get(method)
    if sink is not None:
        frame.engine.sink(frame, node, sink, _argument(positional, keywords, sink), method)
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
