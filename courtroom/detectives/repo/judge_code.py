"""Judging detectives: structured output of the judges, their personas, the chief justice.

Each fact says which way it points: a schema-bound judge call, a retry, a distinct persona
prompt or a deterministic rule supports its criterion; hand-parsed free text, a missing
rule or an LLM deciding the verdict is adverse, with the change that would cure it.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import AUTOMATON_AUDITOR, Case, declares, detective
from courtroom.detectives.common import REPO, UNWORKABLE, is_test_path, make
from courtroom.detectives.parsing import SourceIndex, source_index
from courtroom.detectives.repo.judge_code_facts import (
    free_text_parsing,
    justice_files,
    justice_functions,
    llm_files,
    prose_only,
    schema_bodies,
    validation,
)
from courtroom.detectives.repo.prompt_texts import Prompt, copied, find_prompts, similarities
from courtroom.detectives.repo.python_facts import RETRY, structured_calls
from courtroom.detectives.repo.rule_code import synthesis_rules
from courtroom.detectives.repo.source import no_python
from courtroom.models import Evidence, location_path
from courtroom.untrusted import clip

MAX_ITEMS = 12
#: A persona prompt shorter than this is a one-line label, not a philosophy to argue from.
SUBSTANTIVE = 200


@detective("structured_output", profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "structured_output": "a judge call bound to a schema (with_structured_output, bind_tools)",
    "missing": "no judge call bound to a schema",
}))
def structured_output(case: Case) -> list[Evidence]:
    """Whether judge calls are bound to a schema, retried, and never parsed by hand."""
    index = source_index(case.workspace)
    name, tags = "structured_output", (REPO, "structured_output")
    if not index.files:
        return [no_python(name, "Judge output bound to a schema", index, ("structured_output",))]
    # Which files call a model is read once: four of the checks below ask.
    models = llm_files(index)
    calls = [c for c in [*structured_calls(index), *schema_bodies(index, models)]
             if not is_test_path(location_path(c.location))]
    out: list[Evidence] = []
    if calls:
        out.append(make(name, "Judge output bound to a schema", True, calls[0].location,
                        f"{len(calls)} call(s) enforce a schema on the model's answer.", 0.9,
                        tags, content=clip("\n".join(f"{c.location} {c.kind}: {c.excerpt}"
                                                    for c in calls[:MAX_ITEMS]), 1500),
                        direction="supports"))
        retried = [c for c in calls if c.retried]
        out.append(_retry((retried or calls)[0].location, bool(retried)))
    else:
        where = f"{models[0].path}:1" if models else _entry(index)
        out.append(make(name, "Judge output bound to a schema", False, where,
                        "No .with_structured_output(), .bind_tools(), messages.parse() or "
                        f"tool-use call in {len(index.files)} Python files.", 0.85,
                        (*tags, "missing"), direction="adverse",
                        fix="bind the judge call to the opinion model with "
                        ".with_structured_output(...)."))
        if models:
            loops = [sf for sf in models if RETRY.search(sf.source.decode("utf-8", "replace"))]
            out.append(_retry(f"{(loops or models)[0].path}:1", bool(loops)))
    hand = free_text_parsing(models)
    if hand:
        out.append(make(name, "Free-text model output parsed by hand", True, hand[0].location,
                        f"{len(hand)} place(s) in model-calling code turn free text into data "
                        "with json.loads or a regular expression.", 0.8, tags,
                        content=clip("\n".join(f"{h.location} {h.excerpt}" for h in hand[:6]),
                                     800), direction="adverse",
                        fix="take the answer from a schema-bound call instead of parsing text."))
    checked = validation(models)
    if checked:
        out.append(make(name, "Parsed output validated against a model", True,
                        checked[0].location, f"{len(checked)} place(s) validate model output "
                        "against a schema (model_validate / ValidationError handling).", 0.8,
                        tags, content=clip("\n".join(f"{h.location} {h.excerpt}"
                                                    for h in checked[:6]), 800),
                        direction="supports"))
    return out


def _prompt_home(prompts: dict[str, Prompt], index: SourceIndex) -> tuple[str, str]:
    """Where a missing persona prompt belongs: beside the prompts found, else in model code.

    A fix must name a place; the repository's root is none.
    """
    if prompts:
        home = min(p.location for p in prompts.values())
        return home, f", beside the other persona prompts at `{home}`"
    models = [sf for sf in llm_files(index) if not is_test_path(sf.path)]
    if models:
        return f"{models[0].path}:1", f" in `{models[0].path}`, which calls the model"
    entry = _entry(index)
    return entry, f" in the module that wires the system (`{entry}`)" if entry != "." else ""


#: Module names that wire a system together: where a missing part is added.
_WIRING = re.compile(r"graph|workflow|main|app|pipeline|orchestrat", re.I)


def _entry(index: SourceIndex) -> str:
    """The module that wires the system (a graph, main or app module), else the first
    source file: a fix must name a place, and the repository's root is none."""
    files = [sf for sf in index.files if not is_test_path(sf.path)]
    home = next((sf for sf in files if _WIRING.search(sf.path)), files[0] if files else None)
    return f"{home.path}:1" if home else "."


