"""Checks bandit does not make, written over the tree-sitter tree.

- path traversal (CWE-22): a path joined from an externally influenced part and opened,
  in a function with no containment check (resolve/realpath + is_relative_to/commonpath);
- cloning into the working directory (CWE-668): ``git clone URL`` with no destination,
  or with ``.``/``os.getcwd()``/``Path.cwd()`` as destination, instead of a temp dir.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.parsing import (
    Node,
    SourceFile,
    call_arguments,
    enclosing,
    matches,
    node_text,
    string_value,
)

_OPENERS = {"open", "send_file", "FileResponse", "copyfile", "copy", "rmtree", "unlink",
            "read_text", "read_bytes", "write_text", "write_bytes", "remove", "extractall"}
_JOINERS = re.compile(r"os\.path\.join\(|\bPath\([^)]*,|[\w\])]\s*/\s*\w|f[\"'][^\"']*\{[^}]+\}/|"
                      r"\+\s*[\"']/|[\"']/[\"']\s*\+")
_CONTAINED = re.compile(r"is_relative_to|commonpath|realpath|\.resolve\(|secure_filename|"
                        r"relative_to\(|startswith\(")
_CWD = re.compile(r"^(\"\.\"|'\.'|os\.getcwd\(\)|Path\.cwd\(\)|os\.curdir)$")


@dataclass(frozen=True)
class RuleHit:
    """A custom finding: the sink node, the value reaching it, and what it is."""

    rule: str
    node: Node
    value: Node | None
    cwe: int
    severity: str
    text: str


def _func_text(sf: SourceFile, node: Node) -> str:
    """The text of the function enclosing node."""
    scope = enclosing(node, ("function_definition",))
    return sf.text(scope) if scope is not None else ""


def _variable_tail(value: Node) -> Node | None:
    """The appended (relative) part of a joined path, when it is not a constant.

    ``folder / KEY_FILE`` is not traversal: the attacker-controlled part would have to be
    what is appended, so only the parts after the base are examined.
    """
    node = value
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node.type == "binary_operator":
        right = node.child_by_field_name("right")
        return None if right is None or _constant(right) else right
    if node.type == "call":
        positional, _ = call_arguments(node.child_by_field_name("arguments"))
        rest = [p for p in positional[1:] if not _constant(p)]
        return rest[0] if rest else None
    if node.type == "string":
        parts = [c for c in node.named_children if c.type == "interpolation"]
        return parts[-1] if len(parts) >= 2 else None
    return None


def _constant(node: Node) -> bool:
    """Whether a path part is a literal or an ALL_CAPS constant."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", node_text(node)):
        return True  # a module constant such as KEY_FILE
    if node.type not in ("string", "integer"):
        return False
    return not any(c.type == "interpolation" for c in node.named_children)


def path_traversal(sf: SourceFile) -> list[RuleHit]:
    """Joined paths reaching file operations without a containment check."""
    hits: list[RuleHit] = []
    for caps in matches("calls", sf.root):
        name = node_text(caps.get("call.name", caps.get("call.method", [None]))[0])
        if name not in _OPENERS:
            continue
        call = caps.get("call.plain", caps.get("call.method_call", [None]))[0]
        if call is None:
            continue
        positional, _ = call_arguments(caps["call.args"][0])
        value = positional[0] if positional and "call.name" in caps else (
            caps["call.object"][0] if "call.object" in caps else None)
        if value is None or not _JOINERS.search(sf.text(value)):
            continue
        tail = _variable_tail(value)
        if tail is None:
            continue
        if _CONTAINED.search(_func_text(sf, call)):
            continue
        hits.append(RuleHit("path_traversal", call, tail, 22, "MEDIUM",
                            f"Path built by joining a variable part reaches {name}() with no "
                            "containment check (resolve + is_relative_to)."))
    return hits


def _clone_parts(sf: SourceFile, node: Node) -> list[str] | None:
    """The argv of a ``git clone`` given as a list literal, or split from a string."""
    if node.type == "list":
        return [string_value(sf, c) or f"<{sf.text(c)}>" for c in node.named_children]
    literal = string_value(sf, node)
    if literal is not None:
        return literal.split()
    if node.type in ("string", "binary_operator", "concatenated_string"):
        # f-string or "git clone " + url: literal words plus opaque variable parts.
        return re.sub(r"[\"'+{}]|\bf(?=[\"'])", " ", sf.text(node)).split()
    return None


def clone_into_cwd(sf: SourceFile) -> list[RuleHit]:
    """``git clone`` calls whose destination is missing or the working directory."""
    hits: list[RuleHit] = []
    for caps in matches("calls", sf.root):
        call = caps.get("call.plain", caps.get("call.method_call", [None]))[0]
        if call is None:
            continue
        positional, keywords = call_arguments(caps["call.args"][0])
        method = node_text(caps["call.method"][0]) if "call.method" in caps else ""
        if method == "clone_from" and positional:
            dest = positional[1] if len(positional) > 1 else keywords.get("to_path")
            if dest is None or _CWD.match(sf.text(dest)):
                hits.append(_clone_hit(call, positional[0]))
            continue
        if not positional:
            continue
        parts = _clone_parts(sf, positional[0])
        if not parts or "clone" not in parts or not any(p.endswith("git") for p in parts[:3]):
            continue
        rest = [p for p in parts[parts.index("clone") + 1:] if not p.startswith("-")]
        cwd = keywords.get("cwd")
        into_cwd = len(rest) <= 1 or _CWD.match(rest[-1]) or rest[-1] in (".", "./")
        if into_cwd and (cwd is None or _CWD.match(sf.text(cwd))):
            url = positional[0].named_children[-1] if positional[0].type == "list" and \
                positional[0].named_children else positional[0]
            hits.append(_clone_hit(call, url))
    return hits


_SECRET_NAME = re.compile(r"api[_-]?key|secret|token|passw(or)?d|access[_-]?key|private[_-]?key",
                          re.I)
_SECRET_VALUE = re.compile(r"^(sk-|sk_live_|ghp_|gho_|github_pat_|AKIA|xox[bap]-|AIza)")


def hardcoded_secrets(sf: SourceFile) -> list[RuleHit]:
    """String literals assigned to secret-named variables, or shaped like known API keys."""
    hits: list[RuleHit] = []
    for caps in matches("strings", sf.root):
        if "prompt.target" not in caps:
            continue
        target, value_node = caps["prompt.target"][0], caps["prompt.value"][0]
        value = string_value(sf, value_node)
        if value is None or len(value) < 12 or " " in value:
            continue
        if _SECRET_VALUE.match(value) or _SECRET_NAME.search(sf.text(target)):
            hits.append(RuleHit("hardcoded_secret", value_node.parent or value_node, value_node,
                                798, "HIGH", f"Secret-looking literal assigned to "
                                f"{sf.text(target)[:40]}: {value[:4]}… ({len(value)} chars)."))
    return hits


def _clone_hit(call: Node, url: Node | None) -> RuleHit:
    """A clone-into-working-directory finding."""
    return RuleHit("clone_into_cwd", call, url, 668, "MEDIUM",
                   "git clone writes into the current working directory instead of an "
                   "isolated temporary directory.")
