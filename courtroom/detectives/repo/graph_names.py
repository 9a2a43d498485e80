"""Node names in LangGraph wiring: string constants, START/END, and what routers return.

Nothing is imported or executed: names are resolved from literals, module or class string
constants and plain identifiers, and a router's targets from its return statements.
"""

from __future__ import annotations

from courtroom.detectives.nodes import node_text, string_value
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, matches

START, END = "__start__", "__end__"


def constants(index: SourceIndex) -> dict[str, str]:
    """Module-level ``NAME = "text"`` and class-level ``Cls.NAME`` string constants."""
    table: dict[str, str] = {}
    for sf in index.files:
        for caps in matches("constants", sf.root):
            name = node_text(caps["const.name"][0])
            value = string_value(sf, caps["const.value"][0])
            if value is None:
                continue
            if "const.class" in caps:
                table[f"{node_text(caps['const.class'][0])}.{name}"] = value
            else:
                table.setdefault(name, value)
    return table


def resolve(sf: SourceFile, node: Node | None, table: dict[str, str]) -> str | None:
    """A node name from a literal, START/END, a constant or a plain name."""
    if node is None:
        return None
    literal = string_value(sf, node)
    if literal is not None:
        return literal
    text = sf.text(node)
    if text in ("START", "langgraph.graph.START"):
        return START
    if text in ("END", "langgraph.graph.END"):
        return END
    if node.type == "attribute":
        tail = ".".join(text.split(".")[-2:])
        if tail in table:
            return table[tail]
        last = text.split(".")[-1]
        return table.get(last, last)
    if node.type == "identifier":
        return table.get(text, text)
    return None


def router_returns(index: SourceIndex, name: str, table: dict[str, str],
                   depth: int = 0) -> tuple[list[str], set[str]]:
    """Targets a router function can return when no path map is given, and those it
    returns several at once (a list of node names or ``Send(...)`` calls: a fan-out).
    A router that returns what another router function returns inherits its targets."""
    if depth > 3:
        return [], set()
    for sf in index.files:
        for caps in matches("functions", sf.root):
            if node_text(caps["function.name"][0]) != name:
                continue
            body = caps["function.body"][0]
            sends = {s for call in descendants(body, "call")
                     if sf.text(call.child_by_field_name("function")).split(".")[-1] == "Send"
                     for args in [call.child_by_field_name("arguments")]
                     if args is not None and args.named_children
                     for target in loop_values(sf, args.named_children[0], body)
                     if (s := resolve(sf, target, table))}
            out, many = set(sends), set(sends)
            for ret in descendants(body, "return_statement"):
                value = ret.named_children[0] if ret.named_children else None
                callee = _delegate(sf, body, value) if value is not None else None
                if callee and callee != name:
                    sub, sub_many = router_returns(index, callee, table, depth + 1)
                    out |= set(sub)
                    many |= sub_many
                    continue
                if value is None or sends:
                    continue
                items = _listed(sf, body, value)
                found = {r for r in (_constant(sf, v, table) for v in items or [value]) if r}
                out |= found
                many |= found if len(items) > 1 else set()
            return sorted(out), many
    return [], set()


def _delegate(sf: SourceFile, body: Node, value: Node) -> str | None:
    """The function whose result a return hands on: ``return f(s)`` or ``x = f(s); return x``."""
    call = value if value.type == "call" else None
    if value.type == "identifier":
        for assign in descendants(body, "assignment"):
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            if left is not None and right is not None and sf.text(left) == sf.text(value) \
                    and right.type == "call":
                call = right
    fn = call.child_by_field_name("function") if call is not None else None
    return sf.text(fn).split(".")[-1] if fn is not None else None


def loop_values(sf: SourceFile, value: Node, body: Node | None = None) -> list[Node]:
    """What a name stands for when it is the variable of an enclosing ``for`` loop over a
    literal list or over a list variable built in the same function (``for j in ("a",
    "b"): Send(j, ...)``); otherwise the node itself."""
    if value.type != "identifier":
        return [value]
    loops = descendants(body, "for_statement") if body is not None else []
    parent = value.parent
    while parent is not None:
        if parent.type == "for_statement":
            loops.append(parent)
        if parent.type == "function_definition" and body is None:
            body = parent.child_by_field_name("body")
        parent = parent.parent
    for loop in loops:
        left, right = loop.child_by_field_name("left"), loop.child_by_field_name("right")
        if left is None or right is None or sf.text(left) != sf.text(value):
            continue
        if right.type in ("tuple", "list"):
            return list(right.named_children)
        if right.type == "identifier" and body is not None:
            return _listed(sf, body, right) or [value]
    return [value]


def _listed(sf: SourceFile, body: Node, value: Node) -> list[Node]:
    """Elements of a returned list literal, or of a list variable built in the function."""
    if value.type in ("list", "tuple"):
        return list(value.named_children)
    if value.type != "identifier":
        return []
    var = sf.text(value)
    out: list[Node] = []
    for call in descendants(body, "call"):
        fn = sf.text(call.child_by_field_name("function"))
        args = call.child_by_field_name("arguments")
        if fn in (f"{var}.append", f"{var}.extend") and args is not None:
            for arg in args.named_children:
                out += list(arg.named_children) if arg.type == "list" else [arg]
    for assign in descendants(body, "assignment"):
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is not None and sf.text(left) == var and right is not None \
                and right.type == "list":
            out += list(right.named_children)
    return out


def _constant(sf: SourceFile, value: Node, table: dict[str, str]) -> str | None:
    """A node name from a returned constant; ``return state["next"]`` cannot be resolved."""
    text = sf.text(value)
    if string_value(sf, value) is not None or text in table or \
            ".".join(text.split(".")[-2:]) in table or text in ("END", "START"):
        return resolve(sf, value, table)
    return None


def descendants(node: Node, kind: str) -> list[Node]:
    """All descendants of node of one kind."""
    out, stack = [], [node]
    while stack:
        cur = stack.pop()
        if cur.type == kind:
            out.append(cur)
        stack.extend(cur.children)
    return out
