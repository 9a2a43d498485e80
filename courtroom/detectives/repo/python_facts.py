"""Facts about state types, structured output and the chief justice, from tree-sitter trees."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from courtroom.detectives.common import is_test_path
from courtroom.detectives.nodes import call_arguments, node_text, walk
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, matches

STATE_BASES = re.compile(r"\b(BaseModel|TypedDict|MessagesState)\b")
#: The metadata of ``Annotated[T, m]`` that is a reducer: a function named or written in place.
_CALLABLE = re.compile(r"^(lambda\b.*|[A-Za-z_][\w.]*)$", re.S)
LLM_CALL = re.compile(r"\.(invoke|ainvoke|with_structured_output|generate|predict)\s*\(|"
                      r"messages\.(create|parse)\s*\(|chat\.completions|"
                      r"Chat(OpenAI|Anthropic)", re.S)
RETRY = re.compile(r"tenacity|@retry|\bretry\s*\(|Retrying\(|stop_after_attempt|max_retries|"
                   r"RetryPolicy|\.with_retry\(|\bretry_policy\b|"
                   r"for\s+\w*(attempt|retr|tries|try)\w*\s+in\s+range\(|"
                   r"while\s+\w*(attempt|retr|tries|try)\w*\s*[<>]|"
                   # A failed call asked again from its except clause: one retry by hand.
                   # Every run is bounded: the text is the audited author's.
                   r"\bexcept\b[^\n:]{0,200}:[^\n]{0,200}\n(?:[^\n]{0,300}\n){0,5}?"
                   r"[^\n]{0,300}\.a?invoke\s*\(",
                   re.S | re.I)


@dataclass(frozen=True)
class ClassFact:
    """A class with its bases and annotated fields."""

    name: str
    bases: str
    location: str
    fields: list[str]
    reducers: list[tuple[str, str, str]]  # (field, reducer, location)
    places: dict[str, str] = field(default_factory=dict)  # field name -> location


def classes(index: SourceIndex) -> list[ClassFact]:
    """Every class deriving from BaseModel/TypedDict, with fields and reducers."""
    out: list[ClassFact] = []
    for sf in index.files:
        for caps in matches("classes", sf.root):
            bases = sf.text(caps["class.bases"][0]) if "class.bases" in caps else ""
            if not STATE_BASES.search(bases):
                continue
            name = node_text(caps["class.name"][0])
            fields, reducers, places = _fields(sf, caps["class.body"][0])
            out.append(ClassFact(name, bases.strip("()"), sf.loc(caps["class"][0]), fields,
                                 reducers, places))
    return out


def _fields(sf: SourceFile, body: Node) -> tuple[list[str], list[tuple[str, str, str]],
                                                 dict[str, str]]:
    """Annotated fields of a class body, those with reducers, and where each is declared."""
    fields: list[str] = []
    reducers: list[tuple[str, str, str]] = []
    places: dict[str, str] = {}
    for stmt in body.named_children:
        if stmt.type != "expression_statement" or not stmt.named_children:
            continue
        assign = stmt.named_children[0]
        if assign.type != "assignment":
            continue
        left, kind = assign.child_by_field_name("left"), assign.child_by_field_name("type")
        if left is None or kind is None:
            continue
        name = sf.text(left)
        fields.append(f"{name}: {' '.join(sf.text(kind).split())[:80]}")
        places.setdefault(name, sf.loc(assign))
        reducer = reducer_of(sf.text(kind))
        if reducer:
            reducers.append((name, reducer, sf.loc(assign)))
    return fields, reducers, places


def _top_level_split(text: str) -> list[str]:
    """Split on the commas that are not inside brackets or parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def reducer_of(annotation: str) -> str | None:
    """The reducer of an ``Annotated[T, reducer]`` field: any function given by name
    (``operator.add``, ``merge_evidence``) or a lambda; ``Field(...)`` or a string is
    metadata, not a reducer."""
    text = " ".join(annotation.split())
    head = text.find("Annotated[")
    if head < 0:
        return None
    start = head + len("Annotated[")
    depth = 1
    for end in range(start, len(text)):
        depth += {"[": 1, "]": -1}.get(text[end], 0)
        if depth == 0:
            break
    else:
        return None
    args = _top_level_split(text[start:end])
    lam = next((i for i, a in enumerate(args) if a.startswith("lambda")), None)
    last = ", ".join(args[lam:]) if lam else args[-1]
    if len(args) < 2 or not _CALLABLE.match(last) or last in ("None", "True", "False"):
        return None
    return last


@dataclass(frozen=True)
class CallFact:
    """A located call of interest with a short excerpt and whether retries guard it."""

    kind: str
    location: str
    excerpt: str
    retried: bool


_STRUCTURED = {"with_structured_output": "with_structured_output", "bind_tools": "bind_tools",
               "parse": "messages.parse"}


