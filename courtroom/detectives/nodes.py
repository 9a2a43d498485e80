"""Reading tree-sitter nodes of a parsed file: string literals, call arguments, ancestors,
a subtree in order (``parsing.py`` parses the files and runs the queries)."""

from __future__ import annotations

from courtroom.detectives.parsing import Node, SourceFile


def string_value(sf: SourceFile, node: Node | None) -> str | None:
    """The value of a plain string literal (or implicit concatenation), else None.

    f-strings with interpolations are not constants, so they give None.
    """
    # Parentheses are unwrapped in a loop: a tree may nest them up to MAX_TREE_DEPTH.
    while node is not None and node.type == "parenthesized_expression" \
            and node.named_child_count == 1:
        node = node.named_children[0]
    if node is None:
        return None
    if node.type == "concatenated_string":
        parts = [string_value(sf, c) for c in node.named_children]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if node.type != "string":
        return None
    out: list[str] = []
    for child in node.named_children:
        if child.type == "interpolation":
            return None
        if child.type == "string_content":
            out.append(_content(sf, child))
        elif child.type == "escape_sequence":
            out.append(_unescape(sf.text(child)))
    return "".join(out)


def _content(sf: SourceFile, node: Node) -> str:
    """A string's content with its escape sequences (children of the content) decoded."""
    pieces: list[str] = []
    cursor = node.start_byte
    for child in node.children:
        if child.type == "escape_sequence":
            pieces.append(sf.source[cursor:child.start_byte].decode("utf-8", "replace"))
            pieces.append(_unescape(sf.text(child)))
            cursor = child.end_byte
    pieces.append(sf.source[cursor:node.end_byte].decode("utf-8", "replace"))
    return "".join(pieces)


def _unescape(seq: str) -> str:
    """The character of a simple escape sequence."""
    simple = {"\\n": "\n", "\\t": "\t", "\\'": "'", '\\"': '"', "\\\\": "\\"}
    return simple.get(seq, seq)


def call_arguments(args: Node | None) -> tuple[list[Node], dict[str, Node]]:
    """Positional and keyword argument nodes of an ``argument_list``."""
    positional: list[Node] = []
    keywords: dict[str, Node] = {}
    if args is None:
        return positional, keywords
    for child in args.named_children:
        if child.type == "keyword_argument":
            name = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            if name is not None and value is not None and name.text is not None:
                keywords[name.text.decode("utf-8", "replace")] = value
        elif child.type != "comment":
            positional.append(child)
    return positional, keywords


def enclosing(node: Node, types: tuple[str, ...]) -> Node | None:
    """The nearest ancestor of one of ``types``."""
    parent = node.parent
    while parent is not None:
        if parent.type in types:
            return parent
        parent = parent.parent
    return None


#: Nodes that open a scope of their own: a body's own code stops at them.
SCOPES = frozenset({"function_definition", "class_definition", "lambda"})


def walk(node: Node, skip: frozenset[str] = frozenset()) -> list[Node]:
    """All descendants of ``node`` (pre-order, node included), not entering a node whose
    type is in ``skip`` (that node itself is listed: e.g. ``SCOPES`` for a body's own code)."""
    # A cursor moves inside the tree without building each node's list of children; it
    # never leaves the subtree it starts at (``goto_parent`` is false at ``node``).
    out: list[Node] = []
    cursor = node.walk()
    while True:
        here = cursor.node
        if here is not None:  # (a cursor made from a node always stands on one)
            out.append(here)
        if not (skip and here is not None and here.type in skip) and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def node_text(node: Node | None) -> str:
    """Decoded text of a node from its own bytes."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")
