"""What a report says the system does, checked by meaning against the code.

`pdf_claims` checks the structural claims (parallel judges, reducers, conditional edges).
These are the claims graders mark line by line against the code: that the judge calls are
retried, that the clone runs in a temporary directory, that a persona's opinion carries a
stated weight, that the chief justice applies a named rule. Each check answers
``(supported, basis, code)``: ``code`` is the ``path:line`` that decides it, so a
contradicted claim cites both the page and the code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from courtroom.detectives.common import is_test_path
from courtroom.detectives.parsing import SourceFile, SourceIndex, source_index
from courtroom.detectives.repo.judge_code_facts import (
    MODEL_CALL,
    code_text,
    justice_files,
    line_of,
    llm_files,
)
from courtroom.detectives.repo.python_facts import RETRY, structured_calls
from courtroom.detectives.repo.rule_code import synthesis_rules
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.report.pdf_claims import ClaimCheck, claim_sentences, first_claim
from courtroom.detectives.report.pdf_read import PdfData

_PERSONA = r"(?:tech[\s_-]?lead|prosecutor|defen[cs]e)"
#: "TechLead 1.5x", "the Tech Lead's opinion counts 2 times", "a weight of 1.5 for the
#: TechLead": the number is the weight the report states.
_WEIGHT = re.compile(rf"{_PERSONA}\W+(?:\w+\W+){{0,4}}?(?P<a>\d(?:\.\d{{1,2}})?)\s*"
                     r"(?:x|×|times)(?!\w)|"
                     rf"weight(?:ed|s)?\s+(?:of\s+)?(?P<b>\d(?:\.\d{{1,2}})?)\s+"
                     rf"(?:\w+\s+){{0,3}}?{_PERSONA}", re.IGNORECASE)
#: Words that put a retry claim on the model calls rather than on a network clone.
_MODEL_WORDS = re.compile(r"\b(judges?|llm|model|opinions?|structured|outputs?|api|"
                          r"pars\w*|validat\w*|schema)\b", re.IGNORECASE)
_CLONE_WORDS = re.compile(r"\b(clon\w*|repositor\w*|repo|git)\b", re.IGNORECASE)
_TEMP_CALL = re.compile(r"\b(TemporaryDirectory|mkdtemp)\s*\(")


@dataclass(frozen=True)
class Kind:
    """A claim kind: what the sentence says, what else it must name, and its check."""

    said: re.Pattern[str]
    about: re.Pattern[str] | None
    check: Callable[[SourceIndex, re.Match[str]], tuple[bool, str, str | None]]


def _at(sf: SourceFile, text: str, pos: int) -> str:
    return f"{sf.path}:{line_of(text, pos)}"


def _retries(index: SourceIndex, _said: re.Match[str]) -> tuple[bool, str, str | None]:
    calls = [c for c in structured_calls(index) if c.retried]
    if calls:
        return True, "retry around the schema-bound call", calls[0].location
    for sf in llm_files(index):
        code = code_text(sf)
        hit = RETRY.search(code)
        if hit and not is_test_path(sf.path):
            return True, "retry code", _at(sf, code, hit.start())
    where = _first_model_call(index.files)
    return False, ("no retry loop, tenacity, RetryPolicy or max_retries around the model call"
                   if where else "no model call to retry was found"), where


def _temp_clone(index: SourceIndex, _said: re.Match[str]) -> tuple[bool, str, str | None]:
    clones = [sf for sf in index.files if not is_test_path(sf.path)
              and re.search(rb"['\"]clone['\"]|\bclone_from\b", sf.source)]
    for sf in clones:
        code = code_text(sf, strings=False)
        hit = _TEMP_CALL.search(code)
        if hit:
            return True, f"{hit.group(1)} in the clone code", _at(sf, code, hit.start())
    if clones:
        return False, "no TemporaryDirectory or mkdtemp in the code that clones", \
            f"{clones[0].path}:1"
    return False, "no code that clones a repository", None


def _weight(index: SourceIndex, said: re.Match[str]) -> tuple[bool, str, str | None]:
    """The stated weight on a line of the chief justice's code that names the persona
    (``"TechLead": 1.5``, ``if op.judge == "TechLead": w = 1.5``): a bare number elsewhere
    (``round(x, 2)``) is no such weight."""
    stated = said.group("a") or said.group("b")
    persona = re.search(_PERSONA, said.group(0), re.IGNORECASE)
    who = re.compile(re.sub(r"[\s_-]", "", persona.group(0)) if persona else _PERSONA,
                     re.IGNORECASE)
    number = re.compile(rf"(?<![\w.]){re.escape(stated)}(?:\.0+)?(?![\w.])")
    files = justice_files(index)
    for sf in files:
        code = code_text(sf)
        offset = 0
        for line in code.splitlines(keepends=True):
            hit = number.search(line)
            if hit and who.search(re.sub(r"[\s_-]", "", line)):
                return True, f"the weight {stated}", _at(sf, code, offset + hit.start())
            offset += len(line)
    return False, f"no weight {stated} in the chief justice's code", \
        f"{files[0].path}:1" if files else None


def _rule(name: str) -> Callable[[SourceIndex, re.Match[str]], tuple[bool, str, str | None]]:
    def check(index: SourceIndex, _said: re.Match[str]) -> tuple[bool, str, str | None]:
        hit = synthesis_rules(index)[name]
        if hit is not None:
            return True, f"the {name} rule", hit.location
        homes = justice_files(index)
        return False, f"no code for the {name} rule in the chief justice's modules", \
            f"{homes[0].path}:1" if homes else None
    return check


KINDS: dict[str, Kind] = {
    "judge retries": Kind(re.compile(r"\b(retr(?:y|ies|ied|ying)|tenacity|backoff|"
                                     r"max_retries)\b", re.IGNORECASE), _MODEL_WORDS, _retries),
    "temporary-directory clone": Kind(re.compile(r"TemporaryDirectory|temporary\s+director"
                                                 r"(?:y|ies)|\btempfile\b|\bsandbox(?:ed)?\b",
                                                 re.IGNORECASE), _CLONE_WORDS, _temp_clone),
    "persona weight": Kind(_WEIGHT, None, _weight),
    "security override": Kind(re.compile(r"security\s+(?:override|cap)\b", re.IGNORECASE),
                              None, _rule("security override")),
    "fact supremacy": Kind(re.compile(r"fact\s+supremacy", re.IGNORECASE), None,
                           _rule("fact supremacy")),
    "variance re-evaluation": Kind(re.compile(r"variance\s+(?:re-?evaluation|check|rule|"
                                              r"threshold)|re-?evaluat\w*\s+(?:on|when|if)\s+"
                                              r"(?:high\s+)?variance", re.IGNORECASE), None,
                                   _rule("variance re-evaluation")),
}


def check_meaning(pdf: PdfData, ws: Workspace,
                  found: list[tuple[int, str]] | None = None) -> list[ClaimCheck]:
    """The first place each kind is claimed (or admitted missing), checked against code."""
    index = source_index(ws)
    found = claim_sentences(pdf) if found is None else found
    out: list[ClaimCheck] = []
    for claim, kind in KINDS.items():
        site = first_claim(found, kind.said, kind.about)
        if site is None:
            continue
        supported, basis, where = kind.check(index, site.match)
        out.append(ClaimCheck(claim, site.page, site.excerpt, supported,
                              f"{basis} at {where}" if where else basis,
                              asserted=site.asserted, code=where))
    return out


def _first_model_call(files: list[SourceFile]) -> str | None:
    """Where the first model call is made (a call, not the client's construction)."""
    for sf in files:
        if is_test_path(sf.path):
            continue
        code = code_text(sf, strings=False)
        hits = list(MODEL_CALL.finditer(code))
        hit = next((h for h in hits if h.group(0).endswith("(")), hits[0] if hits else None)
        if hit:
            return _at(sf, code, hit.start())
    return None
