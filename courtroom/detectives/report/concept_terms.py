"""The concepts a rubric asks the report to explain, and a tolerant matcher for each.

Concepts are read from the rubric, never from a fixed list: a PDF criterion's instruction
that enumerates two or more Title-Case terms ("Dialectical Synthesis, Fan-In/Fan-Out and
Metacognition", quoted or not) names them. A term matches its inflections, hyphenation and
word order ("fans out", "meta-cognitive", "synchronises the shared state"), so a report
that explains an idea in its own words is not missed for want of the exact phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from courtroom.rubric import Criterion

_TITLE_RUN = re.compile(r"[A-Z][A-Za-z]*(?:(?:[ \t]*[-/][ \t]*|[ \t]+)[A-Z][A-Za-z]*)*")
_LIST_GAP = re.compile(r"^[\s'\"‘’“”]*(?:,|,?\s*(?:and|or|&))?[\s'\"‘’“”]*$")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.;:!?](?=\s)")
_SUFFIXES = ("izations", "isations", "ization", "isation", "ations", "ation", "ition", "ional",
             "ical", "ness", "ment", "ing", "ion", "ies", "ive", "al", "ic", "es", "ed", "is",
             "s", "e")
_STOP = frozenset(
    "the a an and or of to in on for with by via is are be been its it this that these those "
    "how which what each every any all more than into from as at report explains explained "
    "implemented implements tied connected specific concrete system code across one two three "
    "four five".split())
#: A stem this long is distinctive enough to name a multi-word concept on its own.
HEAD_LENGTH = 7
#: Endings a short stem ("fan", "in") may still carry: "fans out", "fanning in".
_SHORT_ENDINGS = ("", "s", "es", "ed", "ing", "ned", "ning")
_WORD = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """A crude, predictable stem: one common suffix off, never shorter than four letters."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            return w[: -len(suffix)]
    return w


def tokens(text: str) -> list[str]:
    """Lower-case alphanumeric words (hyphens, slashes and punctuation split words)."""
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class Concept:
    """One concept: its rubric name, the stems of each spelling, and hint stems."""

    name: str
    variants: tuple[tuple[str, ...], ...]  # "Fan-In/Fan-Out" -> (("fan", "in"), ("fan", "out"))
    hints: frozenset[str] = frozenset()

    def named_in(self, text: str) -> bool:
        """Whether the text names the concept (any spelling, inflection or word order)."""
        return bool(self.positions(text))

    def positions(self, text: str) -> list[int]:
        """Character offsets where the text names the concept."""
        found = list(_WORD.finditer(text.lower()))
        words = [m.group() for m in found]
        hits = {i for stems in self.variants for i in _near(stems, words, text, found)}
        return [found[i].start() for i in sorted(hits)]

    def worded_in(self, text: str) -> bool:
        """Whether the text uses the concept's name or its distinctive word in any role,
        even one that does not name the concept ("dialectical tension")."""
        if self.named_in(text):
            return True
        heads = {max(v, key=len) for v in self.variants if max(len(s) for s in v) >= HEAD_LENGTH}
        return any(w.startswith(h) for w in tokens(text) for h in heads)

    def hinted_in(self, text: str) -> bool:
        """Whether the text holds every hint stem the rubric ties to this concept."""
        if len(self.hints) < 2:
            return False
        words = tokens(text)
        return all(any(_hit(h, w) for w in words) for h in self.hints)


def _hit(stem_: str, word: str) -> bool:
    if len(stem_) <= 3:
        return word.startswith(stem_) and word[len(stem_):] in _SHORT_ENDINGS
    return word.startswith(stem_)


#: Words that may stand before a concept's noun without making it another thing's name
#: ("the synchronisation", "our synthesis"), besides _STOP.
_DETERMINERS = frozenset("our their his her your my its no not also both such same whole "
                         "true real full final".split())
#: Endings of an adjective that qualifies a following noun ("dialectical tension").
_ADJECTIVE = re.compile(r"(?:al|ic|ive|ous|ary)$")


def _joined(text: str, left: re.Match[str], right: re.Match[str]) -> bool:
    """Whether two words stand side by side as one phrase (a space or hyphen between)."""
    return bool(re.fullmatch(r"[ \t-]{1,2}", text[left.end():right.start()]))


