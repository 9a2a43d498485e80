"""A targeted second look for the court's remand: a file, a symbol, a call."""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, declares
from courtroom.detectives.common import REPO, make
from courtroom.detectives.nodes import node_text
from courtroom.detectives.parsing import matches, source_index
from courtroom.models import Evidence, EvidenceRequest
from courtroom.untrusted import clip, one_line

NAME = "investigate"
TAGS = (REPO, "remand")
#: What a remand's facts mean (the court asks for them; no rubric runs this detective).
PRODUCES = declares(REPO, {
    "remand": "a file or symbol a judge asked about in the court, looked up",
    "missing": "what the judge asked about is not in the repository",
})
_TEXT_FILES = (".py", ".md", ".toml", ".json", ".yaml", ".yml", ".txt", ".cfg", ".scm")


def _excerpt(text: str, line: int, span: int = 12) -> str:
    """A few lines of text from line on, clipped."""
    lines = text.splitlines()
    return clip("\n".join(lines[max(0, line - 1): line - 1 + span]), 800)


def _by_path(case: Case, req: EvidenceRequest, path: str) -> Evidence:
    """Answer a remand about a file or folder."""
    ws = case.workspace
    rel = path.strip().lstrip("./").rstrip("/")
    files = ws.files()
    goal = f"Remand: does {clip(rel, 120)} exist?"
    if rel in files:
        text = ws.read_text(rel)
        why = f"File exists ({one_line(req.question, 120) or 'as asked'})."
        return make(NAME, goal, True, f"{rel}:1", why,
                    0.95, TAGS, content=_excerpt(text, 1, 30) if text else "(binary or too large)")
    inside = [f for f in files if f.startswith(rel + "/")]
    if inside:
        return make(NAME, goal, True, rel, f"Folder with {len(inside)} files.", 0.9, TAGS,
                    content=clip("\n".join(inside[:30]), 800))
    near = [f for f in files if f.endswith("/" + rel)]
    if near:
        return make(NAME, goal, True, f"{near[0]}:1", f"Found at {near[0]} (suffix match).",
                    0.8, TAGS, content=clip("\n".join(near[:10]), 400))
    return make(NAME, goal, False, ".", f"No file or folder {clip(rel, 120)} in the repository "
                f"({len(files)} files listed).", 0.9, (*TAGS, "missing"))


def _by_symbol(case: Case, symbol: str) -> Evidence:
    """Answer a remand about a class, function or call."""
    index = source_index(case.workspace)
    name = symbol.strip().split("(")[0].split(".")[-1]
    goal = f"Remand: where is {clip(symbol, 80)} defined or used?"
    for query, cap in (("classes", "class.name"), ("functions", "function.name")):
        for sf in index.files:
            for caps in matches(query, sf.root):
                if node_text(caps[cap][0]) == name:
                    node = caps[cap][0].parent
                    assert node is not None
                    return make(NAME, goal, True, sf.loc(node), f"Definition of {name}.", 0.95,
                                TAGS, content=clip(sf.text(node), 800))
    for sf in index.files:
        for caps in matches("calls", sf.root):
            called = node_text(caps.get("call.method", caps.get("call.name", [None]))[0])
            if called == name:
                call = caps.get("call.method_call", caps.get("call.plain", [None]))[0]
                if call is not None:
                    return make(NAME, goal, True, sf.loc(call), f"Call of {name}.", 0.9, TAGS,
                                content=clip(sf.text(call), 400))
    pattern = re.compile(re.escape(name))
    for rel in case.workspace.files(_TEXT_FILES):
        text = case.workspace.read_text(rel) or ""
        m = pattern.search(text)
        if m:
            line = text.count("\n", 0, m.start()) + 1
            return make(NAME, goal, True, f"{rel}:{line}", f"Text mention of {name}.", 0.6,
                        TAGS, content=one_line(text.splitlines()[line - 1], 200))
    return make(NAME, goal, False, ".", f"{clip(symbol, 80)} is not defined, called or "
                "mentioned anywhere in the repository.", 0.85, (*TAGS, "missing"))


def investigate(case: Case, requests: list[EvidenceRequest]) -> list[Evidence]:
    """Answer each remand request with located evidence (found=false when absent)."""
    out: list[Evidence] = []
    for req in requests:
        if req.path:
            out.append(_by_path(case, req, req.path))
        if req.symbol:
            out.append(_by_symbol(case, req.symbol))
        if not req.path and not req.symbol:
            out.append(make(NAME, "Remand: unspecified request", False, ".",
                            "The request named neither a path nor a symbol: "
                            f"{one_line(req.question, 160)}", 0.5, (*TAGS, "missing")))
    unique = {e.id: e for e in out}
    return list(unique.values())
