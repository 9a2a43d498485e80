"""Parameters of a repository function and the abstract arguments bound to them."""

from __future__ import annotations

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint.frame import Frame, Signature
from courtroom.detectives.security.taint.program import FuncRef, Instance
from courtroom.detectives.security.taint.values import CLEAN, Val, merge


def parameters(frame: Frame, func: Node) -> list[tuple[str, Val]]:
    """Parameter names (``*args``/``**kw`` keep their stars) with their defaults' values."""
    key = (frame.sf.path, func.start_byte)
    signature = frame.engine.signatures.get(key)
    if signature is None:
        # A function is run once per call shape: its signature is read once.
        signature = frame.engine.signatures[key] = _signature(frame, func)
    # A default is evaluated at every run, as before: an f-string's may read a global.
    return [(name, CLEAN if span is None else frame.eval(func.descendant_for_byte_range(*span)))
            for name, span in signature]


def _signature(frame: Frame, func: Node) -> Signature:
    """Parameter names, each with where its default lies when that is a literal."""
    params = func.child_by_field_name("parameters")
    out: list[tuple[str, tuple[int, int] | None]] = []
    for p in params.named_children if params is not None else []:
        if p.type == "identifier":
            out.append((frame.sf.text(p), None))
        elif p.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            stars = "*" if p.type == "list_splat_pattern" else "**"
            out.append((stars + frame.sf.text(p.named_children[0] if p.named_children else p),
                        None))
        elif p.type in ("default_parameter", "typed_default_parameter", "typed_parameter"):
            name = p.child_by_field_name("name") or next(
                (c for c in p.named_children if c.type == "identifier"), None)
            value = p.child_by_field_name("value")
            literal = (value.start_byte, value.end_byte) if value is not None and value.type in (
                "string", "integer", "float", "true", "false", "none") else None
            if name is not None:
                out.append((frame.sf.text(name), literal))
    return tuple(out)


def bind_arguments(frame: Frame, func: FuncRef, passed: list[Val], keyed: dict[str, Val],
                   instance: Instance | None) -> None:
    """The callee's parameters bound to the arguments (``self`` to the instance)."""
    params = parameters(frame, func.node)
    if instance is not None and params and params[0][0] in ("self", "cls"):
        frame.env[params[0][0]] = Val(inst=instance)
        params = params[1:]
    for i, (name, default) in enumerate(params):
        if name.startswith("*"):
            rest = list(keyed.values()) if name.startswith("**") else passed[i:]
            frame.env[name.lstrip("*")] = merge(rest)
            continue
        frame.env[name] = passed[i] if i < len(passed) else keyed.get(name, default)
