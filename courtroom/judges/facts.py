"""A sorted view of a criterion's evidence that the offline lenses reason over.

Every fact says which way it points (``Evidence.direction``): "supports" meets the
criterion's success pattern, "adverse" matches its failure pattern, "context" is neither.
Only supporting facts are ever credit and every adverse fact is a charge, whatever its
``found`` flag says. Kept apart from the lenses so each lens reads as its philosophy, not
as bookkeeping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.chief_justice import keyword_in
from courtroom.detectives.common import DISCREDITED, MISLEADING, UNWORKABLE
from courtroom.models import SECURITY_TAG, Evidence, location_path
from courtroom.rubric import DEFAULT_KEYWORDS
from courtroom.untrusted import one_line

#: Below this confidence a supporting fact counts as unverified.
WEAK = 0.6
#: Most charges one adverse goal brings, however many places it was found in.
CHARGES_PER_GOAL = 3
_SHA = re.compile(r"^[0-9a-f]{7,40}$")
_PAGE = re.compile(r"^pdf:page\s*(\d+)", re.IGNORECASE)
_HISTORY_TAGS = {"git", "history"}
#: The highest score a lens may give while a found adverse fact carries the tag.
#: A pattern that cannot work earns at most partial credit (3); a report with several false
#: claims is misleading (3), one with many is discredited (2).
_CAPS = {UNWORKABLE: 3, MISLEADING: 3, DISCREDITED: 2}
_BROKEN_TAGS = {"parse_error"}


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
    path = location_path(loc) if not loc.startswith("pdf") else loc
    return path or "the repository"


def spot(location: str) -> str:
    """A fact's exact place for a remediation line: ``path:line``, a PDF page, a commit."""
    loc = location.strip()
    page = _PAGE.match(loc)
    if page:
        return f"PDF page {page.group(1)}"
    if loc in ("", ".", "./") or _SHA.match(loc.lower()) or loc.lower() == "pdf":
        return place(loc)
    return f"`{loc}`"


#: Code smells that name a security keyword when the finding does not say it in words.
_SMELLS: tuple[tuple[str, str], ...] = (
    (r"shell\s*=\s*true|os\.system|os\.popen|subprocess.*shell", "shell injection"),
    (r"\.\./|traversal|symlink", "path traversal"),
    (r"api[_-]?key|password|secret|token\s*=", "hardcoded credentials"),
    (r"pickle|yaml\.load|marshal", "insecure deserialization"),
    (r"\beval\(|\bexec\(", "rce"),
)


def implied_keyword(item: Evidence) -> str | None:
    """The security keyword a finding implies (goal, content or rationale), if any.

    A keyword the text names wins, in the rubric's default order; else a known smell.
    """
    text = f"{item.goal} {item.content or ''} {item.rationale}".lower()
    for keyword in DEFAULT_KEYWORDS:
        if keyword_in(text, (keyword,)):
            return keyword
    for pattern, keyword in _SMELLS:
        if re.search(pattern, text):
            return keyword
    return None


def fact(item: Evidence) -> str:
    """'goal (place)' — how an argument names one fact."""
    return f"{one_line(item.goal, 90)} ({place(item.location)})"


