"""Judge whether the report explains each theory concept or only drops its name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from courtroom.detectives.pdf_read import PdfData

CONCEPTS: dict[str, re.Pattern[str]] = {
    "Dialectical Synthesis": re.compile(r"dialectic\w*|thesis[\s,/-]+antithesis", re.I),
    "Fan-In/Fan-Out": re.compile(r"fan[\s-]?(?:in|out)\b", re.I),
    "Metacognition": re.compile(r"meta[\s-]?cogniti\w*", re.I),
    "State Synchronization": re.compile(r"state\s+synchroni[sz]\w*|synchroni[sz]\w*\s+(?:of\s+)?"
                                        r"(?:the\s+)?state", re.I),
}
#: Words that tie an explanation to an implementation.
ARCH_TERMS = re.compile(
    r"\b(node|nodes|edge|edges|graph|stategraph|state|reducer|operator\.add|operator\.ior|"
    r"judge|judges|detective|detectives|parallel|branch|branches|superstep|prosecutor|"
    r"defense|tech\s?lead|chief\s+justice|aggregat\w*|evidence|opinion|typeddict|pydantic|"
    r"basemodel|conditional|router|merge|concurrent\w*|join|langgraph|rubric|score)\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n{2,}")


@dataclass
class ConceptFinding:
    """How one concept appears in the report."""

    concept: str
    pages: list[int] = field(default_factory=list)
    mentions: int = 0
    explained: list[tuple[int, str]] = field(default_factory=list)  # (page, excerpt)
    summary_only: list[tuple[int, str]] = field(default_factory=list)

    @property
    def substantive(self) -> bool:
        """Explained near architecture terms, not only named in a list or summary."""
        return bool(self.explained)


def _sentences(text: str) -> list[str]:
    """Sentences of a page (line wraps joined, paragraphs split)."""
    flat = re.sub(r"(?<!\n)\n(?!\n)", " ", text)
    return [s.strip() for s in _SENTENCE.split(flat) if s.strip()]


def analyse(pdf: PdfData) -> list[ConceptFinding]:
    """Each concept with its pages and whether any mention is a real explanation.

    A mention counts as an explanation when the sentence is not a list of several
    concepts and it plus the next two sentences hold 30+ words and 3+ distinct
    architecture terms (nodes, reducers, judges ...).
    """
    findings = {c: ConceptFinding(c) for c in CONCEPTS}
    for page in pdf.pages:
        sentences = _sentences(page.text)
        for i, sentence in enumerate(sentences):
            named = [c for c, rx in CONCEPTS.items() if rx.search(sentence)]
            for concept in named:
                f = findings[concept]
                f.mentions += 1
                if page.number not in f.pages:
                    f.pages.append(page.number)
                context = " ".join(sentences[i:i + 3])
                terms = {t.lower() for t in ARCH_TERMS.findall(context)}
                excerpt = context[:240]
                if len(named) < 3 and len(context.split()) >= 30 and len(terms) >= 3:
                    f.explained.append((page.number, excerpt))
                else:
                    f.summary_only.append((page.number, excerpt))
    return list(findings.values())
