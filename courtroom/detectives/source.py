"""Source detectives: Python overview, state types, structured output, personas, synthesis."""

from __future__ import annotations

from courtroom.detectives.base import Case, detective
from courtroom.detectives.common import REPO, clip, make
from courtroom.detectives.parsing import SourceIndex, source_index
from courtroom.detectives.personas import find_prompts, similarities
from courtroom.detectives.python_facts import classes, structured_calls, synthesis_functions
from courtroom.models import Evidence

#: Topic tags of every repository dimension: a repo without Python concerns all of them.
REPO_TOPICS = ("state", "graph", "structured_output", "personas", "synthesis", "tools")
MAX_ITEMS = 12


def no_python(name: str, goal: str, index: SourceIndex, tags: tuple[str, ...]) -> Evidence:
    """The fact that there is no Python source to look into."""
    return make(name, goal, False, ".", f"The repository holds {index.python_count} Python "
                "files that could be read, so there is nothing to analyse for this.", 0.95,
                (REPO, "missing", *tags))


@detective("source")
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


@detective("state")
def state_facts(case: Case) -> list[Evidence]:
    """State types (BaseModel/TypedDict) and their reducers."""
    index = source_index(case.workspace)
    name, tags = "state", (REPO, "state")
    if not index.files:
        return [no_python(name, "Typed state definitions", index, ("state",))]
    found = classes(index)
    out: list[Evidence] = []
    if not found:
        out.append(make(name, "Typed state definitions", False, ".",
                        f"No class deriving from BaseModel or TypedDict in {len(index.files)} "
                        "Python files.", 0.85, (*tags, "missing")))
    for fact in found[:MAX_ITEMS * 2]:
        out.append(make(name, f"Typed model {fact.name}({fact.bases})", True, fact.location,
                        f"Class {fact.name} derives from {fact.bases}; {len(fact.fields)} "
                        f"annotated fields, {len(fact.reducers)} with reducers.", 0.95, tags,
                        content=clip("\n".join(fact.fields[:20]), 1200)))
    reducers = [(c.name, *r) for c in found for r in c.reducers]
    for cls, field, reducer, where in reducers[:MAX_ITEMS * 2]:
        out.append(make(name, "State field with a reducer", True, where,
                        f"{cls}.{field} is Annotated with {reducer}, so parallel branches "
                        "merge their writes instead of overwriting them.", 0.95, tags,
                        content=f"{cls}.{field}: {reducer}"))
    if found and not reducers:
        out.append(make(name, "State field with a reducer", False, found[0].location,
                        "No field is Annotated with operator.add/operator.ior or another "
                        "reducer: concurrent writes to the state would overwrite each other.",
                        0.8, (*tags, "missing")))
    holders = [c for c in found if any(k in " ".join(c.fields).lower()
                                       for k in ("evidence", "opinion"))]
    if holders:
        c = holders[0]
        out.append(make(name, "State type holding evidence and opinions", True, c.location,
                        f"{c.name} declares fields for evidence/opinions.", 0.85, tags,
                        content=clip("\n".join(f for f in c.fields
                                               if any(k in f.lower() for k in
                                                      ("evidence", "opinion"))), 600)))
    return out


@detective("structured_output")
def structured_output(case: Case) -> list[Evidence]:
    """Structured-output enforcement on LLM calls, and retries around it."""
    index = source_index(case.workspace)
    name, tags = "structured_output", (REPO, "structured_output")
    if not index.files:
        return [no_python(name, "Structured LLM output", index, ("structured_output",))]
    calls = structured_calls(index)
    if not calls:
        return [make(name, "Structured LLM output", False, ".",
                     "No .with_structured_output(), .bind_tools(), messages.parse() or "
                     f"tool-use call in {len(index.files)} Python files.", 0.85,
                     (*tags, "missing"))]
    out = []
    for call in calls[:MAX_ITEMS]:
        retry = "with retry handling nearby" if call.retried else "with no retry handling found"
        out.append(make(name, f"Structured output via {call.kind}", True, call.location,
                        f"Call to {call.kind} {retry} (searched the enclosing function for "
                        "tenacity/@retry/retry loops/ValidationError handling).", 0.9, tags,
                        content=clip(call.excerpt, 200)))
    return out


@detective("personas")
def persona_prompts(case: Case) -> list[Evidence]:
    """The three judge prompts and their pairwise Jaccard similarity."""
    ws = case.workspace
    index = source_index(ws)
    name, tags = "personas", (REPO, "personas")
    prompts = find_prompts(ws, index)
    out = []
    for persona in ("Prosecutor", "Defense", "TechLead"):
        prompt = prompts.get(persona)
        if prompt is None:
            out.append(make(name, f"{persona} persona prompt", False, ".",
                            f"No string or prompt file of {60}+ characters names the "
                            f"{persona} persona.", 0.75, (*tags, "missing")))
            continue
        out.append(make(name, f"{persona} persona prompt", True, prompt.location,
                        f"Prompt text of {len(prompt.text)} characters attributed to the "
                        f"{persona} by its variable/key name or opening words.", 0.85, tags,
                        content=clip(prompt.text, 400)))
    sims = similarities(prompts)
    if len(sims) >= 1:
        worst = max(sims.values())
        verdict = ("near-duplicate prompts (Jaccard > 0.5)" if worst > 0.5 else
                   "distinct prompts (every pair Jaccard <= 0.5)")
        first = min((p.location for p in prompts.values()), default=".")
        out.append(make(name, "Persona prompt distinctness (word-set Jaccard)", True, first,
                        f"{verdict}; computed on lower-cased word sets of the prompts found.",
                        0.85, tags, content="\n".join(f"{a}~{b}: {v:.3f}"
                                                      for (a, b), v in sims.items())))
    return out


@detective("synthesis")
def chief_justice(case: Case) -> list[Evidence]:
    """Whether the final verdict comes from deterministic rules or from an LLM that averages."""
    index = source_index(case.workspace)
    name, tags = "synthesis", (REPO, "synthesis")
    if not index.files:
        return [no_python(name, "Chief justice synthesis code", index, ("synthesis",))]
    facts = synthesis_functions(index)
    if not facts:
        return [make(name, "Chief justice synthesis code", False, ".",
                     "No function or module named like a chief justice/synthesis/aggregator.",
                     0.75, (*tags, "missing"))]
    out = []
    for f in sorted(facts, key=lambda f: (-f.branches, f.location))[:MAX_ITEMS]:
        if f.llm_calls:
            kind = "delegates the verdict to an LLM call"
        elif f.branches >= 2 and f.rule_terms:
            kind = "applies deterministic rules"
        else:
            kind = "computes the verdict without explicit rules"
        avg = "; averages scores" if f.averages else ""
        out.append(make(name, f"Chief justice logic in {f.name}", True, f.location,
                        f"{f.name} {kind}: {f.branches} branches, rule terms "
                        f"{', '.join(f.rule_terms) or 'none'}, LLM calls "
                        f"{', '.join(f.llm_calls) or 'none'}{avg}.", 0.8, tags,
                        content=kind + avg))
    return out