def _retry(location: str, retried: bool) -> Evidence:
    """Whether failed or malformed judge output is retried."""
    tags = (REPO, "structured_output")
    if retried:
        return make("structured_output", "Retry on failed or malformed output", True, location,
                    "Retry handling found around the judge call (a retry loop here or in its "
                    "caller, tenacity, RetryPolicy, .with_retry or max_retries).", 0.8, tags,
                    direction="supports")
    return make("structured_output", "Retry on failed or malformed output", False, location,
                "No retry loop, tenacity decorator, RetryPolicy or max_retries around the judge "
                "call or in its callers.", 0.75, (*tags, "missing"), direction="adverse",
                fix="retry the call on validation errors, a bounded number of times.")


@detective("persona_prompts", profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "personas": "the judges' prompts and how alike they are",
    "missing": "no distinct judge prompts",
}))
def persona_prompts(case: Case) -> list[Evidence]:
    """The three judge prompts: present, distinct from each other, and substantive."""
    ws = case.workspace
    index = source_index(ws)
    name, tags = "persona_prompts", (REPO, "personas")
    prompts = find_prompts(ws, index)
    out = []
    for persona in ("Prosecutor", "Defense", "TechLead"):
        prompt = prompts.get(persona)
        if prompt is None:
            where, beside = _prompt_home(prompts, index)
            out.append(make(name, f"{persona} persona prompt", False, where,
                            f"No string or prompt file of 60+ characters names the {persona} "
                            "persona.", 0.75, (*tags, "missing"), direction="adverse",
                            fix=f"give the {persona} its own system prompt{beside}."))
            continue
        out.append(make(name, f"{persona} persona prompt", True, prompt.location,
                        f"Prompt text of {len(prompt.text)} characters attributed to the "
                        f"{persona} by its variable, key, method or opening words.", 0.85, tags,
                        content=clip(prompt.text, 400), direction="supports"))
    if not prompts:
        return out
    first = min(p.location for p in prompts.values())
    if len(prompts) > 1:
        out.append(_distinct(prompts, first))
    short = sorted(p.persona for p in prompts.values() if len(p.text) < SUBSTANTIVE)
    out.append(make(name, "Persona prompts give substantive instructions", True, first,
                    (f"{', '.join(short)} prompt(s) are under {SUBSTANTIVE} characters: a "
                     "one-line label, not a philosophy to argue from.") if short else
                    f"Every persona prompt found has {SUBSTANTIVE}+ characters of guidance.",
                    0.8, tags, content="\n".join(f"{p.persona}: {len(p.text)} chars"
                                                 for p in prompts.values()),
                    direction="adverse" if short else "supports",
                    fix="spell out what each persona looks for and how it scores." if short
                    else None))
    return out


