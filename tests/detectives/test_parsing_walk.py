"""Walking a syntax tree: every node under the one given, in document order, none beside."""

from __future__ import annotations

from courtroom.detectives.parsing import Node, parse_bytes, walk


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
