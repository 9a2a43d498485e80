"""Checks bandit does not make, written over the tree-sitter tree.

- cloning into the working directory (CWE-668): ``git clone URL`` with no destination,
  or with ``.``/``os.getcwd()``/``Path.cwd()`` as destination, instead of a temp dir;
- committed secrets (CWE-798): long literals assigned to secret-named variables or shaped
  like known API keys. (Flows into sinks, path traversal included, are the taint engine's.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.nodes import call_arguments, node_text, string_value
from courtroom.detectives.parsing import Node, SourceFile, matches

_CWD = re.compile(r"^(\"\.\"|'\.'|os\.getcwd\(\)|Path\.cwd\(\)|os\.curdir)$")


@dataclass(frozen=True)
class RuleHit:
    """A custom finding: where it is (1-based line and column), the source text of the value
    reaching it, and what it is. Positions, not nodes: a node holds its file's whole tree."""

    rule: str
    line: int
    column: int
    value: str | None
    cwe: int
    severity: str
    text: str

    @classmethod
    def at(cls, sf: SourceFile, rule: str, node: Node, value: Node | None, cwe: int,
           severity: str, text: str) -> RuleHit:
        """A finding at ``node`` about ``value``."""
        line, column = node.start_point
        return cls(rule, line + 1, column + 1, sf.text(value) if value is not None else None,
                   cwe, severity, text)


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
                hits.append(_clone_hit(sf, call, positional[0]))
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
            hits.append(_clone_hit(sf, call, url))
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
            hits.append(RuleHit.at(sf, "hardcoded_secret", value_node.parent or value_node,
                                   value_node, 798, "HIGH", f"Secret-looking literal assigned "
                                   f"to {sf.text(target)[:40]}: {value[:4]}… ({len(value)} "
                                   "chars)."))
    return hits


def _clone_hit(sf: SourceFile, call: Node, url: Node | None) -> RuleHit:
    """A clone-into-working-directory finding."""
    return RuleHit.at(sf, "clone_into_cwd", call, url, 668, "MEDIUM",
                   "git clone writes into the current working directory instead of an "
                   "isolated temporary directory.")
