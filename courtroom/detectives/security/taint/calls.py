"""Calls: sinks, sanitisers, sources, conversions, and calls into the repository.

A method on a value whose type is not known is left to :mod:`methods`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import dynamic, library, methods, spawn, web_sinks
from courtroom.detectives.security.taint.frame import Args, Frame
from courtroom.detectives.security.taint.program import Bound, ClassRef, FuncRef, Instance
from courtroom.detectives.security.taint.values import (
    CLEAN,
    LOCAL,
    SHELL,
    XPATH,
    XSS,
    Val,
    const,
    element,
    merge,
    tainted,
)

#: A function whose name says it escapes text for HTML/XML is an escaper, wherever it lives.
_ESCAPER = re.compile(r"escape", re.I)
#: Calls that build a compiled regular expression.
_PATTERNS = frozenset({"re.compile", "regex.compile"})
_PATHS = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "os.path.join",
                    "Path", "os.fspath"})
_RESPONSES = frozenset({"flask.make_response", "flask.Response", "werkzeug.Response",
                        "make_response", "Response"})
_CASTS: dict[str, Callable[[Any], object]] = {"int": int, "float": float, "bool": bool}


def arguments(frame: Frame, node: Node | None) -> Args:
    """Positional and keyword argument values (splats stand for any element)."""
    positional: list[Val] = []
    keywords: dict[str, Val] = {}
    if node is None:
        return positional, keywords
    if node.type == "generator_expression":
        return [frame.eval(node)], keywords
    for child in node.named_children:
        kind = child.type
        if kind == "keyword_argument":
            keywords[frame.sf.text(child.child_by_field_name("name"))] = frame.eval(
                child.child_by_field_name("value"))
        elif kind == "list_splat":
            positional.append(element(frame.eval(child.named_children[0])))
        elif kind not in ("comment", "dictionary_splat"):
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
        if receiver.ref is None and not isinstance(receiver.inst, Instance | ClassRef):
            return methods.call(frame, node, obj, receiver, method, args)
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
    if isinstance(target, dynamic.CALLABLES):
        return dynamic.invoke(frame, node, target, args)
    if callee.ref is None:
        return merge([callee, *positional, *keywords.values()])
    return _library(frame, node, callee.ref, args)


def _library(frame: Frame, node: Node, name: str, args: Args) -> Val:
    modelled = web_sinks.call(frame, node, name, args)
    if modelled is not None:
        return modelled
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
    if name in spawn.EXECS:
        return spawn.execute(frame, node, name, positional)
    found = dynamic.call(frame, node, name, args)
    if found is not None:
        return found
    if name == "yaml.load":
        loader = keywords.get("Loader", positional[1] if len(positional) > 1 else CLEAN)
        if (loader.ref or "").rsplit(".", 1)[-1] not in library.SAFE_YAML_LOADERS:
            frame.engine.sink(frame, node, library.SINKS["yaml.full_load"], first, name)
        return merge(positional)
    sink = library.SINKS.get(name)
    if sink is not None:
        frame.engine.sink(frame, node, sink, sink.argument(positional, keywords), name)
    if name in library.LOCAL_SOURCES or name in library.LOCAL_ATTRS:
        return tainted(LOCAL, frame.at(node, f"reads local input ({frame.text(node)})"))
    return _builtin(frame, node, name, positional, keywords)


def _cast(fn: Callable[[Any], object], value: Val) -> Val:
    """A builtin conversion of a known constant (unknown when it would raise)."""
    try:
        return const(fn(value.const))
    except (TypeError, ValueError, OverflowError):
        return CLEAN


def _builtin(frame: Frame, node: Node, name: str, positional: list[Val],
             keywords: dict[str, Val]) -> Val:
    first = positional[0] if positional else CLEAN
    if name in _PATTERNS:
        # A compiled pattern: its search() is a regular expression's, never an LDAP query.
        return Val(flags=frozenset({"pattern"}))
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
        elif _shell_program(command) and len(command.seq) > 1:
            frame.engine.sink(frame, node, sink, merge(command.seq[1:]), name)
    elif not command.flags & {"list", "opaque"}:
        frame.engine.sink(frame, node, sink, command, name)
    return merge([command]).clean(frozenset({SHELL}))


def _shell_program(value: Val) -> bool:
    """Whether a command list starts with a shell (``sh -c ...``)."""
    head = value.seq[0] if value.seq else None
    return head is not None and "shell" in head.flags
