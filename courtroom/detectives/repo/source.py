"""Source detectives: the Python overview and the graph state (judge_code.py has the judges)."""

from __future__ import annotations

import re

from courtroom.detectives.base import AUTOMATON_AUDITOR, Case, declares, detective
from courtroom.detectives.common import REPO, is_test_path, make
from courtroom.detectives.parsing import SourceIndex, source_index
from courtroom.detectives.repo.graph import graph_facts
from courtroom.detectives.repo.python_facts import ClassFact, classes
from courtroom.models import Evidence, location_path
from courtroom.untrusted import clip

#: Topic tags of every repository criterion: a repo without Python concerns all of them.
REPO_TOPICS = ("state", "graph", "structured_output", "personas", "synthesis", "tools")
MAX_ITEMS = 12


def no_python(name: str, goal: str, index: SourceIndex, tags: tuple[str, ...]) -> Evidence:
    """The fact that there is no Python source to look into."""
    return make(name, goal, False, ".", f"The repository holds {index.python_count} Python "
                "files that could be read, so there is nothing to analyse for this.", 0.95,
                (REPO, "missing", *tags))


@detective("source", produces=declares(REPO, {
    "parse_error": "a Python file tree-sitter could not parse in full",
    "missing": "no Python source to analyse",
    **{topic: "no Python source to analyse for this topic" for topic in REPO_TOPICS},
}))
def python_overview(case: Case) -> list[Evidence]:
    """How many Python files there are and which ones do not parse."""
    index = source_index(case.workspace)
    name = "source"
    if not index.files:
        return [no_python(name, "Python sources present", index, REPO_TOPICS)]
    out = [make(name, "Python sources present", True, ".",
                f"tree-sitter parsed {len(index.files)} Python files"
                f" ({len(index.skipped)} skipped as too large or binary).", 0.95, (REPO,),
                content=clip("\n".join(f.path for f in index.files[:40]), 2000))]
    for sf in index.with_errors[:MAX_ITEMS]:
        lines = ", ".join(str(n) for n in sf.error_lines)
        out.append(make(name, "Python file with syntax errors", True,
                        f"{sf.path}:{sf.error_lines[0]}",
                        f"tree-sitter found syntax errors near line(s) {lines}; facts after "
                        "those lines may be incomplete.", 0.9,
                        (REPO, "parse_error", "graph", "state"), content=sf.path))
    return out


def _graph_state(case: Case, found: list[ClassFact]) -> ClassFact | None:
    """The class a StateGraph is built over (the graph's state), if it is a typed class."""
    names = [state.split("=")[-1].split(".")[-1].strip() for _loc, state in
             graph_facts(case.workspace).builders]
    by_name = {c.name: c for c in found}
    return next((by_name[n] for n in names if n in by_name), None)


def _model_fact(found: list[ClassFact], word: str, goal: str) -> Evidence:
    """Whether a typed model named like ``word`` exists (Evidence, JudicialOpinion)."""
    name, tags = "state", (REPO, "state")
    hits = [c for c in found if word in c.name.lower() and "state" not in c.name.lower()]
    if hits:
        c = hits[0]
        return make(name, goal, True, c.location, f"{c.name} derives from {c.bases} with "
                    f"{len(c.fields)} typed fields.", 0.9, tags,
                    content=clip("\n".join(c.fields[:12]), 600), direction="supports")
    return make(name, goal, False, ".", f"No BaseModel/TypedDict class named like "
                f"'{word}'.", 0.75, (*tags, "missing"), direction="adverse",
                fix="declare it as a pydantic model with typed fields.")


