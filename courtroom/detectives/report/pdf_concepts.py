"""Judge whether the report explains each rubric concept or only drops its name.

Depth is read from the passage around each mention, not from the phrase itself: does it
say how the thing works (mechanism language across more than one sentence) and tie it to
the repository (file paths and code names that really exist there)? A passage that does
both without naming the concept, but matching what the rubric's success pattern says the
concept looks like, counts too: a report may explain an idea in its own words.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
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
#: Mentions of one concept graded per page (all are counted): grading reads a passage of
#: up to MAX_CHARS, and a page repeating a name thousands of times must not cost minutes.
MAX_GRADED = 30
#: A numbered section heading inside flattened text ("2.3 State ...", "3. Design").
_HEADING = re.compile(r"(?<=\s)\d{1,2}(?:\.\d{1,2})+\.?\s+[A-Z][a-z]")
_SENTENCE_END = re.compile(r"[.!?]\s")
#: Most words a line may have and still be a heading, not a line of prose.
HEADING_WORDS = 8
#: A line's leading section number ("3.", "2.1", "IV.") or Markdown hashes.
_NUMBERED = re.compile(r"^(?:#{1,6}\s*|(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVX]{1,5}\.)\s+)(?=\S)")
_BULLET = re.compile(r"^[●•○◦▪▫■□‣⁃∙·*–—-]\s*")
_LINE_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: Small words a Title-Case heading leaves in lower case ("Reflection on the Loop").
_MINOR = frozenset("a an and as at by for from in into of on or the to via vs with".split())


def is_heading(line: str) -> bool:
    """Whether a line of a page is a section heading: numbered ("2.3 Metacognition",
    "3. DESIGN"), Markdown ("## Design"), all in capitals ("KEY FINDINGS:"), or a short
    Title-Case line ("Architecture Deep Dive", "Fan-In/Fan-Out Orchestration"), never
    ending as a sentence or a clause does. A wrapped line of prose has lower-case words or
    ends in punctuation; a numbered list item runs on past HEADING_WORDS or ends a sentence;
    a bullet is a list item, never a heading.
    """
    text = " ".join(line.split())
    if _BULLET.match(text):
        return False
    numbered = _NUMBERED.match(text)
    body = text[numbered.end():] if numbered else text
    words = _LINE_WORD.findall(body)
    # A numbered heading may wrap after a comma ("2.1 Grounding: Synthesis,").
    end = r"[.;!?]$" if numbered else r"[.;,!?]$"
    if not words or len(body.split()) > HEADING_WORDS or re.search(end, body):
        return False
    if re.search(r"[.!?]\s", body) or body.count(":") > 1:
        return False  # sentences, not a title
    capitals = sum(w.isupper() and len(w) > 1 for w in words)
    if capitals * 5 >= len(words) * 3:
        return True
    # A Title-Case label ending in a colon ("Key Features:") introduces a list inside its
    # section; only one in capitals ("KEY FINDINGS:") starts a section.
    title = all(w[0].isupper() or w.lower() in _MINOR for w in words) and \
        (bool(numbered) or not body.endswith(":"))
    return title and (bool(numbered) or len(words) >= 2 or len(words[0]) >= 6)


def sections(text: str) -> list[str]:
    """The page's text cut before each heading line (a wrapped heading stays whole)."""
    out: list[list[str]] = [[]]
    heading = False
    for line in text.splitlines():
        head = bool(line.strip()) and is_heading(line)
        if head and not heading and any(x.strip() for x in out[-1]):
            out.append([])
        out[-1].append(line)
        heading = head if line.strip() else heading
    return ["\n".join(lines) for lines in out if any(x.strip() for x in lines)]


