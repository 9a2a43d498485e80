"""Parse a workspace's Python files once with tree-sitter and share the trees.

Queries live as ``.scm`` files in ``queries/`` beside this module. Trees are parsed
once per workspace (``shared.per_workspace``) so the source, security and report detectives
reuse them instead of parsing the same files three times. A tree costs about twenty times
its source in memory: once a single detective still reads them (the runner says when), the
index releases its trees and a file read again is parsed again, a bounded number kept.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import tree_sitter
import tree_sitter_python

from courtroom.detectives.repo.listing import SOURCE_SUFFIXES, extensionless
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.shared import per_workspace

QUERY_DIR = Path(__file__).with_name("queries")
#: Python files larger than this are listed as skipped rather than parsed.
MAX_PARSE_BYTES = 600_000
#: Deepest syntax tree examined. Real code stays far below it (CPython itself refuses
#: more than 200 nested brackets), while every walk up a tree-sitter tree costs its depth,
#: so a hostile file nested thousands deep would cost minutes in the queries and walks.
MAX_TREE_DEPTH = 1_000
#: Source bytes whose trees a released index keeps (about 20 times as much memory, so some
#: 340 MB): a repository below three quarters of it (about 2,000 files of real code) is
#: never parsed twice.
KEPT_TREE_BYTES = 16_000_000
#: Once the trees parsed again add up to this many times the released source, nothing more
#: is dropped: files written to miss at every read (calls going round past the budget)
#: then cost memory, as before trees were released, and not endless parsing. Real code
#: parses 1.4 times its source again at 5,000 files, the engine alone from the start.
REPARSE_FACTOR = 8

Node = tree_sitter.Node


@functools.cache
def language() -> tree_sitter.Language:
    """The tree-sitter Python grammar."""
    return tree_sitter.Language(tree_sitter_python.language())


@functools.cache
def query(name: str) -> tree_sitter.Query:
    """Compile ``queries/<name>.scm`` once."""
    text = (QUERY_DIR / f"{name}.scm").read_text(encoding="utf-8")
    return tree_sitter.Query(language(), text)


def matches(name: str, node: Node) -> list[dict[str, list[Node]]]:
    """Run a named query over ``node``; one capture dict per match."""
    cursor = tree_sitter.QueryCursor(query(name))
    return [caps for _idx, caps in cursor.matches(node)]


def captures(name: str, node: Node) -> dict[str, list[Node]]:
    """Run a named query over ``node``; nodes by capture name, in document order."""
    found = tree_sitter.QueryCursor(query(name)).captures(node)
    return {key: sorted(nodes, key=lambda n: n.start_byte) for key, nodes in found.items()}


class TreeCache:
    """The trees of a released index, parsed again on demand, within a budget of source bytes.

    Three quarters of the budget hold released trees (the index's last files) and are never
    given up for a tree parsed again: the taint engine reads the files in path order, pass
    after pass, and a least-recently-used cache over such scans would miss at every read.
    The last quarter holds trees parsed again, the least recently read dropped first: a
    function's callees often lie in a few other files. Past ``REPARSE_FACTOR`` nothing is
    dropped any more.
    """

    def __init__(self, budget: int = KEPT_TREE_BYTES) -> None:
        self._lock = threading.Lock()
        self._released_room = budget * 3 // 4
        self._recent_room = budget - self._released_room
        self._released_trees: OrderedDict[str, tuple[int, tree_sitter.Tree]] = OrderedDict()
        self._recent: OrderedDict[str, tuple[int, tree_sitter.Tree]] = OrderedDict()
        self._held_released = self._held_recent = 0
        #: Source bytes released into the cache, and parsed again since.
        self._released = self._reparsed = 0
        #: Trees parsed again so far: what a budget smaller than the repository costs.
        self.parsed = 0

    def adopt(self, sf: SourceFile, tree: tree_sitter.Tree) -> None:
        """Take over a released file's tree (in the index's order: the last ones stay)."""
        size = len(sf.source)
        with self._lock:
            self._released += size
            self._released_trees[sf.path] = (size, tree)
            self._held_released += size
            while self._held_released > self._released_room and len(self._released_trees) > 1:
                self._held_released -= self._released_trees.popitem(last=False)[1][0]

    def tree(self, sf: SourceFile) -> tree_sitter.Tree:
        """``sf``'s tree, parsed again when it is not kept."""
        # (One frame whether it is kept or not: the interpreter's stack depth, and so where
        # a deeply nested file stops, must not depend on what the cache holds.)
        with self._lock:
            kept = self._released_trees.get(sf.path) or self._recent.get(sf.path)
            if kept is not None:
                if sf.path in self._recent:
                    self._recent.move_to_end(sf.path)
                return kept[1]
        tree = parse_tree(sf.source)
        size = len(sf.source)
        with self._lock:
            self.parsed += 1
            self._reparsed += size
            self._recent[sf.path] = (size, tree)
            self._held_recent += size
            saturated = self._reparsed > REPARSE_FACTOR * self._released
            while not saturated and self._held_recent > self._recent_room \
                    and len(self._recent) > 1:
                self._held_recent -= self._recent.popitem(last=False)[1][0]
        return tree


