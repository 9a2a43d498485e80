"""The PDF report detective: concepts, cited paths and feature claims, page by page.

PDF text is hostile input: it is only matched and clipped, never interpreted as
instructions, and excerpts in evidence are short.
"""

from __future__ import annotations

from courtroom.detectives.base import Case, detective
from courtroom.detectives.common import PDF, clip, make
from courtroom.detectives.pdf_claims import check_claims, check_paths
from courtroom.detectives.pdf_concepts import analyse
from courtroom.detectives.pdf_read import PdfData, load_pdf
from courtroom.models import Evidence

NAME = "report"
MAX_HALLUCINATED = 12


def unusable(name: str, pdf: PdfData, tags: tuple[str, ...]) -> Evidence:
    """The fact that the PDF could not be read, and why."""
    return make(name, "PDF report readable", False, "pdf", f"{pdf.display}: {pdf.problem}.", 0.95,
                (*tags, "missing", "parse_error"), content=pdf.problem)


@detective(NAME)
def report(case: Case) -> list[Evidence]:
    """Read the PDF report and check what it says against the repository."""
    pdf = load_pdf(case.pdf, case.pdf_display)
    topics = (PDF, "concepts", "claims", "paths")
    if pdf.problem is not None:
        return [unusable(NAME, pdf, topics)]
    chars = sum(len(p.text) for p in pdf.pages)
    out = [make(NAME, "PDF report readable", True, "pdf:page 1",
                f"{pdf.display}: {pdf.page_count} pages, {chars} characters of text extracted "
                f"with pdfplumber (first {len(pdf.pages)} pages read).", 0.95, (PDF,),
                content=clip(pdf.pages[0].text, 300))]
    out += _concepts(pdf)
    out += _paths(case, pdf)
    out += _claims(case, pdf)
    return out


def _concepts(pdf: PdfData) -> list[Evidence]:
    """One evidence item per concept: substantive, keyword-dropping or absent."""
    out = []
    for f in analyse(pdf):
        tags = (PDF, "concepts")
        goal = f"Concept '{f.concept}' explained in the report"
        if not f.mentions:
            out.append(make(NAME, goal, False, "pdf", f"'{f.concept}' never appears in "
                            f"{len(pdf.pages)} pages.", 0.9, (*tags, "missing")))
            continue
        pages = ", ".join(str(p) for p in f.pages)
        if f.substantive:
            page, excerpt = f.explained[0]
            out.append(make(NAME, goal, True, f"pdf:page {page}",
                            f"Substantive: explained in {len(f.explained)} passage(s) with "
                            f"architecture terms (pages {pages}).", 0.8, tags,
                            content=f"substantive | pages {pages} | {clip(excerpt, 240)}"))
        else:
            page, excerpt = f.summary_only[0]
            out.append(make(NAME, goal, False, f"pdf:page {page}",
                            f"Keyword-dropping: named {f.mentions} time(s) (pages {pages}) but "
                            "never explained with how the architecture implements it.", 0.75,
                            (*tags, "keyword_dropping"),
                            content=f"keyword-dropping | pages {pages} | {clip(excerpt, 240)}"))
    return out


def _paths(case: Case, pdf: PdfData) -> list[Evidence]:
    """Cited file paths, verified and hallucinated."""
    tags = (PDF, "paths", "claims")
    checks = check_paths(pdf, case.workspace)
    if not checks:
        return [make(NAME, "File paths cited in the report", False, "pdf",
                     "The report names no repository file paths.", 0.85, (*tags, "missing"))]
    verified = [c for c in checks if c.exists]
    bad = [c for c in checks if not c.exists]
    out = [make(NAME, "File paths cited in the report", True, f"pdf:page {checks[0].page}",
                f"{len(verified)} verified and {len(bad)} hallucinated of {len(checks)} paths "
                "(exact or suffix match against the repository file list).", 0.9, tags,
                content=clip("verified: " + ", ".join(c.matched or c.path for c in verified)
                             + "\nhallucinated: " + ", ".join(c.path for c in bad), 1500))]
    for c in bad[:MAX_HALLUCINATED]:
        out.append(make(NAME, "Report cites a file that is not in the repository", True,
                        f"pdf:page {c.page}", f"'{clip(c.path, 120)}' matches no file or folder "
                        "in the repository.", 0.85, (*tags, "hallucination"),
                        content=clip(c.path, 160)))
    return out


def _claims(case: Case, pdf: PdfData) -> list[Evidence]:
    """Feature claims of the report checked against source facts."""
    out = []
    for c in check_claims(pdf, case.workspace):
        status = "supported by the source" if c.supported else "NOT supported by the source"
        out.append(make(NAME, f"Report claim '{c.claim}' checked against the code", True,
                        f"pdf:page {c.page}", f"Claim {status}: {c.basis}.",
                        0.8, (PDF, "claims"),
                        content=f"{'supported' if c.supported else 'unsupported'} | "
                                f"{clip(c.excerpt, 220)}"))
    return out
