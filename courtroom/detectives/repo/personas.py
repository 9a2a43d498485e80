"""Find the three judges' prompt texts and measure how distinct they are (word-set Jaccard)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from courtroom.detectives.common import is_test_path, jaccard, words
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, enclosing, matches
from courtroom.detectives.repo.workspace import Workspace

PERSONAS: dict[str, re.Pattern[str]] = {
    "Prosecutor": re.compile(r"prosecut", re.I),
    "Defense": re.compile(r"defen[cs]e|defender", re.I),
    "TechLead": re.compile(r"tech[_ -]?lead", re.I),
}
#: A prompt is a string at least this long; shorter strings are labels, not instructions.
MIN_PROMPT = 60
#: Copied text counts in runs this long; the prompts are compared over this many characters.
COPY_RUN = 40
COPY_WINDOW = 4000
_PROMPT_FILES = (".md", ".txt", ".j2", ".jinja", ".jinja2", ".prompt", ".yaml", ".yml")


@dataclass(frozen=True)
class Prompt:
    """One persona's prompt text and where it lives."""

    persona: str
    location: str
    text: str


def _persona_of(label: str) -> str | None:
    """The single persona a label names, else None."""
    hits = [p for p, rx in PERSONAS.items() if rx.search(label)]
    return hits[0] if len(hits) == 1 else None


_ROLE = re.compile(r"^\W*(you\s+are|act\s+as|as|role:?|persona:?)?\s*(the\s+|a\s+|an\s+)?"
                   r"(?P<who>prosecutor|defen[cs]e(\s+attorney)?|defender|tech[_ -]?lead)\b",
                   re.I)


def _role_of(text: str) -> str | None:
    """The persona a prompt text opens by addressing ("You are the Prosecutor ...")."""
    m = _ROLE.match(text[:120])
    return _persona_of(m.group("who")) if m else None


def prompt_text(sf: SourceFile, node: Node) -> str | None:
    """The literal text of a prompt: string parts (f-string holes left out), and the text
    values of a nested configuration dict joined by lines."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return prompt_text(sf, node.named_children[0])
    if node.type == "concatenated_string":
        parts = [prompt_text(sf, c) for c in node.named_children]
        return "".join(p or "" for p in parts)
    if node.type == "string":
        return "".join(sf.text(c) for c in node.named_children if c.type == "string_content")
    if node.type == "dictionary":
        values = [prompt_text(sf, v) for pair in node.named_children if pair.type == "pair"
                  for v in [pair.child_by_field_name("value")] if v is not None]
        return "\n".join(v for v in values if v) or None
    return None


def _returner(sf: SourceFile, node: Node) -> str:
    """Who returns a string: enclosing class and function names, and the file name."""
    names = [sf.path.rsplit("/", 1)[-1]]
    for kind in ("function_definition", "class_definition"):
        owner = enclosing(node, (kind,))
        name = owner.child_by_field_name("name") if owner is not None else None
        if name is not None:
            names.append(sf.text(name))
    return " ".join(names)


def find_prompts(ws: Workspace, index: SourceIndex) -> dict[str, Prompt]:
    """The longest prompt text found for each persona (code strings, then prompt files)."""
    best: dict[str, Prompt] = {}

    def offer(persona: str | None, location: str, text: str) -> None:
        """Keep the longest prompt seen for a persona."""
        if persona is None or len(text) < MIN_PROMPT:
            return
        if persona not in best or len(text) > len(best[persona].text):
            best[persona] = Prompt(persona, location, text)

    # Test fixtures often hold sample prompts; the project's own prompts come from its code.
    for sf in [f for f in index.files if not is_test_path(f.path)]:
        for caps in matches("strings", sf.root):
            node = (caps.get("prompt.value") or caps["prompt.returned"])[0]
            value = prompt_text(sf, node)
            if value is None:
                continue
            label_node = caps.get("prompt.target") or caps.get("prompt.key")
            label = sf.text(label_node[0]) if label_node else (
                _returner(sf, node) if "prompt.returned" in caps else "")
            # The variable, key or returning method names the persona; else the prompt's
            # own opening does.
            persona = _persona_of(label) or _role_of(value)
            offer(persona, sf.loc(node), value)
    for rel in ws.files(_PROMPT_FILES):
        persona = _persona_of(rel.rsplit("/", 1)[-1])
        if persona is None or is_test_path(rel):
            continue
        text = ws.read_text(rel)
        if text:
            offer(persona, f"{rel}:1", text[:20_000])
    return best


def similarities(prompts: dict[str, Prompt]) -> dict[tuple[str, str], float]:
    """Pairwise word-set Jaccard similarity of the persona prompts found."""
    sets = {p: words(pr.text) for p, pr in prompts.items()}
    return {(a, b): round(jaccard(sets[a], sets[b]), 3)
            for a, b in combinations(sorted(sets), 2)}


def copied(prompts: dict[str, Prompt]) -> dict[tuple[str, str], float]:
    """Pairwise share of the shorter prompt copied verbatim from the other, counting only
    runs of COPY_RUN+ characters (a shared JSON block, a pasted rubric), not common words.

    Linear in the prompts' length (every COPY_RUN-character window is looked up in the
    other prompt's windows), each cut to COPY_WINDOW characters: they are the audited
    author's.
    """
    texts = {p: pr.text[:COPY_WINDOW] for p, pr in prompts.items()}
    windows = {p: {t[i:i + COPY_RUN] for i in range(len(t) - COPY_RUN + 1)}
               for p, t in texts.items()}
    out = {}
    for a, b in combinations(sorted(texts), 2):
        short, other = (a, b) if len(texts[a]) <= len(texts[b]) else (b, a)
        text, covered, reach = texts[short], 0, -1
        for i in range(len(text) - COPY_RUN + 1):
            if text[i:i + COPY_RUN] in windows[other]:
                covered += i + COPY_RUN - max(i, reach)
                reach = i + COPY_RUN
        out[(a, b)] = round(covered / max(1, len(text)), 3)
    return out