def first_sentence(text: str, limit: int = 160) -> str:
    # A sentence ends at ". " or "; ", not inside "01:25" or "v1.2"; a long one is cut at
    # a word boundary, so advice never ends mid-word ("at 2026-02-24 01:2…").
    head = re.split(r"(?<=[.;])\s", " ".join(text.split()), maxsplit=1)[0].rstrip(".;")
    if len(head) <= limit:
        return one_line(head, limit)
    cut = head[: limit - 1]
    space = cut.rfind(" ")
    return one_line((cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…", limit)


def against(item: Evidence) -> str:
    """An adverse fact, told as what is wrong: its goal often names the success pattern
    it fails ("Commands run as argument lists"), so the problem itself must follow."""
    problem = first_sentence(item.rationale, 110)
    return f"{fact(item)}, not met: {problem}" if problem else f"{fact(item)}, not met"


def fix_line(item: Evidence) -> str:
    """One remediation line for an adverse fact: where, what is wrong, and the change."""
    problem = first_sentence(item.rationale)
    change = one_line(item.fix.strip().rstrip("."), 200) if item.fix else (
        f"make it meet the criterion instead ({one_line(item.goal, 70)})")
    return f"{spot(item.location)}: {problem}; {change}."


@dataclass(frozen=True)
class Facts:
    """The evidence of one criterion, split the ways the lenses look at it."""

    items: tuple[Evidence, ...]

    @property
    def supports(self) -> list[Evidence]:
        """Facts that meet the success pattern: the only thing any lens credits."""
        return [e for e in self.items if e.direction == "supports"]

    @property
    def adverse(self) -> list[Evidence]:
        """Facts that match the failure pattern: a charge for every lens. A found fact tagged
        ``security`` is a confirmed finding, adverse by its tag even if a detective left its
        direction at "context" (fail closed)."""
        return [e for e in self.items if e.direction == "adverse" or _finding(e)]

    @property
    def directed(self) -> list[Evidence]:
        return self.supports + self.adverse

    @property
    def missing(self) -> list[Evidence]:
        """Adverse because something wanted was not found (a gap, not a defect)."""
        return [e for e in self.adverse if not e.found]

    @property
    def security(self) -> list[Evidence]:
        """Confirmed security findings: found, adverse and tagged ``security``."""
        return [e for e in self.adverse if _finding(e)]

    @property
    def flaws(self) -> list[Evidence]:
        """Bad things found that are not security findings (a bulk upload, a dead end)."""
        return [e for e in self.adverse if e.found and SECURITY_TAG not in e.tags]

    @property
    def unworkable(self) -> list[Evidence]:
        """Found adverse facts showing the design cannot work as built, or a report the code
        contradicts: present patterns earn no full credit while one stands."""
        return [e for e in self.adverse if e.found and _CAPS.keys() & set(e.tags)]

    def cap(self, score: int) -> int:
        """The score a lens may give once unworkable and discredited facts are weighed."""
        caps = [_CAPS[t] for e in self.unworkable for t in e.tags if t in _CAPS]
        return min([score, *caps])

    @property
    def weak(self) -> list[Evidence]:
        return [e for e in self.supports if e.confidence < WEAK]

    @property
    def solid(self) -> list[Evidence]:
        return [e for e in self.supports if e.confidence >= WEAK]

    @property
    def history(self) -> list[Evidence]:
        """History facts that hold: one the detective weighed as a claim (its dates alone,
        which the author sets) is no proof of iteration."""
        return [e for e in self.solid if _HISTORY_TAGS.intersection(e.tags)]

    @property
    def broken(self) -> list[Evidence]:
        return [e for e in self.items if _BROKEN_TAGS.intersection(e.tags)]

    def share(self, weak_credit: float = 1.0) -> float | None:
        """Share of the criterion's weighed aspects that hold (None: nothing directed).

        Credit counts each distinct goal once, at its highest confidence: twelve typed
        classes do not outweigh the one missing reducer, since a criterion is judged on how
        many of its aspects hold. Charges count each adverse fact (up to CHARGES_PER_GOAL of
        one goal): two false quotations are two charges. A confirmed security flaw charges
        once per kind: the security cap is its weight, and the same flaw found in eight
        places is one defect to fix, not eight reasons to doubt the rest. Unverified
        (low-confidence) support earns ``weak_credit`` of its weight as credit but stays whole
        in the total: a sceptic gives it nothing.
        """
        others = [e for e in self.adverse if not _finding(e)]
        credit = _weight(self.supports)
        charge = _weight(others, per_goal=CHARGES_PER_GOAL) + _weight(self.security)
        if not credit + charge:
            return None
        return _weight(self.supports, weak_credit) / (credit + charge)

    def fixes(self, limit: int = 4) -> list[str]:
        """Distinct remediation lines of the adverse facts, security first."""
        ordered = self.security + [e for e in self.adverse if e not in self.security]
        return list(dict.fromkeys(fix_line(e) for e in ordered))[:limit]

    def files(self, items: list[Evidence] | None = None, limit: int = 4) -> list[str]:
        """Distinct places of the given items (all items by default), in evidence order."""
        seen: list[str] = []
        for item in self.items if items is None else items:
            where = place(item.location)
            if where not in seen:
                seen.append(where)
        return seen[:limit]


def _finding(item: Evidence) -> bool:
    """A found fact tagged ``security`` that does not say it meets the criterion."""
    return item.found and SECURITY_TAG in item.tags and item.direction != "supports"


def _weight(items: list[Evidence], weak_credit: float = 1.0, per_goal: int = 1) -> float:
    """Sum over distinct goals of the highest confidence each was stated with, times the
    number of its items up to ``per_goal``; a goal stated only below WEAK confidence
    counts ``weak_credit`` of that."""
    best: dict[str, float] = {}
    count: dict[str, int] = {}
    for e in items:
        best[e.goal] = max(best.get(e.goal, 0.0), e.confidence)
        count[e.goal] = count.get(e.goal, 0) + 1
    return sum((c if c >= WEAK else c * weak_credit) * min(count[g], per_goal)
               for g, c in best.items())


def ids(items: list[Evidence], limit: int = 8) -> list[str]:
    """Ids of the found facts among items, to cite, in order, without repeats.

    A fact that was not found is named in the text but never cited: the chief justice's
    fact-supremacy rule treats citing it as building on nothing.
    """
    out: list[str] = []
    for item in items:
        if item.found and item.id not in out:
            out.append(item.id)
    return out[:limit]