_SCHEMA_KEYWORDS = {"tools", "tool_choice", "output_config", "output_format", "response_format"}
_LLM_CREATE = re.compile(r"messages\.create|chat\.completions\.create|\.create\b|\.parse\b")


def structured_calls(index: SourceIndex) -> list[CallFact]:
    """Calls that enforce structured LLM output, and whether retry handling surrounds them."""
    out: list[CallFact] = []
    for sf in index.files:
        for caps in matches("calls", sf.root):
            if "call.method" in caps:
                method = node_text(caps["call.method"][0])
                node = caps["call.method_call"][0]
                obj = sf.text(caps["call.object"][0])
            else:
                method, node, obj = node_text(caps["call.name"][0]), caps["call.plain"][0], ""
            kind = _STRUCTURED.get(method) if obj else None
            if method == "parse" and not obj.endswith("messages"):
                kind = None
            _, kw = call_arguments(caps["call.args"][0])
            schema_kw = sorted(_SCHEMA_KEYWORDS & set(kw))
            if kind is None and schema_kw and _LLM_CREATE.search(sf.text(node)):
                # messages.create(tools=...), or a retry wrapper handed messages.create
                # with output_config / response_format: the schema is enforced by the API.
                kind = f"{'messages.' if 'messages' in sf.text(node) else ''}create" \
                    f"({schema_kw[0]}=...)"
            if kind is None:
                continue
            out.append(CallFact(kind, sf.loc(node), " ".join(sf.text(node).split())[:160],
                                retried(index, sf, node)))
    return out


def retried(index: SourceIndex, sf: SourceFile, node: Node) -> bool:
    """Retry handling around a call: in its function (body or decorators such as tenacity's
    ``@retry``), in its module (a retry helper the model call is passed through), in a
    function that calls that one (a retry loop in the caller), or a LangGraph
    ``RetryPolicy`` on the graph's nodes."""
    scope: Node | None = node
    while scope is not None and scope.type not in ("function_definition", "decorated_definition"):
        scope = scope.parent
    if scope is None:
        return bool(RETRY.search(sf.source.decode("utf-8", "replace")))
    parent = scope.parent
    if parent is not None and parent.type == "decorated_definition":
        scope = parent
    if RETRY.search(sf.text(scope)) or RETRY.search(sf.source.decode("utf-8", "replace")):
        return True
    if any(b"RetryPolicy" in f.source for f in index.files):
        return True
    fn = scope.child_by_field_name("definition") if scope.type == "decorated_definition" \
        else scope
    name = fn.child_by_field_name("name") if fn is not None else None
    return name is not None and _caller_retries(index, sf.text(name))


def _caller_retries(index: SourceIndex, name: str) -> bool:
    """Whether some function that calls ``name`` retries (a loop or decorator around it)."""
    needle = re.compile(rf"\b{re.escape(name)}\s*\(")
    for sf in index.files:
        if name.encode() not in sf.source:
            continue
        for caps in matches("functions", sf.root):
            if node_text(caps["function.name"][0]) == name:
                continue
            body = sf.text(caps["function"][0])
            if needle.search(body) and RETRY.search(body):
                return True
    return False


@dataclass(frozen=True)
class SynthesisFact:
    """How a chief-justice-like function decides: rules, LLM, averaging."""

    name: str
    location: str
    branches: int
    rule_terms: list[str]
    llm_calls: list[str]
    averages: bool


_CJ_NAME = re.compile(r"chief|justice|synthes|aggregat|verdict|final_score", re.I)
_RULE_TERMS = ("variance", "security", "cap", "penalt", "dissent", "min(", "max(", "weight",
               "override", "round", "hallucinat", "fact")


def synthesis_functions(index: SourceIndex) -> list[SynthesisFact]:
    """Functions (or methods) named like a chief justice, and how they compute the verdict."""
    out: list[SynthesisFact] = []
    for sf in index.files:
        if is_test_path(sf.path):
            continue  # tests of a chief justice are not the chief justice
        path_hit = bool(_CJ_NAME.search(sf.path))
        for caps in matches("functions", sf.root):
            name = node_text(caps["function.name"][0])
            if not (_CJ_NAME.search(name) or (path_hit and not name.startswith("_"))):
                continue
            body = caps["function.body"][0]
            text = sf.text(body)
            nodes = walk(body)
            branches = sum(1 for n in nodes if n.type in ("if_statement", "elif_clause",
                                                          "conditional_expression"))
            terms = sorted({t.strip("(") for t in _RULE_TERMS if t in text.lower()})
            llm = sorted({m.group(0).strip(" (") for m in LLM_CALL.finditer(text)})
            averages = bool(re.search(r"\bmean\s*\(|sum\s*\([^)]*\)\s*/\s*len\s*\(|"
                                      r"average", text))
            out.append(SynthesisFact(name, sf.loc(caps["function"][0]), branches, terms, llm,
                                     averages))
    return out