def _qualified(i: int, stems: tuple[str, ...], head: str, words: list[str], text: str,
               found: list[re.Match[str]]) -> bool:
    """Whether a word that holds only the concept's distinctive stem names the concept.

    The phrase's head noun decides: "Documentation Synchronization" is about
    documentation, not about state, and "dialectical tension" is a tension, not a
    synthesis. So the concept's last word ("synchronisation") must not be narrowed by a
    noun of another concept just before it, and its modifier ("dialectical") must not
    qualify another noun just after it.
    """
    own = {s for s in stems}
    if head == stems[-1]:
        if i == 0 or not _joined(text, found[i - 1], found[i]):
            return True
        before = words[i - 1]
        return before in _STOP or before in _DETERMINERS or any(_hit(s, before) for s in own)
    if not _ADJECTIVE.search(words[i]) or i + 1 >= len(words) or \
            not _joined(text, found[i], found[i + 1]):
        return True
    after = words[i + 1]
    return after in _STOP or any(_hit(s, after) for s in own)


def _near(stems: tuple[str, ...], words: list[str], text: str = "",
          found: list[re.Match[str]] | None = None) -> list[int]:
    """Word indexes where all stems occur within a short window (in any order).

    ``text`` and ``found`` (the words' matches in it) let a distinctive stem alone be
    weighed by the phrase around it (see ``_qualified``).
    """
    if len(stems) == 1:
        return [i for i, w in enumerate(words) if _hit(stems[0], w)
                or (i + 1 < len(words) and _hit(stems[0], w + words[i + 1]))]
    whole = "".join(stems)  # "fanout", "statesynchron..." written as one word
    # The longest stem, if distinctive, names the idea alone ("argue dialectically").
    head = max(stems, key=len) if max(len(s) for s in stems) >= HEAD_LENGTH else None
    window = 2 * len(stems) + 2
    out = []
    for i, w in enumerate(words):
        around = words[max(0, i - window): i + window + 1]
        if w.startswith(whole):
            out.append(i)
        elif _hit(stems[0], w) and all(any(_hit(s, a) for a in around) for s in stems[1:]):
            out.append(i)
        elif head is not None and w.startswith(head) and (
                found is None or all(any(_hit(s, a) for a in around) for s in stems) or
                _qualified(i, stems, head, words, text, found)):
            out.append(i)
    return out


def _variants(term: str) -> tuple[tuple[str, ...], ...]:
    """Each slash-separated spelling of a term as a tuple of stems."""
    parts = [p for p in re.split(r"\s*/\s*", term) if p.strip()]
    return tuple(tuple(stem(t) for t in tokens(p)) for p in parts if tokens(p))


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _listed_terms(sentence: str) -> list[str]:
    """Title-Case terms the sentence enumerates (two or more joined by commas/and/or)."""
    runs = list(_TITLE_RUN.finditer(sentence))
    groups: list[list[str]] = []
    previous_end = -1
    for run in runs:
        gap = sentence[previous_end:run.start()] if previous_end >= 0 else None
        if gap is not None and groups and _LIST_GAP.match(gap):
            groups[-1].append(run.group())
        else:
            groups.append([run.group()])
        previous_end = run.end()
    return [t for g in groups if len(g) >= 2 for t in g]


def _hints(concept: Concept, patterns: Iterable[str]) -> frozenset[str]:
    """Stems of the success-pattern sentences that describe this concept's mechanism."""
    own = {s for v in concept.variants for s in v}
    found: set[str] = set()
    for text in patterns:
        for sentence in _sentences(text):
            if concept.named_in(sentence):
                found |= {stem(w) for w in tokens(sentence)
                          if w not in _STOP and len(w) > 3 and not w.isdigit()}
    return frozenset(found - own)


def rubric_concepts(criteria: Iterable[Criterion]) -> list[Concept]:
    """The concepts the rubric's PDF criteria enumerate, in order, without repeats."""
    pdf_dims = [d for d in criteria if d.target_artifact == "pdf_report"]
    out: dict[tuple[tuple[str, ...], ...], Concept] = {}
    for criterion in pdf_dims:
        for sentence in _sentences(criterion.forensic_instruction):
            for term in _listed_terms(sentence):
                variants = _variants(term)
                if variants and variants not in out:
                    out[variants] = Concept(" ".join(term.split()), variants)
    patterns = [d.success_pattern or "" for d in pdf_dims]
    return [Concept(c.name, c.variants, _hints(c, patterns)) for c in out.values()]
