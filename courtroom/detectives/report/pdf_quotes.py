"""Quotations the report attributes to the code (a prompt, a docstring, a message).

"The system prompt says: “Find every weakness.”" is a claim about the repository as
checkable as a file path: the quoted words must be somewhere in its text. Quotations of
people (a grader, a peer) are not checked: nothing in the repository could confirm them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.report.pdf_read import PdfData
from courtroom.detectives.shared import per_workspace

_QUOTE = re.compile(r"[“\"]([^”\"]{20,400})[”\"]")
#: Words just before a quotation that say it comes from the code.
_FROM_CODE = re.compile(r"\b(?:system prompt|prompt|docstring|comment|instructions?|"
                        r"(?:log|error|system) message)s?\b[^.“\"]{0,40}$", re.IGNORECASE)
#: Words before a quotation that make it a wish, not a report: "change the prompt to “…”".
_WISH = re.compile(r"\b(?:chang\w*|updat\w*|set|make|rewrit\w*|should|would|will|could|"
                   r"plan\w*|propos\w*|suggest\w*)\b[^.“\"]{0,40}$", re.IGNORECASE)
_TEXT_SUFFIXES = (".py", ".md", ".txt", ".json", ".yaml", ".yml", ".toml", ".j2", ".jinja",
                  ".prompt", ".cfg", ".ini")
#: Fewest words a quotation needs before it is checked (short ones match by chance).
MIN_WORDS = 5
_REPO_TEXT_CAP = 20_000_000


@dataclass(frozen=True)
class QuoteCheck:
    """One quotation attributed to the code, and the file holding it (None: nowhere)."""

    text: str
    page: int
    found_in: str | None


def normalise(text: str) -> str:
    """Lower-case words joined by single spaces: quotes, breaks and punctuation dropped."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@per_workspace
def _repo_text(ws: Workspace) -> dict[str, str]:
    """Normalised text of the repository's text files, computed once."""
    out: dict[str, str] = {}
    total = 0
    for path in ws.files(_TEXT_SUFFIXES):
        text = ws.read_text(path)
        if text is None:
            continue
        total += len(text)
        if total > _REPO_TEXT_CAP:
            break
        out[path] = normalise(text)
    return out


def check_quotes(pdf: PdfData, ws: Workspace) -> list[QuoteCheck]:
    """Every quotation the report attributes to the code, looked up in the repository."""
    out: list[QuoteCheck] = []
    seen: set[str] = set()
    for page in pdf.pages:
        flat = " ".join(page.text.split())
        for m in _QUOTE.finditer(flat):
            words = normalise(m.group(1))
            lead = flat[max(0, m.start() - 80):m.start()]
            if not _FROM_CODE.search(lead) or _WISH.search(lead) or \
                    len(words.split()) < MIN_WORDS or words in seen:
                continue
            seen.add(words)
            hit = next((p for p, t in _repo_text(ws).items() if words in t), None)
            out.append(QuoteCheck(m.group(1).strip(), page.number, hit))
    return out
