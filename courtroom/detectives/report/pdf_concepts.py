"""Judge whether the report explains each rubric concept or only drops its name.

Depth is read from the passage around each mention, not from the phrase itself: does it
say how the thing works (mechanism language across more than one sentence) and tie it to
the repository (file paths and code names that really exist there)? A passage that does
both without naming the concept, but matching what the rubric's success pattern says the
concept looks like, counts too: a report may explain an idea in its own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.report.concept_terms import Concept
from courtroom.detectives.report.pdf_read import PdfData
from courtroom.detectives.report.pdf_text import code_ties, mechanism_terms, sentences

#: explained: mechanism and code ties; partial: one of them; named: neither; absent.
LEVELS = ("absent", "named", "partial", "explained")
#: Sentences read after a mention (the mention's own sentence included).
REACH = 3
#: Fewest words and distinct mechanism terms an explanation needs.
MIN_WORDS, MIN_MECHANISM = 25, 3
#: Longest passage read after a mention; characters a passage always keeps before it may
#: stop; distance within which three concepts named together read as a list.
MAX_CHARS, LEAD, LIST_REACH = 1500, 40, 90
#: A numbered section heading inside flattened text ("2.3 State ...", "3. Design").
_HEADING = re.compile(r"(?<=\s)\d{1,2}(?:\.\d{1,2})+\.?\s+[A-Z][a-z]")
_SENTENCE_END = re.compile(r"[.!?]\s")


@dataclass
class ConceptFinding:
    """How one concept appears in the report, and its best passage."""

    concept: str
    level: str = "absent"
    pages: list[int] = field(default_factory=list)
    mentions: int = 0
    page: int | None = None
    excerpt: str = ""
    ties: list[str] = field(default_factory=list)
    mechanism: int = 0
    paraphrased: bool = False

    def offer(self, level: str, page: int, excerpt: str, ties: list[str], mechanism: int,
              *, paraphrased: bool = False) -> None:
        """Keep this passage if it is the deepest seen so far."""
        if (LEVELS.index(level), len(ties) + mechanism) <= \
                (LEVELS.index(self.level), len(self.ties) + self.mechanism):
            return
        self.level, self.page, self.excerpt = level, page, excerpt
        self.ties, self.mechanism, self.paraphrased = ties, mechanism, paraphrased


def grade(passage: str, ws: Workspace, *, listed: bool) -> tuple[str, list[str], int]:
    """(level, code ties, mechanism count) of one passage.

    ``listed`` marks a sentence that enumerates several concepts: a summary line, never
    an explanation, whatever follows it.
    """
    ties = code_ties(passage, ws)
    mechanism = len(mechanism_terms(passage))
    if listed:
        return "named", ties, mechanism
    long_enough = len(passage.split()) >= MIN_WORDS
    if long_enough and ties and mechanism >= MIN_MECHANISM:
        return "explained", ties, mechanism
    if (long_enough and mechanism >= MIN_MECHANISM) or (ties and mechanism >= 2):
        return "partial", ties, mechanism
    return "named", ties, mechanism


def _passages(text: str, concepts: list[Concept]) -> list[tuple[int, str, bool]]:
    """(concept index, passage, listed) for every mention on a page.

    A passage runs from the mention to the next heading, the next mention of another
    concept, or MAX_CHARS; ``listed`` marks a mention with two other concepts named in the
    same stretch of one sentence (a summary list).
    """
    flat = " ".join(text.split())
    hits = sorted((pos, i) for i, c in enumerate(concepts) for pos in c.positions(flat))
    headings = [m.start() for m in _HEADING.finditer(flat)]
    out = []
    for pos, i in hits:
        stops = [p for p, j in hits if j != i and p > pos + LEAD] + \
            [h for h in headings if h > pos + LEAD]
        end = min([*stops, pos + MAX_CHARS])
        near = {j for p, j in hits if j != i and abs(p - pos) <= LIST_REACH
                and not _SENTENCE_END.search(flat[min(p, pos):max(p, pos)])}
        out.append((i, flat[pos:end], len(near) >= 2))
    return out


def analyse(pdf: PdfData, concepts: list[Concept], ws: Workspace) -> list[ConceptFinding]:
    """Each concept with its pages and its deepest passage."""
    findings = [ConceptFinding(c.name) for c in concepts]
    for page in pdf.pages:
        for i, passage, listed in _passages(page.text, concepts):
            finding = findings[i]
            finding.mentions += 1
            if page.number not in finding.pages:
                finding.pages.append(page.number)
            level, ties, mech = grade(passage, ws, listed=listed)
            finding.offer(level, page.number, passage, ties, mech)
        units = sentences(page.text)
        for k in range(len(units)):
            window = " ".join(units[k:k + REACH])
            for concept, finding in zip(concepts, findings, strict=True):
                if finding.level != "explained" and concept.hinted_in(window) and \
                        not concept.named_in(window):
                    level, ties, mech = grade(window, ws, listed=False)
                    if level == "explained":
                        finding.offer(level, page.number, window, ties, mech, paraphrased=True)
    return findings
