"""Paths into a tree its author controls: globs, lexical lookups, the PDF search."""

from __future__ import annotations

import os
from pathlib import Path

from config_builders import tree

from courtroom.tree_paths import find_pdf, glob_in_tree, inside_tree, matcher


def test_globs_follow_gitignore_habits() -> None:
    match = matcher(["vendor", "*.min.js", "gen/**/*_pb2.py", "docs/[ab]?.md", "x[!0-9]"])
    assert match("vendor/x/y.py") and match("web/app.min.js") and match("gen/a/b/m_pb2.py")
    assert match("gen/m_pb2.py") and match("lib/vendor/z.js")
    assert match("docs/a1.md") and not match("docs/c1.md") and not match("src/vendor.py")
    assert match("xa") and not match("x1") and not matcher([])("anything")


def test_inside_tree_is_lexical_and_refuses_every_link(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", files={"a/b.txt": b"x"})
    os.symlink(root / "a", root / "alias")
    assert inside_tree(root, "a/b.txt") == root / "a/b.txt"
    assert inside_tree(root, "alias/b.txt") is None  # even a link back into the tree
    assert inside_tree(root, "a/../../x") is None and inside_tree(root, "/etc") is None


def test_pdf_as_given_then_inside_the_tree_never_through_a_link(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", files={"docs/r.pdf": b"%PDF"})
    cwd = tree(tmp_path / "cwd", files={"docs/r.pdf": b"%PDF beside"})
    assert find_pdf("docs/r.pdf", base=cwd, root=root).path == cwd / "docs/r.pdf"
    inside = find_pdf("docs/r.pdf", base=tmp_path, root=root)
    assert inside.path == root.resolve() / "docs/r.pdf"
    assert inside.tried == (tmp_path / "docs/r.pdf", root.resolve() / "docs/r.pdf")
    missing = find_pdf("r.pdf", base=tmp_path / "cwd", root=root)
    assert missing.path is None and missing.refused is None
    assert missing.missing("r.pdf") == (
        f"pdf r.pdf not found (tried: {tmp_path / 'cwd/r.pdf'}, {root.resolve() / 'r.pdf'})"
    )
    os.symlink(tmp_path / "cwd/docs/r.pdf", root / "link.pdf")
    linked = find_pdf("link.pdf", base=None, root=root)
    assert linked.path is None and linked.refused == root.resolve() / "link.pdf"
    assert glob_in_tree(root, "*.pdf") is None and glob_in_tree(root, "**/*.pdf") is not None
