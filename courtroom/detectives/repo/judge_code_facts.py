"""Facts about how a submission's judges and chief justice work, read from code only.

Comments and docstrings are blanked before anything is matched: a rule that exists only
as a comment ("TODO: fact supremacy") is not a rule, and a docstring claiming structured
output is not structured output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.common import is_test_path
from courtroom.detectives.nodes import walk
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex, captures
from courtroom.detectives.repo.python_facts import (
    LLM_CALL,
    CallFact,
    SynthesisFact,
    retried,
    synthesis_functions,
)
from courtroom.models import location_path

#: Free-text model output turned into data by hand: json.loads (not of our own model's
#: ``.model_dump_json()``), or a regex fishing for a JSON object or list in the reply (an
#: escaped brace or bracket; a bare brace is a quantifier).
FREE_TEXT = re.compile(r"json\.loads\s*\((?!\s*[\w.]*\.(?:model_dump_json|json)\s*\(\s*\)\s*\))|"
                       r"re\.(?:search|findall|match|fullmatch|compile)\s*\("
                       r"\s*r?['\"][^'\"\n]*(?:\\\{|\\\[)")
#: Parsed output checked against a schema.
VALIDATED = re.compile(r"model_validate(?:_json)?\s*\(|parse_obj\s*\(|parse_raw\s*\(|"
                       r"TypeAdapter\s*\(|except\s+\(?[\w., ]*ValidationError|"
                       r"PydanticOutputParser\s*\(|pydantic_object\s*=")
_CJ_PATH = re.compile(r"chief|justice|synthes|verdict", re.I)
_CJ = re.compile(r"chief|justice", re.I)
_PROSE = re.compile(r"remediat|narrativ|summar|explain|recommend|describ|wording|markdown|"
                    r"render|format|text|comment|message|advice", re.I)
_DECIDES = re.compile(r"score|verdict|judg|decid|rul(e|ing)|synthes|aggregat|weigh", re.I)
#: A model call: LLM_CALL, or the chat/complete methods of a hand-rolled client.
MODEL_CALL = re.compile(LLM_CALL.pattern + r"|\.(?:a?chat|a?complete|generate_content)\s*\(")

#: Every byte but a line break becomes a space: blanked text keeps its line numbers.
_BLANK = bytes(b if b in (10, 13) else 32 for b in range(256))


def code_text(sf: SourceFile, *, strings: bool = True) -> str:
    """The file's source with comments and docstrings blanked (line numbers kept); with
    ``strings=False`` every string literal too, so code quoted as data (a prompt, a
    generated fixture) is not read as code."""
    data = bytearray(sf.source)
    found = captures("noncode", sf.root)
    blanked = [*found.get("comment", []),
               *(n for n in found.get("statement", []) if _docstring(n)),
               *(found.get("string", []) if not strings else [])]
    for node in blanked:
        data[node.start_byte:node.end_byte] = \
            data[node.start_byte:node.end_byte].translate(_BLANK)
    return data.decode("utf-8", "replace")


def _docstring(node: Node) -> bool:
    """A string that is a statement of its own (module, class or function docstring)."""
    return (node.type == "expression_statement" and node.named_child_count == 1
            and node.named_children[0].type == "string")


def line_of(text: str, pos: int) -> int:
    """The 1-based line of a position in a file's text."""
    return text.count("\n", 0, pos) + 1


@dataclass(frozen=True)
class Hit:
    """One located match in a file's code."""

    path: str
    line: int
    excerpt: str

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"


def _hits(files: list[SourceFile], pattern: re.Pattern[str]) -> list[Hit]:
    out = []
    for sf in files:
        text = code_text(sf)
        for m in pattern.finditer(text):
            line = line_of(text, m.start())
            out.append(Hit(sf.path, line, " ".join(text.splitlines()[line - 1].split())[:160]))
    return out


def llm_files(index: SourceIndex) -> list[SourceFile]:
    """Non-test files whose code calls a model."""
    return [sf for sf in index.files if not is_test_path(sf.path)
            and MODEL_CALL.search(code_text(sf, strings=False))]


def free_text_parsing(calling: list[SourceFile]) -> list[Hit]:
    """Where model-calling code (``llm_files``) parses free text by hand (json.loads,
    JSON-fishing regex)."""
    return _hits(calling, FREE_TEXT)


def validation(calling: list[SourceFile]) -> list[Hit]:
    """Where model-calling code (``llm_files``) validates parsed output against a schema."""
    return _hits(calling, VALIDATED)


def justice_files(index: SourceIndex) -> list[SourceFile]:
    """Non-test files named like a chief justice / synthesis / verdict module."""
    return [sf for sf in index.files if not is_test_path(sf.path) and _CJ_PATH.search(sf.path)]