@dataclass
class SourceFile:
    """One parsed Python file."""

    path: str
    source: bytes
    #: The file's tree, or once its index released the trees, the cache that parses it again.
    tree: tree_sitter.Tree | TreeCache
    error_lines: list[int] = field(default_factory=list)

    @property
    def root(self) -> Node:
        """The module node. After its index released the trees, two reads of a file may
        give nodes of two trees: compare nodes (and their ids) from one read only."""
        held = self.tree
        tree = held.tree(self) if isinstance(held, TreeCache) else held
        return tree.root_node

    def text(self, node: Node | None) -> str:
        """The source text of ``node`` (empty for None)."""
        if node is None:
            return ""
        return self.source[node.start_byte:node.end_byte].decode("utf-8", errors="replace")

    def loc(self, node: Node) -> str:
        """``path:line`` of a node, 1-based."""
        return f"{self.path}:{node.start_point[0] + 1}"


@dataclass
class SourceIndex:
    """Every parsed Python file of a workspace, plus what could not be parsed."""

    files: list[SourceFile]
    skipped: list[str]
    python_count: int
    #: Source files in the tree that could not be read (over the size cap, unreadable),
    #: with the reason: code may hide there. Binary files (NUL bytes, which Python refuses
    #: to run) and links out of the tree are skipped but are not source.
    unexamined: list[tuple[str, str]] = field(default_factory=list)

    @property
    def with_errors(self) -> list[SourceFile]:
        """Files whose tree holds syntax errors (tree-sitter parsed on regardless)."""
        return [f for f in self.files if f.error_lines]

    def release(self, cache: TreeCache | None = None) -> None:
        """Stop holding every tree: the cache keeps the last ones within its budget (all of
        a repository smaller than three quarters of it, so nothing is parsed twice) and
        parses the others again when they are read."""
        kept = cache or TreeCache()
        for sf in self.files:
            if not isinstance(sf.tree, TreeCache):
                kept.adopt(sf, sf.tree)
                sf.tree = kept


def _error_lines(root: Node, limit: int = 5) -> list[int]:
    """Lines of the first few ERROR/missing nodes of a tree."""
    if not root.has_error:
        return []
    lines: list[int] = []
    stack = [root]
    while stack and len(lines) < limit:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            lines.append(node.start_point[0] + 1)
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    return sorted(set(lines)) or [1]


def parse_tree(data: bytes) -> tree_sitter.Tree:
    """A file's tree (never raises on bad syntax). A released tree is parsed again here
    too: the same bytes give the same tree, which is how its nodes are found again."""
    return tree_sitter.Parser(language()).parse(data)


def parse_bytes(path: str, data: bytes) -> SourceFile:
    """Parse one file's bytes (never raises on bad syntax)."""
    tree = parse_tree(data)
    return SourceFile(path, data, tree, _error_lines(tree.root_node))


def too_deep(root: Node, limit: int = MAX_TREE_DEPTH) -> bool:
    """Whether the tree under ``root`` nests more than ``limit`` levels (iterative, and it
    stops at the first node past the limit)."""
    cursor = root.walk()
    depth = 0
    while True:
        # A subtree of n nodes nests at most n - 1 levels below its top (the count is kept
        # in the tree, no walk): only a subtree that could pass the limit is entered, so a
        # real file is decided by a few of its nodes instead of all of them.
        here = cursor.node
        could_pass = here is None or depth + here.descendant_count - 1 > limit
        if could_pass and cursor.goto_first_child():
            depth += 1
            if depth > limit:
                return True
            continue
        while not cursor.goto_next_sibling():
            if depth == 0 or not cursor.goto_parent():
                return False
            depth -= 1


def build_index(ws: Workspace) -> SourceIndex:
    """Parse every Python file of the workspace."""
    files: list[SourceFile] = []
    skipped: list[str] = []
    unexamined: list[tuple[str, str]] = []
    paths = python_paths(ws)
    for rel in paths:
        data = ws.read_bytes(rel, limit=MAX_PARSE_BYTES)
        if data is None or b"\x00" in data[:4096]:
            skipped.append(rel)
            real = ws.path_of(rel)
            if data is None and real is not None:
                unexamined.append((rel, _why_unread(real)))
            continue
        parsed = parse_bytes(rel, data)
        if too_deep(parsed.root):
            skipped.append(rel)
            unexamined.append((rel, f"nested too deeply (over {MAX_TREE_DEPTH:,} levels)"))
            continue
        files.append(parsed)
    return SourceIndex(files, skipped, len(paths), unexamined)


def python_paths(ws: Workspace) -> list[str]:
    """Every Python source: ``*.py``, ``*.pyw`` and extensionless scripts whose shebang
    names Python (``bin/deploy``): code the interpreter runs is code the scan must see."""
    paths = ws.files(SOURCE_SUFFIXES)
    scripts = [rel for rel in ws.files() if extensionless(rel)
               and _python_shebang(ws.path_of(rel))]
    return sorted({*paths, *scripts})


def _python_shebang(real: Path | None) -> bool:
    if real is None:
        return False
    try:
        with real.open("rb") as handle:
            first = handle.readline(256)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _why_unread(real: Path) -> str:
    """Why a file inside the tree could not be read as source."""
    try:
        size = real.stat().st_size
    except OSError as exc:
        return f"unreadable ({type(exc).__name__})"
    return f"over the {MAX_PARSE_BYTES:,}-byte limit ({size:,} bytes)" \
        if size > MAX_PARSE_BYTES else "unreadable"


@per_workspace
def source_index(ws: Workspace) -> SourceIndex:
    """The workspace's parsed Python files, computed once and shared."""
    return build_index(ws)


def release_trees(ws: Workspace) -> bool:
    """Release the trees of the workspace's index; False when it is not built yet."""
    index = source_index.peek(ws)
    if index is not None:
        index.release()
    return index is not None