@detective("state", profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "state": "the graph's state type, the typed models it carries and its reducers",
    "missing": "no typed state found",
}))
def state_facts(case: Case) -> list[Evidence]:
    """The graph's state type, the typed models it carries, and its reducers."""
    index = source_index(case.workspace)
    name, tags = "state", (REPO, "state")
    if not index.files:
        return [no_python(name, "Typed state definitions", index, ("state",))]
    found = [c for c in classes(index) if not is_test_path(location_path(c.location))]
    if not found:
        return [make(name, "Typed graph state", False, ".",
                     f"No class deriving from BaseModel or TypedDict in {len(index.files)} "
                     "Python files.", 0.85, (*tags, "missing"), direction="adverse",
                     fix="define the graph state as a TypedDict or BaseModel.")]
    out = [make(name, "Typed models (BaseModel/TypedDict)", True, found[0].location,
                f"{len(found)} typed classes.", 0.95, tags,
                content=clip("\n".join(f"{c.location} {c.name}({c.bases})"
                                       for c in found[:30]), 1500))]
    state = _graph_state(case, found) or next(
        (c for c in found if "state" in c.name.lower()), None) or next(
        (c for c in found if "TypedDict" in c.bases), None)
    if state is None:
        out.append(make(name, "Typed graph state", False, found[0].location,
                        "No typed class is the StateGraph's state or is named like a state.",
                        0.7, (*tags, "missing"), direction="adverse",
                        fix="build the StateGraph over a TypedDict or BaseModel state."))
    else:
        out.append(make(name, "Typed graph state", True, state.location,
                        f"{state.name}({state.bases}) is the graph state with "
                        f"{len(state.fields)} typed fields.", 0.95, tags,
                        content=clip("\n".join(state.fields[:20]), 1200), direction="supports"))
        out += _state_collections(state)
    out.append(_model_fact(found, "evidence", "Evidence is a typed model"))
    out.append(_model_fact(found, "opinion", "Judicial opinion is a typed model"))
    return out


#: A field annotation that holds many items: parallel writers overwrite it without a reducer.
_COLLECTION = re.compile(r"\b(?:list|List|dict|Dict|Sequence|Mapping|set|Set|MutableMapping|"
                         r"DefaultDict|defaultdict)\b")


def _unreduced(state: ClassFact, held: list[str]) -> list[Evidence]:
    """Evidence and opinion collections of the state that carry no reducer, while others
    do: the state shows how writes are merged, and this collection is left to overwrites."""
    reduced = {f for f, _r, _w in state.reducers}
    bare = [f for f in held if f.split(":", 1)[0] not in reduced and
            _COLLECTION.search(f.split(":", 1)[-1])]
    out = []
    for declared in bare[:MAX_ITEMS]:
        field = declared.split(":", 1)[0].strip()
        where = state.places.get(field, state.location)
        out.append(make("state", "Evidence or opinion collection without a reducer", True,
                        where, f"{state.name}.{field} holds evidence or opinions but has no "
                        "reducer, while other fields of the state have one: every node that "
                        "returns it replaces what earlier or parallel nodes wrote.", 0.7,
                        (REPO, "state"), content=declared, direction="adverse",
                        fix=f"at `{where}`, annotate it with a reducer, e.g. Annotated[..., "
                        "operator.add] for a list or operator.ior for a dict."))
    return out


def _state_collections(state: ClassFact) -> list[Evidence]:
    """Whether the graph state holds evidence and opinions, and merges parallel writes."""
    name, tags = "state", (REPO, "state")
    held = [f for f in state.fields if any(k in f.lower() for k in ("evidence", "opinion"))]
    out = [make(name, "Graph state holds evidence and opinions", bool(held), state.location,
                f"{state.name} declares {len(held)} evidence/opinion field(s)." if held else
                f"{state.name} has no evidence or opinion field.", 0.85, tags,
                content=clip("\n".join(held), 600) or None,
                direction="supports" if held else "adverse",
                fix=None if held else "add typed evidence and opinion collections to the "
                "graph state.")]
    if state.reducers:
        out += [make(name, "State field with a reducer", True, where,
                     f"{state.name}.{field} is Annotated with {reducer}, so parallel branches "
                     "merge their writes instead of overwriting them.", 0.95, tags,
                     content=f"{state.name}.{field}: {reducer}", direction="supports")
                for field, reducer, where in state.reducers[:MAX_ITEMS]]
        out += _unreduced(state, held)
    else:
        out.append(make(name, "State field with a reducer", False, state.location,
                        f"No field of {state.name} is Annotated with a reducer: parallel "
                        "writes to it overwrite each other.", 0.8,
                        (*tags, "missing"), direction="adverse",
                        fix="annotate the list and dict fields, e.g. "
                        "Annotated[list[...], operator.add]."))
    return out