def justice_functions(index: SourceIndex) -> list[SynthesisFact]:
    """The chief justice's functions: named so, or living in a chief-justice module (a tool
    that *checks* synthesis elsewhere, like check_synthesis_rules, is not one)."""
    homes = {sf.path for sf in justice_files(index)}
    return [f for f in synthesis_functions(index)
            if _CJ.search(f.name) or location_path(f.location) in homes]


def prose_only(index: SourceIndex, name: str) -> bool:
    """A chief-justice helper that only words things (remediation, a narrative): a model
    that words the advice around rule-made scores does not decide the verdict.

    A name is the author's to choose, so the name alone proves nothing: every call of the
    function must also hand its result to something named for prose
    (``remediation = generate_remediation(...)``, ``summary=...``). One call whose result
    goes anywhere else, or no call found, and the model counts as deciding.
    """
    if not _prose_name(name):
        return False
    needle = name.encode()  # only a file that spells the name can call it
    uses = [_receiver(sf, call) for sf in index.files
            if not is_test_path(sf.path) and needle in sf.source
            for call in walk(sf.root) if call.type == "call" and _calls(sf, call, name)]
    return bool(uses) and all(_prose_name(u) for u in uses)


def _prose_name(name: str) -> bool:
    return bool(_PROSE.search(name)) and not _DECIDES.search(name)


def _calls(sf: SourceFile, call: Node, name: str) -> bool:
    fn = call.child_by_field_name("function")
    return fn is not None and sf.text(fn).rsplit(".", 1)[-1] == name


def _receiver(sf: SourceFile, call: Node) -> str:
    """The name a call's result is given: an assignment's target, a keyword or a dict key
    ("" when it goes anywhere else: returned, passed on, used in an expression)."""
    parent = call.parent
    if parent is None:
        return ""
    if parent.type in ("assignment", "augmented_assignment"):
        left = parent.child_by_field_name("left")
        return sf.text(left) if left is not None and parent.child_by_field_name(
            "right") == call else ""
    field = {"keyword_argument": "name", "pair": "key"}.get(parent.type)
    target = parent.child_by_field_name(field) if field else None
    return sf.text(target) if target is not None and target != call else ""


def verdict_by_rules(index: SourceIndex) -> tuple[bool, str]:
    """Whether the chief justice decides by rules: none of its functions asks a model for
    the scores, and one branches on rules. The reason names the deciding ``path:line``."""
    functions = justice_functions(index)
    deciding = [f for f in functions if f.llm_calls and not prose_only(index, f.name)]
    if deciding:
        f = deciding[0]
        return False, f"{f.name} at {f.location} calls {', '.join(f.llm_calls)} to decide"
    rules = [f for f in functions if f.branches >= 2 and not f.llm_calls]
    return (bool(rules), f"rule code in {rules[0].name} at {rules[0].location}" if rules else
            "no rule-based chief justice function found")


#: A request body built as data that makes the API enforce a JSON schema on the answer
#: (Anthropic ``output_config`` / ``output_format``, OpenAI ``response_format``), for an
#: SDK call made with ``**body``: the call's keywords alone do not show it.
_SCHEMA_BODY = re.compile(rb"""["'](output_config|output_format|response_format)["']\s*:\s*"""
                          rb"""\{[^}]*?["']json_schema["']""")


#: An SDK call that takes its parameters from a dictionary built elsewhere: ``create(**body)``.
_SPLAT_CALL = re.compile(r"\.(?:create|parse|stream)\s*\([^)]*\*\*\s*[A-Za-z_]")


def schema_bodies(index: SourceIndex, calling: list[SourceFile]) -> list[CallFact]:
    """Dictionaries whose output format is a JSON schema, where a model call can send them:
    in model-calling code, or anywhere once some model call takes its parameters with
    ``**`` (the body is built in one module and sent from another). The key must be a real
    dictionary key, not text in a docstring, prompt or comment. ``calling``: ``llm_files``."""
    splat = any(_SPLAT_CALL.search(code_text(sf, strings=False)) for sf in calling)
    found: list[CallFact] = []
    for sf in index.files if splat else calling:
        for match in _SCHEMA_BODY.finditer(sf.source):
            node = sf.root.descendant_for_byte_range(match.start(), match.start() + 1)
            key = node.parent if node is not None and node.type == "string_start" else None
            pair = key.parent if key is not None else None
            if key is None or pair is None or pair.type != "pair" \
                    or pair.child_by_field_name("key") != key:
                continue
            excerpt = " ".join(match.group(0).decode("utf-8", "replace").split())[:160]
            found.append(CallFact(f"request body {match.group(1).decode()} json_schema",
                                  sf.loc(key), excerpt, retried(index, sf, key)))
    return found
