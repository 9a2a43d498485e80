"""Paths into a tree its author controls: globs, lexical lookups, the PDF search."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from config_builders import settle, tree

from courtroom.errors import ConfigError
from courtroom.settings.config_file import TREE_FILE
from courtroom.settings.values import MAX_GLOBS
from courtroom.tree_paths import (
    MAX_GLOB_CHARS,
    find_pdf,
    glob_in_tree,
    glob_problem,
    inside_tree,
    matcher,
)

#: Generous for a loaded machine: the starry glob below kept a regular expression busy
#: for minutes on one name; it is matched in milliseconds now.
SECONDS = 3.0
STARRY = "*a" * 16 + "*b"


def test_globs_follow_gitignore_habits() -> None:
    match = matcher(["vendor", "*.min.js", "gen/**/*_pb2.py", "docs/[ab]?.md", "x[!0-9]"])
    assert match("vendor/x/y.py") and match("web/app.min.js") and match("gen/a/b/m_pb2.py")
    assert match("gen/m_pb2.py") and match("lib/vendor/z.js")
    assert match("docs/a1.md") and not match("docs/c1.md") and not match("src/vendor.py")
    assert match("xa") and not match("x1") and not matcher([])("anything")


def test_stars_span_parts_only_when_doubled() -> None:
    match = matcher(["src/**.py", "a*/b", "**/cache/**", "top/**/x?"])
    assert match("src/a/b/c.py") and match("src/c.py") and not match("lib/src.py")
    assert match("ab/b") and not match("a/x/b") and match("deep/cache/f")
    assert match("top/x1") and match("top/m/n/x2") and not match("top/m/x12")


def test_a_starry_config_glob_on_a_long_name_is_matched_in_linear_time(
        tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", f"ignore: ['{STARRY}']\n")
    skips = settle(root, tmp_path).skips()
    name = "a" * 200
    started = time.perf_counter()
    assert not skips(name) and not skips(f"docs/{name}/{name}.md")
    assert skips("a" * 16 + "b/x.md") and skips(f"docs/{name}b/x.md")
    assert time.perf_counter() - started < SECONDS


def test_globs_that_make_every_character_new_work_stop_matching_past_a_budget() -> None:
    letters = "abcdefghijklmnopqrstuvwxyz0123456789"
    globs = ["*" + "*".join(letters[(g + i) % 36] for i in range(99)) + "*q"
             for g in range(MAX_GLOBS)]
    rng = random.Random(0)
    names = ["".join(rng.choice(letters) for _ in range(200)) for _ in range(3_000)]
    starry = "-".join(letters[i % 36] for i in range(99)) + "-q"  # matches the first glob
    assert matcher(globs)(starry)
    match = matcher(globs)
    started = time.perf_counter()
    assert not any(match(name) for name in names)
    # About 0.1 s a name without the budget; it runs out within the first few hundred.
    assert time.perf_counter() - started < 30
    assert not match(starry)  # spent: it hides nothing more, so the audit reads more


def test_a_glob_longer_than_the_bound_is_one_config_error(tmp_path: Path) -> None:
    long = "a*" * (MAX_GLOB_CHARS // 2) + "b"
    assert glob_problem(long) == f"is longer than {MAX_GLOB_CHARS} characters"
    assert glob_problem("a*" * (MAX_GLOB_CHARS // 2)) is None
    root = tree(tmp_path / "repo", f"ignore: ['{long}']\n")
    with pytest.raises(ConfigError) as caught:
        settle(root, tmp_path)
    assert str(caught.value) == (f"{TREE_FILE}: ignore: '{long}' is longer than "
                                 f"{MAX_GLOB_CHARS} characters")


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
