"""Find the three judges' prompt texts and measure how distinct they are (word-set Jaccard)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from courtroom.detectives.common import is_test_path, jaccard, words
from courtroom.detectives.parsing import SourceIndex, matches, string_value
from courtroom.detectives.workspace import Workspace

PERSONAS: dict[str, re.Pattern[str]] = {
    "Prosecutor": re.compile(r"prosecut", re.I),
    "Defense": re.compile(r"defen[cs]e|defender", re.I),
    "TechLead": re.compile(r"tech[_ -]?lead", re.I),
}
#: A prompt is a string at least this long; shorter strings are labels, not instructions.
MIN_PROMPT = 60
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
            value = string_value(sf, caps["prompt.value"][0])
            if value is None:
                continue
            label_node = caps.get("prompt.target") or caps.get("prompt.key")
            label = sf.text(label_node[0]) if label_node else ""
            # The variable or key names the persona; else the prompt's own opening does.
            persona = _persona_of(label) or _role_of(value)
            offer(persona, sf.loc(caps["prompt.value"][0]), value)
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