def _distinct(prompts: dict[str, Prompt], first: str) -> Evidence:
    """Whether the persona prompts differ: in their own words, and as sent (with the blocks
    pasted into each)."""
    sims, same = similarities(prompts), copied(prompts)
    worst, pasted = max(sims.values()), max(same.values())
    distinct = worst <= 0.5 and pasted <= 0.5
    pasting = any(p.sent != p.text for p in prompts.values())
    why = (f"near-duplicate prompts (Jaccard {worst:.2f} > 0.5)" if worst > 0.5 else
           f"prompts that share most of their text ({pasted:.0%} of the shorter one is "
           "copied from another in runs of 40+ characters" + (
               ", counting the blocks pasted into each: shared constants, filled "
               "templates, serialised structures" if pasting else "") + ")")
    return make("persona_prompts", "Persona prompts are distinct (word-set Jaccard)", True, first,
                ("distinct prompts (every pair Jaccard <= 0.5, under half copied)"
                 if distinct else why) + ". Computed on the prompts found.",
                0.85, (REPO, "personas"),
                content="\n".join(f"{a}~{b}: Jaccard {v:.3f}, copied {same[(a, b)]:.3f}"
                                  for (a, b), v in sims.items()),
                direction="supports" if distinct else "adverse",
                fix=None if distinct else f"at `{first}`, give each persona its own "
                "philosophy and scoring guidance.")


@detective("justice_rules", profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "synthesis": "chief-justice code: fixed rules or a model averaging the scores",
    "missing": "no chief-justice code",
    UNWORKABLE: "a model drafts the scores the chief justice's rules should compute",
}))
def justice_rules(case: Case) -> list[Evidence]:
    """Whether the verdict comes from deterministic named rules or from an LLM call."""
    index = source_index(case.workspace)
    name, tags = "justice_rules", (REPO, "synthesis")
    if not index.files:
        return [no_python(name, "Chief justice synthesis code", index, ("synthesis",))]
    facts = justice_functions(index)
    if not facts:
        entry = _entry(index)
        return [make(name, "Chief justice synthesis code", False, entry,
                     "No function or module named like a chief justice, synthesis or verdict.",
                     0.75, (*tags, "missing"), direction="adverse",
                     fix="add a chief justice that turns the opinions into scores by fixed "
                     f"rules, wired in at `{entry}`.")]
    # A model that only words the remediation or the narrative around rule-made scores
    # does not decide the verdict; one that drafts the scores does.
    prose = [f for f in facts if f.llm_calls and prose_only(index, f.name)]
    llm = [f for f in facts if f.llm_calls and f not in prose]
    facts = [f for f in facts if f not in prose] or facts
    listing = clip("\n".join(f"{f.location} {f.name}: {f.branches} branches, LLM "
                             f"{', '.join(f.llm_calls) or 'none'}" for f in facts[:20]), 1200)
    if llm:
        out = [make(name, "Chief justice delegates the verdict to an LLM call", True,
                    llm[0].location, f"{llm[0].name} calls {', '.join(llm[0].llm_calls)}: the "
                    "verdict depends on a model, not on fixed rules.", 0.85,
                    (*tags, UNWORKABLE), content=listing, direction="adverse",
                    fix="compute the final score with deterministic rules over the opinions.")]
    else:
        top = max(facts, key=lambda f: (f.branches, f.location))
        out = [make(name, "Verdict by deterministic rules (no LLM call)", True, top.location,
                    f"{len(facts)} chief-justice function(s) decide the verdict, none calling a "
                    f"model; {top.name} has {top.branches} branches.", 0.85, tags,
                    content=listing,
                    direction="supports")]
    if prose:
        out.append(make(name, "Model writes prose around the rule-made verdict", True,
                        prose[0].location, f"{', '.join(f.name for f in prose[:4])} ask(s) a "
                        "model for wording (remediation, narrative or summary) only; the "
                        "scores come from the functions above.", 0.7, tags))
    return out + _rules(index, facts[0].location, tags)


def _rules(index: SourceIndex, fallback: str, tags: tuple[str, ...]) -> list[Evidence]:
    """One fact per named chief-justice rule: the code that implements it, or its absence."""
    name = "justice_rules"
    out: list[Evidence] = []
    files = sorted(justice_files(index), key=lambda sf: -len(sf.source))
    home = f"{files[0].path}:1" if files else fallback
    for rule, hit in synthesis_rules(index).items():
        goal = f"Chief justice rule: {rule}"
        if hit is not None:
            out.append(make(name, goal, True, hit.location, f"The chief justice's code "
                            f"implements the {rule} rule.", 0.75, tags, content=hit.excerpt,
                            direction="supports"))
        else:
            out.append(make(name, goal, False, home, f"No code for the {rule} rule in the "
                            "chief justice's modules (comments and docstrings do not count).",
                            0.7, (*tags, "missing"), direction="adverse",
                            fix=f"implement the {rule} rule as code."))
    return out
