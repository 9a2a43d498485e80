"""Find the three judges' prompt texts and measure how distinct they are (word-set Jaccard)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from courtroom.detectives.common import is_test_path, jaccard, words
from courtroom.detectives.nodes import enclosing
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, matches
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
    """One persona's prompt and where it lives: ``text`` is what the persona's own string
    says (run-time holes left out), ``pasted`` the same with the shared pieces the code
    pastes in (constants, filled templates, serialised structures) put back."""

    persona: str
    location: str
    text: str
    pasted: str = ""

    @property
    def sent(self) -> str:
        """The prompt as the model receives it, as far as the code shows."""
        return self.pasted or self.text


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


#: A call that serialises a whole structure into text: a block pasted into the prompt.
_DUMP = re.compile(r"^(?:json\.dumps|yaml\.(?:safe_)?dump|pformat|pprint\.pformat|"
                   r"[\w.]*\.(?:model_dump_json|json|to_json|get_format_instructions))\(",
                   re.S)
#: Characters a serialised structure is counted as: its real size is only known at run
#: time, and a rubric or schema dump runs to thousands; this is a floor, not a guess.
DUMP_CHARS = 400
#: How deep shared templates are expanded inside each other.
_EXPAND_DEPTH = 3
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

Constants = dict[str, Node]


def module_strings(sf: SourceFile) -> Constants:
    """The file's module-level string constants (``HEADER = \"\"\"...\"\"\"``) by name."""
    out: Constants = {}
    for stmt in sf.root.named_children:
        assign = stmt.named_children[0] if stmt.type == "expression_statement" and \
            stmt.named_children else None
        if assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is not None and right is not None and left.type == "identifier" and \
                right.type in ("string", "concatenated_string", "parenthesized_expression"):
            out[sf.text(left)] = right
    return out


def _dump_block(expression: str) -> str:
    """The stand-in text of a serialised structure: the same expression gives the same
    DUMP_CHARS characters in every prompt that pastes it."""
    seed = " ".join(expression.split())
    return ("\n" + (f"[{seed}] " * (DUMP_CHARS // (len(seed) + 3) + 1))[:DUMP_CHARS] + "\n")


def _hole(sf: SourceFile, node: Node, constants: Constants, depth: int) -> str:
    """The text an f-string hole puts into the prompt, where the code shows it: a shared
    constant's text, or a serialised structure's stand-in; else nothing (run-time data)."""
    expression = node.child_by_field_name("expression") or (
        node.named_children[0] if node.named_children else None)
    if expression is None:
        return ""
    text = sf.text(expression)
    if expression.type == "identifier" and text in constants and depth < _EXPAND_DEPTH:
        return prompt_text(sf, constants[text], constants, depth + 1) or ""
    return _dump_block(text) if _DUMP.match(text) else ""


def expand_placeholders(sf: SourceFile, text: str, constants: Constants, depth: int = 0) -> str:
    """A template's ``{name}`` placeholders filled with the file's constant of that name
    (``{evidence_header}`` with ``EVIDENCE_HEADER``): text every prompt shares."""
    if depth >= _EXPAND_DEPTH or not constants:
        return text

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        node = constants.get(name) or constants.get(name.upper())
        value = prompt_text(sf, node, constants, depth + 1) if node is not None else None
        return expand_placeholders(sf, value, constants, depth + 1) if value else m.group(0)

    return _PLACEHOLDER.sub(fill, text)


def prompt_text(sf: SourceFile, node: Node, constants: Constants | None = None,
                depth: int = 0) -> str | None:
    """The literal text of a prompt: string parts and the text values of a nested
    configuration dict joined by lines. Given the file's ``constants``, f-string holes are
    filled where the code shows their text (a shared constant, a serialised structure);
    without, and for run-time data, they are left out."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return prompt_text(sf, node.named_children[0], constants, depth)
    if node.type == "concatenated_string":
        parts = [prompt_text(sf, c, constants, depth) for c in node.named_children]
        return "".join(p or "" for p in parts)
    if node.type == "string":
        return "".join(sf.text(c) if c.type == "string_content" else
                       _hole(sf, c, constants, depth)
                       if c.type == "interpolation" and constants is not None else ""
                       for c in node.named_children)
    if node.type == "dictionary":
        values = [prompt_text(sf, v, constants, depth) for pair in node.named_children
                  if pair.type == "pair"
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

    def offer(persona: str | None, location: str, text: str, pasted: str = "") -> None:
        """Keep the longest prompt seen for a persona."""
        if persona is None or len(text) < MIN_PROMPT:
            return
        if persona not in best or len(text) > len(best[persona].text):
            best[persona] = Prompt(persona, location, text, pasted)

    # Test fixtures often hold sample prompts; the project's own prompts come from its code.
    for sf in [f for f in index.files if not is_test_path(f.path)]:
        constants = module_strings(sf)
        for caps in matches("strings", sf.root):
            node = (caps.get("prompt.value") or caps["prompt.returned"])[0]
            value = prompt_text(sf, node)
            if value is None:
                continue
            pasted = expand_placeholders(sf, prompt_text(sf, node, constants) or "", constants)
            label_node = caps.get("prompt.target") or caps.get("prompt.key")
            label = sf.text(label_node[0]) if label_node else (
                _returner(sf, node) if "prompt.returned" in caps else "")
            # The variable, key or returning method names the persona; else the prompt's
            # own opening does.
            persona = _persona_of(label) or _role_of(value)
            offer(persona, sf.loc(node), value, pasted)
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
    The prompts are compared as sent: a header or a rubric dump pasted into every prompt
    is text they share, wherever it is written once.

    Linear in the prompts' length (every COPY_RUN-character window is looked up in the
    other prompt's windows), each cut to COPY_WINDOW characters: they are the audited
    author's.
    """
    texts = {p: pr.sent[:COPY_WINDOW] for p, pr in prompts.items()}
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
