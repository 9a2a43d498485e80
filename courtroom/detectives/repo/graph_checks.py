"""Checks that the wired graph can run at all: every node has a way on, and the graph's
modules import names their in-repository modules really define.

Both are read from the source only (nothing is imported): a name imported from a module of
the repository that neither defines nor re-exports it is an ImportError waiting at HEAD.
"""

from __future__ import annotations

from dataclasses import dataclass

from courtroom.detectives.parsing import Node, SourceFile, SourceIndex
from courtroom.detectives.repo.graph_names import END, START

_DEFINES = ("function_definition", "class_definition")


@dataclass(frozen=True)
class BrokenImport:
    """A name imported from an in-repo module that does not define it."""

    location: str
    module: str
    name: str


def dead_ends(nodes: dict[str, str], edges: list[tuple[str, str]],
              dynamic: bool) -> list[str]:
    """Nodes that no edge leaves (the run stops there). None are claimed when nodes route
    by ``Command`` or when an edge names a node that was never added (wiring not resolved)."""
    known = set(nodes) | {START, END}
    if dynamic or any(n not in known for edge in edges for n in edge):
        return []
    leaving = {src for src, _dst in edges}
    named = set(nodes) | {dst for _src, dst in edges}
    return sorted(n for n in named - leaving if n not in (END, START))


def uneven_joins(edges: list[tuple[str, str, bool]], fan_in: dict[str, list[str]],
                 branches: set[str]) -> dict[str, dict[str, int]]:
    """Joins reached by separate edges from parallel branches of different depth: the join
    node runs once per arrival instead of once, since only a list join waits for them all.

    ``edges`` are (source, target, joined); ``branches`` the nodes a fan-out starts (and
    what follows them); depth is the fewest hops from START.
    """
    depth = {START: 0}
    frontier = [START]
    while frontier:
        nxt = []
        for node in frontier:
            for src, dst, _joined in edges:
                if src == node and dst not in depth:
                    depth[dst] = depth[node] + 1
                    nxt.append(dst)
        frontier = nxt
    out: dict[str, dict[str, int]] = {}
    for target, sources in fan_in.items():
        separate = {src for src, dst, joined in edges if dst == target and not joined}
        depths = {src: depth[src] for src in sources
                  if src in separate and src in depth and src in branches}
        if len(set(depths.values())) > 1:
            out[target] = depths
    return out


def unreachable(nodes: dict[str, str], edges: list[tuple[str, str]],
                dynamic: bool) -> list[str]:
    """Nodes added to the graph that no path from START reaches: written, never run.

    None are claimed when nodes route by ``Command`` or an edge names a node that was never
    added (the wiring was not fully resolved), or when nothing leaves START at all.
    """
    known = set(nodes) | {START, END}
    if dynamic or not any(src == START for src, _dst in edges) or \
            any(n not in known for edge in edges for n in edge):
        return []
    seen, frontier = {START}, [START]
    while frontier:
        node = frontier.pop()
        for src, dst in edges:
            if src == node and dst not in seen:
                seen.add(dst)
                frontier.append(dst)
    return sorted(set(nodes) - seen)


def unknown_targets(nodes: dict[str, str], routes: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(source, target) routes whose target is neither a node nor END: LangGraph refuses
    the graph when it compiles (a path map) or when the router first returns it."""
    return [(src, dst) for src, dst in routes if dst not in nodes and dst not in (END, START)]


def _module_file(index: SourceIndex, sf: SourceFile, module: str) -> SourceFile | None:
    """The repository file a ``from X import`` names (absolute or relative), if any."""
    by_path = {f.path: f for f in index.files}
    dots = len(module) - len(module.lstrip("."))
    parts = [p for p in module.lstrip(".").split(".") if p]
    if dots:
        base = sf.path.split("/")[:-1]
        base = base[: len(base) - (dots - 1)] if dots > 1 else base
        candidates = ["/".join(base + parts)]
    else:
        stem = "/".join(parts)
        candidates = [stem] + [f.path[: -len(stem) - 3] + stem for f in index.files
                               if f.path.endswith("/" + stem + ".py")]
    for stem in candidates:
        for path in (f"{stem}.py", f"{stem}/__init__.py"):
            if path.lstrip("/") in by_path:
                return by_path[path.lstrip("/")]
    return None


def _defined(sf: SourceFile) -> set[str] | None:
    """Top-level names a module defines or imports; None when it re-exports with ``*``."""
    names: set[str] = set()
    for node in sf.root.named_children:
        target = node.child_by_field_name("definition") if node.type == "decorated_definition" \
            else node
        if target is not None and target.type in _DEFINES:
            name = target.child_by_field_name("name")
            if name is not None:
                names.add(sf.text(name))
        elif node.type in ("import_statement", "import_from_statement"):
            if "*" in sf.text(node):
                return None
            names |= {sf.text(n).split(" as ")[-1].split(".")[0] for n in _imported(node)}
        else:
            names |= _assigned(sf, node)
    return names


def _assigned(sf: SourceFile, node: Node) -> set[str]:
    """Names bound by a top-level statement (assignments, also inside if/try blocks)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.type == "assignment":
            left = cur.child_by_field_name("left")
            if left is not None:
                out |= {sf.text(n) for n in [left, *left.named_children]
                        if n.type == "identifier"}
        elif cur.type in _DEFINES:
            name = cur.child_by_field_name("name")
            if name is not None:
                out.add(sf.text(name))
        elif cur.type in ("import_statement", "import_from_statement"):
            out |= {sf.text(n).split(" as ")[-1].split(".")[0] for n in _imported(cur)}
        elif cur.type not in ("function_definition", "class_definition"):
            stack.extend(cur.named_children)
    return out


def _imported(node: Node) -> list[Node]:
    """The imported-name nodes of an import statement (not its module name)."""
    module = node.child_by_field_name("module_name")
    return [c for c in node.named_children
            if c.type in ("dotted_name", "aliased_import") and c != module]


def broken_imports(index: SourceIndex, files: list[SourceFile]) -> list[BrokenImport]:
    """Names the given files import from in-repo modules that do not define them."""
    out: list[BrokenImport] = []
    for sf in files:
        for node in sf.root.named_children:
            if node.type != "import_from_statement":
                continue
            module_node = node.child_by_field_name("module_name")
            module = sf.text(module_node) if module_node is not None else ""
            target = _module_file(index, sf, module)
            defined = _defined(target) if target is not None else None
            if target is None or defined is None:
                continue
            folder = target.path.rsplit("/", 1)[0] if target.path.endswith("__init__.py") else ""
            for imported in _imported(node):
                name = sf.text(imported).split(" as ")[0].strip()
                submodule = folder and any(f.path in (f"{folder}/{name}.py",
                                                      f"{folder}/{name}/__init__.py")
                                           for f in index.files)
                if name not in defined and not submodule:
                    out.append(BrokenImport(sf.loc(imported), module, name))
    return out
