"""A sorted view of a criterion's evidence that the offline lenses reason over.

Kept apart from the lenses so each lens reads as its philosophy, not as bookkeeping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.models import Evidence
from courtroom.rubric import DEFAULT_KEYWORDS

#: Below this confidence a found fact counts as unverified.
WEAK = 0.6
_SHA = re.compile(r"^[0-9a-f]{7,40}$")
_PAGE = re.compile(r"^pdf:page\s*(\d+)", re.IGNORECASE)
_HISTORY_TAGS = {"git", "history"}
#: Goals that name a bad thing: finding one is a problem, not finding one is good news.
_ADVERSE = re.compile(
    r"bulk upload|clustered|single commit|\binit(ial)? commit only|hallucinat|keyword[- ]drop"
    r"|linear (chain|pipeline)|injection|hardcoded|os\.system|shell\s*=\s*true|unsafe"
    r"|insecure|vulnerab|leak|overwrit|race condition|\bno (reducer|error|test)",
    re.IGNORECASE,
)
_BROKEN_TAGS = {"parse_error"}


def half_up(value: float) -> int:
    """Round half up for the non-negative values the lenses compute (2.5 -> 3)."""
    return int(value + 0.5)


def clamp(score: int) -> int:
    """Keep a score on the 1..5 scale."""
    return max(1, min(5, score))


def place(location: str) -> str:
    """Where a fact lives, as a reader names it: a file, a commit or a PDF page."""
    loc = location.strip()
    if loc in ("", ".", "./"):
        return "the repository"
    if loc.lower() == "pdf":
        return "the PDF report"
    page = _PAGE.match(loc)
    if page:
        return f"the PDF report (page {page.group(1)})"
    if _SHA.match(loc.lower()):
        return f"commit {loc[:7]}"
    path = loc.split(":", 1)[0] if ":" in loc and not loc.startswith("pdf") else loc
    return path or "the repository"


def short(text: str, limit: int = 90) -> str:
    """A goal or finding cut to one readable line."""
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


#: Code smells that name a security keyword when the finding does not say it in words.
_SMELLS: tuple[tuple[str, str], ...] = (
    (r"shell\s*=\s*true|os\.system|os\.popen|subprocess.*shell", "shell injection"),
    (r"\.\./|traversal|symlink", "path traversal"),
    (r"api[_-]?key|password|secret|token\s*=", "hardcoded credentials"),
    (r"pickle|yaml\.load|marshal", "insecure deserialization"),
    (r"\beval\(|\bexec\(", "rce"),
)


def security_keyword(item: Evidence) -> str | None:
    """The security keyword a finding names (goal, content or rationale), if any."""
    text = f"{item.goal} {item.content or ''} {item.rationale}".lower()
    for keyword in DEFAULT_KEYWORDS:
        if re.search(rf"\b{re.escape(keyword)}\b", text):
            return keyword
    for pattern, keyword in _SMELLS:
        if re.search(pattern, text):
            return keyword
    return None


def adverse(item: Evidence) -> bool:
    """Whether the goal names something bad (a bulk upload, an injection, a leak)."""
    return bool(_ADVERSE.search(item.goal))


def fact(item: Evidence) -> str:
    """'goal (place)' — how an argument names one fact."""
    return f"{short(item.goal)} ({place(item.location)})"


@dataclass(frozen=True)
class Facts:
    """The evidence of one criterion, split the ways the lenses look at it."""

    items: tuple[Evidence, ...]

    @property
    def found(self) -> list[Evidence]:
        return [e for e in self.items if e.found]

    @property
    def missing(self) -> list[Evidence]:
        """Wanted things that were not found: the real gaps."""
        return [e for e in self.items if not e.found and not adverse(e)]

    @property
    def cleared(self) -> list[Evidence]:
        """Bad things looked for and not found (no bulk upload, no injection): good news."""
        return [e for e in self.items if not e.found and adverse(e)]

    @property
    def security(self) -> list[Evidence]:
        return [e for e in self.found if "security" in e.tags]

    @property
    def flaws(self) -> list[Evidence]:
        """Bad things found that are not security findings (a bulk upload, a leak)."""
        return [e for e in self.found if adverse(e) and "security" not in e.tags]

    def _good(self) -> list[Evidence]:
        return [e for e in self.found if not adverse(e) and "security" not in e.tags]

    @property
    def weak(self) -> list[Evidence]:
        return [e for e in self._good() if e.confidence < WEAK]

    @property
    def solid(self) -> list[Evidence]:
        return [e for e in self._good() if e.confidence >= WEAK]

    @property
    def history(self) -> list[Evidence]:
        return [e for e in self.found if _HISTORY_TAGS.intersection(e.tags) and not adverse(e)]

    @property
    def broken(self) -> list[Evidence]:
        return [e for e in self.items if _BROKEN_TAGS.intersection(e.tags)]

    def files(self, items: list[Evidence] | None = None, limit: int = 4) -> list[str]:
        """Distinct places of the given items (all items by default), in evidence order."""
        seen: list[str] = []
        for item in self.items if items is None else items:
            where = place(item.location)
            if where not in seen:
                seen.append(where)
        return seen[:limit]


def ids(items: list[Evidence], limit: int = 8) -> list[str]:
    """Evidence ids to cite, in order, without repeats."""
    out: list[str] = []
    for item in items:
        if item.id not in out:
            out.append(item.id)
    return out[:limit]
