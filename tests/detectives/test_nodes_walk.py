"""Walking a syntax tree: every node under the one given, in document order, none beside."""

from __future__ import annotations

from courtroom.detectives.nodes import SCOPES, walk
from courtroom.detectives.parsing import Node, parse_bytes


def _preorder(node: Node) -> list[Node]:
    return [node, *(n for child in node.children for n in _preorder(child))]


SOURCE = b"""import os

def run(cmd):
    if cmd:
        os.system("echo " + cmd)
    return [x for x in (1, 2)]

class A:
    def m(self): ...
"""


def test_a_walk_is_every_node_in_document_order() -> None:
    root = parse_bytes("m.py", SOURCE).root
    assert [n.id for n in walk(root)] == [n.id for n in _preorder(root)]


def test_a_walk_from_a_node_inside_never_leaves_it() -> None:
    root = parse_bytes("m.py", SOURCE).root
    func = root.named_children[1]
    body = func.child_by_field_name("body")
    assert body is not None
    nodes = walk(body)
    assert [n.id for n in nodes] == [n.id for n in _preorder(body)]
    assert all(body.start_byte <= n.start_byte and n.end_byte <= body.end_byte for n in nodes)
    leaf = nodes[-1]
    assert [n.id for n in walk(leaf)] == [leaf.id]


def test_a_walk_lists_a_scope_it_skips_but_not_what_is_inside_it() -> None:
    root = parse_bytes("m.py", SOURCE).root
    nodes = walk(root, SCOPES)
    defs = [n for n in nodes if n.type in SCOPES]
    assert [n.type for n in defs] == ["function_definition", "class_definition"]
    inside = {n.id for d in defs for n in _preorder(d)[1:]}
    assert not inside & {n.id for n in nodes}
    assert [n.id for n in nodes if n.id not in inside] == [
        n.id for n in _preorder(root) if n.id not in inside]
