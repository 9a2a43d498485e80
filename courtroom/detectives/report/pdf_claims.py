"""Cross-check what the report says (file paths, features) against the repository."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from courtroom.detectives.parsing import source_index
from courtroom.detectives.repo.graph import DETECTIVE_NAME, JUDGE_NAME, graph_facts
from courtroom.detectives.repo.judge_code_facts import verdict_by_rules
from courtroom.detectives.repo.python_facts import classes, structured_calls
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.report.pdf_read import PdfData
from courtroom.detectives.report.pdf_text import (
    MAX_PATH_CHARS,
    PATH,
    PROPOSAL,
    SENTENCE_REACH,
    file_index,
    folder_index,
    mentions,
    sentences,
    stance,
)

DIR = re.compile(r"(?<![\w/.-])((?:[A-Za-z0-9_-]+/){1,4})(?=[\s,.;:)]|$)")


@dataclass(frozen=True)
class PathCheck:
    """One path the report mentions and what the repository says about it."""

    path: str
    page: int
    exists: bool
    matched: str | None
    #: 'claim', or how else the sentence uses the path: 'proposal', 'discussed', 'local'.
    stance: str = "claim"


def check_paths(pdf: PdfData, ws: Workspace) -> list[PathCheck]:
    """Every file path mentioned, verified against the workspace (exact or suffix match)."""
    files, folders = file_index(ws), folder_index(ws)
    tops = {f.split("/")[0] for f in ws.files()}
    seen: set[str] = set()  # path|stance: a path proposed on one page may be claimed later
    out: list[PathCheck] = []
    for page in pdf.pages:
        found = mentions(page.text, PATH)
        found += [(m, ctx, near) for m, ctx, near in mentions(page.text, DIR)
                  if "/" in m[:-1] or m.rstrip("/") in tops]
        for raw, context, around in found:
            mention = raw.lstrip("./") if raw.startswith("./") else raw
            if mention.startswith(("http", "www.")) or len(mention) > MAX_PATH_CHARS or \
                    re.fullmatch(r"[\d.]+(\.\w+)?", mention):  # version numbers: 1.2.pdf
                continue
            how = stance(context, raw, around)
            key = f"{mention}|{how}"
            if key in seen:
                continue
            seen.add(key)
            hit = (folders if mention.endswith("/") else files).get(mention)
            out.append(PathCheck(mention, page.number, hit is not None, hit,
                                 "claim" if hit else how))
    return out


@dataclass(frozen=True)
class ClaimSite:
    """Where a report names a feature, and whether it claims it there."""

    page: int
    sentence: str
    match: re.Match[str]
    asserted: bool

    @property
    def excerpt(self) -> str:
        return self.sentence[max(0, self.match.start() - 60):self.match.end() + 80]


@dataclass(frozen=True)
class ClaimCheck:
    """One feature claim, where it is made and whether the source supports it."""

    claim: str
    page: int
    excerpt: str
    supported: bool
    basis: str
    #: False when the sentence admits the feature is missing or only planned.
    asserted: bool = True
    #: The ``path:line`` of the code that decides the claim, when one place does.
    code: str | None = None


def _facts(ws: Workspace) -> dict[str, Callable[[], tuple[bool, str]]]:
    """Lazy source checks, keyed by the claim they verify."""

    def parallel(pattern: re.Pattern[str], role: str) -> tuple[bool, str]:
        """Whether the graph fans out to two or more nodes of a role."""
        hits = graph_facts(ws).branches_matching(pattern)
        return (True, f"graph fans out {hits[0][0]} -> {', '.join(hits[0][1])}") if hits \
            else (False, f"no fan-out point reaches two {role} nodes in the extracted graph")

    def fan() -> tuple[bool, str]:
        """Whether the graph has fan-out points, and where."""
        g = graph_facts(ws)
        return (bool(g.fan_out), f"fan-out at {', '.join(g.fan_out) or 'no node'}; "
                f"fan-in at {', '.join(g.fan_in) or 'no node'}")

    def reducers() -> tuple[bool, str]:
        """Whether any state field has a reducer."""
        red = [(c.name, r[0]) for c in classes(source_index(ws)) for r in c.reducers]
        return (bool(red), f"reducer fields: {', '.join(f'{c}.{f}' for c, f in red[:4])}"
                if red else "no Annotated reducer field found")

    def structured() -> tuple[bool, str]:
        """Whether any LLM call enforces structured output."""
        calls = structured_calls(source_index(ws))
        return (bool(calls), f"{calls[0].kind} at {calls[0].location}" if calls else
                "no structured-output call found")

    def deterministic() -> tuple[bool, str]:
        """Whether the chief justice decides by rules, with no model drafting the scores."""
        return verdict_by_rules(source_index(ws))

    def conditional() -> tuple[bool, str]:
        """Whether the graph has conditional routes."""
        routes = graph_facts(ws).routers
        return (bool(routes), f"{len(routes)} conditional routes" if routes else
                "no add_conditional_edges call")

    return {
        "parallel judges": lambda: parallel(JUDGE_NAME, "judge"),
        "parallel detectives": lambda: parallel(DETECTIVE_NAME, "detective"),
        "fan-out/fan-in": fan,
        "state reducers": reducers,
        "structured output": structured,
        "deterministic chief justice": deterministic,
        "conditional routing": conditional,
    }


CLAIMS: dict[str, re.Pattern[str]] = {
    "parallel judges": re.compile(r"(parallel|concurrent\w*|simultaneous\w*)\s+(\w+\s+)?judges|"
                                  r"judges\s+(\w+\s+){0,3}(in\s+parallel|concurrently)", re.I),
    "parallel detectives": re.compile(r"(parallel|concurrent\w*)\s+(\w+\s+)?detectives|detectives"
                                      r"\s+(\w+\s+){0,3}(in\s+parallel|concurrently)", re.I),
    "fan-out/fan-in": re.compile(r"\bfans?\s+(out|in)\b|fan-(out|in)\s+(to|from|at|into)", re.I),
    "state reducers": re.compile(r"operator\.(add|ior)|\breducers?\b", re.I),
    "structured output": re.compile(r"with_structured_output|structured\s+output", re.I),
    "deterministic chief justice": re.compile(r"(deterministic|rule-based|hard-?coded rules)"
                                              r"[^.]{0,60}(chief|justice|synthes)", re.I),
    "conditional routing": re.compile(r"conditional\s+edges?|add_conditional_edges", re.I),
}


#: A sentence that says a feature is absent or still to come, rather than claiming it.
_ADMITS = re.compile(r"\b(no|not|never|without|lacks?|lacking|missing|absent|gaps?|yet to|"
                     r"instead of|disabled|todo|planned|future)\b", re.IGNORECASE)


def asserted(sentence: str, match: re.Match[str]) -> bool:
    """Whether the sentence claims the feature it names, rather than admitting it is missing
    or proposing it: only the words leading up to it decide ("no conditional edges yet"),
    and a proposal ("High: add conditional edges", "we plan to ...") claims nothing either.
    A long sentence is read near its start and near the hit (``search`` with a start never
    lets ``^`` match mid-sentence)."""
    if _ADMITS.search(sentence, max(0, match.start() - 60), match.end()):
        return False
    return not (PROPOSAL.search(sentence, max(0, match.end() - SENTENCE_REACH), match.end())
                or PROPOSAL.search(sentence, 0, min(match.end(), SENTENCE_REACH)))


def claim_sentences(pdf: PdfData) -> list[tuple[int, str]]:
    """Every sentence of the report with its page, split once for all claim kinds."""
    return [(page.number, sentence) for page in pdf.pages for sentence in sentences(page.text)]


def first_claim(found: list[tuple[int, str]], said: re.Pattern[str],
                about: re.Pattern[str] | None = None) -> ClaimSite | None:
    """Where a feature is first claimed, else where it is first named (an admission or a
    proposal), else None. ``about``, when given, is what else the sentence must name; it
    is looked up once per sentence, never once per hit, so the search stays linear."""
    named: ClaimSite | None = None
    for page, sentence in found:
        if about is not None and not about.search(sentence):
            continue
        for m in said.finditer(sentence):
            if asserted(sentence, m):
                return ClaimSite(page, sentence, m, True)
            named = named or ClaimSite(page, sentence, m, False)
    return named


def check_claims(pdf: PdfData, ws: Workspace,
                 found: list[tuple[int, str]] | None = None) -> list[ClaimCheck]:
    """The first place each feature is claimed (or admitted missing), checked against code."""
    checks = _facts(ws)
    found = claim_sentences(pdf) if found is None else found
    out: list[ClaimCheck] = []
    for claim, rx in CLAIMS.items():
        site = first_claim(found, rx)
        if site is None:
            continue
        supported, basis = checks[claim]()
        out.append(ClaimCheck(claim, site.page, site.excerpt, supported, basis,
                              asserted=site.asserted))
    return out