def _flatten(text: str) -> tuple[str, list[int], list[int]]:
    """The page's text on one line (whitespace runs as one space), where each heading line
    starts in it, and where each heading line starts or ends (the edges of headings)."""
    parts: list[str] = []
    heads: list[int] = []
    edges: list[int] = []
    at = 0
    for line in text.splitlines():
        flat = " ".join(line.split())
        if not flat:
            continue
        if is_heading(flat):
            if edges and edges[-1] == at - 1:  # a heading wrapped over two lines is one
                edges[-1] = at + len(flat)
            else:
                heads.append(at)
                edges += [at, at + len(flat)]
        parts.append(flat)
        at += len(flat) + 1
    return " ".join(parts), heads, edges


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


def _between(edges: list[int], low: int, high: int) -> bool:
    """Whether a heading starts or ends strictly between two offsets: a heading's words and
    the text under it are no one list."""
    k = bisect_right(edges, low)
    return k < len(edges) and edges[k] < high


def _passages(text: str, concepts: list[Concept]) -> list[tuple[int, str, bool]]:
    """(concept index, passage, listed) for every mention on a page.

    A passage runs from the mention to the next heading, the next mention of another
    concept, or MAX_CHARS; ``listed`` marks a mention with two other concepts named in the
    same stretch of one sentence (a summary list). Each of these is looked up by position
    (bisect), so a page naming a concept thousands of times is read in linear time.
    """
    flat, lines, edges = _flatten(text)
    hits = sorted((pos, i) for i, c in enumerate(concepts) for pos in c.positions(flat))
    places = [pos for pos, _ in hits]
    headings = sorted({m.start() for m in _HEADING.finditer(flat)} | set(lines))
    # change[k]: the first hit after k naming another concept than hit k does.
    change = [len(hits)] * len(hits)
    for k in range(len(hits) - 2, -1, -1):
        change[k] = k + 1 if hits[k + 1][1] != hits[k][1] else change[k + 1]
    out = []
    for pos, i in hits:
        k = bisect_right(places, pos + LEAD)
        if k < len(hits) and hits[k][1] == i:
            k = change[k]
        # The next heading ends the passage: a mention in a heading reads its own section,
        # never the one after it.
        h = bisect_right(headings, pos)
        end = min(places[k] if k < len(hits) else pos + MAX_CHARS,
                  headings[h] if h < len(headings) else pos + MAX_CHARS, pos + MAX_CHARS)
        near = {j for p, j in hits[bisect_left(places, pos - LIST_REACH):
                                   bisect_right(places, pos + LIST_REACH)]
                if j != i and not _SENTENCE_END.search(flat, min(p, pos), max(p, pos))
                and not _between(edges, min(p, pos), max(p, pos))}
        out.append((i, flat[pos:end], len(near) >= 2))
    return out


def analyse(pdf: PdfData, concepts: list[Concept], ws: Workspace) -> list[ConceptFinding]:
    """Each concept with its pages and its deepest passage."""
    findings = [ConceptFinding(c.name) for c in concepts]
    for page in pdf.pages:
        graded = [0] * len(concepts)
        for i, passage, listed in _passages(page.text, concepts):
            finding = findings[i]
            finding.mentions += 1
            if page.number not in finding.pages:
                finding.pages.append(page.number)
            graded[i] += 1
            if graded[i] <= MAX_GRADED:
                level, ties, mech = grade(passage, ws, listed=listed)
                finding.offer(level, page.number, passage, ties, mech)
        # Other words explain a concept within one section: a window never runs past a
        # heading, and one that uses the concept's own word (as a modifier: "dialectical
        # tension") is not the concept told in other words.
        units = [u for section in sections(page.text) for u in [sentences(section)]]
        windows = [" ".join(unit[k:k + REACH]) for unit in units for k in range(len(unit))]
        for window in windows:
            for concept, finding in zip(concepts, findings, strict=True):
                if finding.level != "explained" and concept.hinted_in(window) and \
                        not concept.worded_in(window):
                    level, ties, mech = grade(window, ws, listed=False)
                    if level == "explained":
                        finding.offer(level, page.number, window, ties, mech, paraphrased=True)
    return findings
