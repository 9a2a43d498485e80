"""A source nested past the depth bound is reported not examined, quickly, and the security
scan fails closed on it; a tree within the bound is parsed as usual."""

from __future__ import annotations

import inspect
import sys
import time
from pathlib import Path

from builders import make_repo

from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.nodes import string_value
from courtroom.detectives.parsing import MAX_TREE_DEPTH, Node, parse_bytes, source_index, too_deep
from courtroom.detectives.security.detective import security
from detectives.conftest import OpenCase, by_goal

#: Generous for a loaded machine: the detectives spent minutes on the deep file below
#: (tree-sitter walks and queries cost its depth per node); the bound makes it seconds.
SECONDS = 20.0
INJECTION = "import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"


def _depth(node: Node) -> int:
    return 1 + max((_depth(child) for child in node.children), default=0)


def test_the_depth_check_stops_exactly_past_its_limit() -> None:
    root = parse_bytes("m.py", b"x = [[[f(1)]]]\nif y:\n    z = (1 + 2) * 3\n").root
    levels = _depth(root) - 1  # edges from the module to its deepest leaf
    assert not too_deep(root, levels) and too_deep(root, levels - 1)
    assert not too_deep(parse_bytes("e.py", b"").root, 0)


def test_the_depth_check_skips_no_subtree_that_could_pass_the_limit() -> None:
    # The deepest part sits in the last of many siblings, under a parse error, beside
    # wide and shallow code: the check enters only subtrees big enough to nest past the
    # limit, and must still find the one that does at every limit.
    shallow = "".join(f"v{i} = {i}\n" for i in range(300))
    deep = "def f(:\n    return g(" + "[" * 40 + "1" + "]" * 40 + ")\n"
    root = parse_bytes("m.py", (shallow + deep).encode()).root
    levels = _depth(root) - 1
    assert root.has_error and levels > 40
    assert [too_deep(root, limit) for limit in range(levels + 2)] == \
        [limit < levels for limit in range(levels + 2)]


def test_a_file_nested_thousands_deep_is_not_examined_and_fails_the_scan_closed(
        tmp_path: Path, open_case: OpenCase) -> None:
    deep = "x = " + "f(" * 60_000 + "1" + ")" * 60_000 + "\n"  # 180 KB
    repo = make_repo(tmp_path / "repo", files={"deep.py": deep, "tool.py": INJECTION,
                                               "lists.py": "y = " + "[" * 2_000 + "]" * 2_000})
    started = time.perf_counter()
    case = open_case(repo)
    index = source_index(case.workspace)
    assert [sf.path for sf in index.files] == ["tool.py"]
    assert index.unexamined == [(name, f"nested too deeply (over {MAX_TREE_DEPTH:,} levels)")
                                for name in ("deep.py", "lists.py")]
    evidence = security(case).evidence
    assert time.perf_counter() - started < SECONDS
    gap = by_goal(evidence, "Files the security scan could not examine")[0]
    assert SCAN_INCOMPLETE in gap.tags and gap.direction == "adverse"
    assert "deep.py: nested too deeply (over" in gap.rationale
    assert by_goal(evidence, "Security finding")  # the rest of the tree is still scanned


def test_a_string_in_parentheses_nested_to_the_bound_is_read_without_recursion() -> None:
    depth = MAX_TREE_DEPTH - 10
    sf = parse_bytes("p.py", ("x = " + "(" * depth + "'deep'" + ")" * depth).encode())
    assert not too_deep(sf.root)
    value = sf.root.named_children[0].named_children[0].child_by_field_name("right")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 50)  # far fewer frames than parentheses
    try:
        text = string_value(sf, value)
    finally:
        sys.setrecursionlimit(limit)
    assert text == "deep"
