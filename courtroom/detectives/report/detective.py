"""The PDF report detective: concepts, cited paths and feature claims, page by page.

PDF text is hostile input: it is only matched and clipped, never interpreted as
instructions, and excerpts in evidence are short.
"""

from __future__ import annotations

from courtroom.detectives.base import Case, declares, detective
from courtroom.detectives.common import DISCREDITED, MISLEADING, PDF, make
from courtroom.detectives.report.claim_checks import check_meaning
from courtroom.detectives.report.concept_terms import rubric_concepts
from courtroom.detectives.report.pdf_claims import (
    ClaimCheck,
    PathCheck,
    check_claims,
    check_paths,
    claim_sentences,
)
from courtroom.detectives.report.pdf_concepts import analyse
from courtroom.detectives.report.pdf_quotes import check_quotes
from courtroom.detectives.report.pdf_read import PdfData, load_pdf
from courtroom.errors import RubricError
from courtroom.models import Evidence
from courtroom.rubric import Criterion, default_rubric_path, load_rubric
from courtroom.untrusted import clip

NAME = "report"
MAX_HALLUCINATED = 12
#: A report naming fewer existing repository files than this cannot be cross-referenced.
FEW_PATHS = 2


def unusable(name: str, pdf: PdfData, tags: tuple[str, ...], *, given: bool) -> Evidence:
    """The fact that there is no PDF to read (none given) or that it could not be read, and why."""
    if not given:
        # Nothing was given: an absence, not a broken file the author should "make readable".
        # Context, not adverse: with no report there is nothing to hold against it, so each
        # criterion is judged unproven and its own remediation names what it looks for.
        return make(name, "PDF report given", False, "pdf", "The audit was given no PDF report.",
                    0.95, (*tags, "missing"), content=pdf.problem)
    return make(name, "PDF report readable", False, "pdf", f"{pdf.display}: {pdf.problem}.", 0.95,
                (*tags, "missing", "parse_error"), content=pdf.problem)


@detective(NAME, produces=declares(PDF, {
    "concepts": "how the report explains a concept the rubric names",
    "paraphrased": "a concept explained in the report's own words",
    "thin": "a concept explained too briefly to show how it works",
    "keyword_dropping": "a concept only named, never explained",
    "claims": "a claim of the report checked against the repository",
    "paths": "a file path the report cites, checked against the repository",
    "hallucination": "a path the report cites that the repository does not hold",
    "claim": "a path the report says the repository holds",
    "local": "a path the report places outside the repository",
    "discussed": "a path the report only discusses",
    "proposal": "a path the report proposes for later work",
    "quotes": "code the report quotes, compared with the repository's",
    "admitted": "a shortcoming the report owns up to",
    MISLEADING: "several of the report's claims are contradicted by the code",
    DISCREDITED: "many of the report's claims are contradicted by the code",
    "missing": "no PDF report, or nothing of the kind in it",
    "parse_error": "a PDF that could not be read",
}))
def report(case: Case) -> list[Evidence]:
    """Read the PDF report and check what it says against the repository."""
    pdf = load_pdf(case.pdf, case.pdf_display)
    topics = (PDF, "concepts", "claims", "paths")
    if pdf.problem is not None:
        return [unusable(NAME, pdf, topics, given=case.pdf is not None)]
    chars = sum(len(p.text) for p in pdf.pages)
    out = [make(NAME, "PDF report readable", True, "pdf:page 1",
                f"{pdf.display}: {pdf.page_count} pages, {chars} characters of text extracted "
                f"with PDFium (first {len(pdf.pages)} pages read).", 0.95, (PDF,),
                content=clip(pdf.pages[0].text, 300))]
    out += _concepts(case, pdf)
    paths = check_paths(pdf, case.workspace)
    found = claim_sentences(pdf)
    claims = [*check_claims(pdf, case.workspace, found),
              *check_meaning(pdf, case.workspace, found)]
    out += _paths(paths)
    out += _claims(claims)
    out += _discredited(paths, claims)
    out += _quotes(case, pdf)
    return out


def _criteria(case: Case) -> tuple[Criterion, ...]:
    """The audit's rubric criteria; a case built without them reads the default rubric."""
    if case.criteria:
        return case.criteria
    try:
        return tuple(load_rubric(default_rubric_path()).criteria)
    except RubricError:
        return ()


def _concepts(case: Case, pdf: PdfData) -> list[Evidence]:
    """One fact per rubric concept: explained, partly explained, only named, or absent."""
    out = []
    tags = (PDF, "concepts")
    found = analyse(pdf, rubric_concepts(_criteria(case)), case.workspace)
    # An absent concept belongs beside those the report does explain: that page is the fix's.
    home = next((f.page for f in found if f.level == "explained" and f.page),
                next((f.page for f in found if f.level != "absent" and f.page), 1))
    for f in found:
        goal = f"Concept '{f.concept}' explained in the report"
        if f.level == "absent":
            out.append(make(NAME, goal, False, f"pdf:page {home}", f"'{f.concept}' is neither "
                            f"named nor explained in other words in {len(pdf.pages)} pages.",
                            0.85, (*tags, "missing"), direction="adverse",
                            fix=f"on page {home}, beside the concepts the report explains, "
                            f"explain how the code implements {f.concept}, naming the files "
                            "that do it."))
            continue
        where = f"pdf:page {f.page}"
        pages = ", ".join(str(p) for p in f.pages) or "none"
        ties = ", ".join(f.ties[:6]) or "none"
        content = clip(f"{f.level} | pages {pages} | code: {ties} | {f.excerpt}", 600)
        if f.level == "explained":
            how = ("explained in other words (the term itself is not used)" if f.paraphrased
                   else f"named {f.mentions} time(s) (pages {pages})")
            out.append(make(NAME, goal, True, where, f"Explained: {how}; the passage says how "
                            f"it works ({f.mechanism} mechanism terms) and ties it to the code "
                            f"({clip(ties, 160)}).", 0.7 if f.paraphrased else 0.85,
                            (*tags, "paraphrased") if f.paraphrased else tags,
                            content=content, direction="supports"))
        elif f.level == "partial":
            lack = "names no file or function of the repository" if not f.ties else \
                "says little about how it works"
            out.append(make(NAME, goal, True, where, f"Partly explained: the best passage "
                            f"{lack}.", 0.55, (*tags, "thin"), content=content,
                            direction="supports", fix=f"on page {f.page}, tie {f.concept} to "
                            "the code that implements it and say how it works."))
        else:
            out.append(make(NAME, goal, False, where, f"Keyword-dropping: named {f.mentions} "
                            f"time(s) (pages {pages}) but never explained or tied to the code.",
                            0.75, (*tags, "keyword_dropping"), content=content,
                            direction="adverse", fix=f"on page {f.page}, explain how the code "
                            f"implements {f.concept}."))
    return out


_STANCE = {"proposal": "proposed as future work", "discussed": "quoted or discussed as an "
           "error", "local": "a path on someone's machine, not in the repository"}


def _paths(checks: list[PathCheck]) -> list[Evidence]:
    """Cited file paths: verified, hallucinated, and those only proposed or quoted."""
    tags = (PDF, "paths", "claims")
    verified = [c for c in checks if c.exists]
    bad = [c for c in checks if not c.exists and c.stance == "claim"]
    aside = [c for c in checks if not c.exists and c.stance != "claim"]
    out = [_uncited(checks, len(verified))] if len(verified) < FEW_PATHS else []
    if not checks:
        return out
    out += [make(NAME, "File paths cited in the report", True, f"pdf:page {checks[0].page}",
                f"{len(verified)} verified and {len(bad)} hallucinated of "
                f"{len(verified) + len(bad)} paths the report presents as existing (exact or "
                f"suffix match against the repository file list); {len(aside)} more proposed, "
                "quoted or local.", 0.9, tags, direction="adverse" if bad else "supports",
                content=clip("verified: " + ", ".join(c.matched or c.path for c in verified)
                             + "\nhallucinated: " + ", ".join(c.path for c in bad), 1500))]
    for c in bad[:MAX_HALLUCINATED]:
        out.append(make(NAME, "Report cites a file that is not in the repository", True,
                        f"pdf:page {c.page}", f"'{clip(c.path, 120)}' matches no file or folder "
                        "in the repository.", 0.85, (*tags, "hallucination"),
                        content=clip(c.path, 160), direction="adverse",
                        fix=f"correct or remove the path on page {c.page}."))
    for c in aside[:MAX_HALLUCINATED]:
        out.append(make(NAME, "Report mentions a path it does not claim exists", True,
                        f"pdf:page {c.page}", f"'{clip(c.path, 120)}' is not in the repository, "
                        f"but the report does not claim it is: {_STANCE[c.stance]}.", 0.7,
                        (*tags, c.stance), content=clip(c.path, 160)))
    return out


def _uncited(checks: list[PathCheck], verified: int) -> Evidence:
    """A report is cross-referenced through the files it names: with none or one, what it
    says about the system cannot be checked against the code, by its reader either."""
    where = f"pdf:page {checks[0].page}" if checks else "pdf:page 1"
    cited = (f"names {verified} repository file(s) that exist" if checks else
             "names no repository file paths")
    return make(NAME, "Report cites the files its claims rest on", False, where,
                f"The report {cited}, so its claims about the system cannot be "
                "cross-referenced with the code.", 0.75, (PDF, "paths", "claims", "missing"),
                direction="adverse", fix=f"on {where.removeprefix('pdf:')}, name the file "
                "(and line) that implements each mechanism the report describes.")


def _claims(checks: list[ClaimCheck]) -> list[Evidence]:
    """Feature claims (and admitted gaps) of the report checked against source facts."""
    out = []
    for c in checks:
        goal = f"Report claim '{c.claim}' checked against the code"
        excerpt = clip(c.excerpt, 220)
        if not c.asserted:
            honest = not c.supported
            out.append(make(NAME, goal, True, f"pdf:page {c.page}",
                            f"The report admits '{c.claim}' is missing or planned; the code "
                            f"{'agrees' if honest else 'has it (the admission is stale)'}: "
                            f"{c.basis}.", 0.75, (PDF, "claims", "admitted"),
                            content=f"admitted | {excerpt}",
                            direction="supports" if honest else "context"))
            continue
        status = "supported by the source" if c.supported else "NOT supported by the source"
        fix = None if c.supported else f"correct the claim on page {c.page}" + (
            f", or make `{c.code}` do what it says." if c.code else " or build it.")
        out.append(make(NAME, goal, True, f"pdf:page {c.page}", f"Claim {status}: {c.basis}.",
                        0.8, (PDF, "claims"), fix=fix,
                        content=f"{'supported' if c.supported else 'unsupported'} | {excerpt}",
                        direction="supports" if c.supported else "adverse"))
    return out


def _discredited(paths: list[PathCheck], claims: list[ClaimCheck]) -> list[Evidence]:
    """One fact when the code contradicts two or more of the report's feature claims: the
    report misleads (MISLEADING), however many true statements surround them. When they
    are a quarter of its claims, or paths it presents as existing that do not bring the
    false statements to four, it is discredited (DISCREDITED). Paths alone never count:
    a path the report proposes can read like one it claims."""
    made = [c for c in claims if c.asserted]
    contradicted = [c for c in made if not c.supported]
    if len(contradicted) < 2:
        return []
    false = [(c.page, c.claim + (f" (code: {c.code})" if c.code else "")) for c in contradicted]
    false += [(p.page, f"the path {clip(p.path, 80)}") for p in paths
              if not p.exists and p.stance == "claim"]
    false.sort()
    worst = 4 * len(contradicted) >= len(made) or len(false) >= 4
    listing = "; ".join(f"page {page}: {what}" for page, what in false[:10])
    return [make(NAME, "Several of the report's statements are false", True,
                 f"pdf:page {false[0][0]}", f"{len(contradicted)} of the {len(made)} feature "
                 f"claims checked are contradicted by the code, {len(false)} false statements "
                 f"in all ({listing}).", 0.85,
                 (PDF, "claims", DISCREDITED if worst else MISLEADING),
                 content=listing, direction="adverse",
                 fix=f"correct each on its page, starting with page {false[0][0]}.")]


def _quotes(case: Case, pdf: PdfData) -> list[Evidence]:
    """Quotations the report attributes to the code, found in the repository or not."""
    out = []
    for q in check_quotes(pdf, case.workspace):
        quoted = clip(" ".join(q.text.split()), 200)
        if q.found_in:
            out.append(make(NAME, "Report quotes the code accurately", True, f"pdf:page {q.page}",
                            f"The quoted text is in {q.found_in}.", 0.85,
                            (PDF, "claims", "quotes"), content=quoted, direction="supports"))
        else:
            out.append(make(NAME, "Report quotes code text that is not in the repository", True,
                            f"pdf:page {q.page}", "The report presents this as the code's own "
                            "words (a prompt, docstring or message), but no text file of the "
                            "repository contains it.", 0.8,
                            (PDF, "claims", "quotes"), content=quoted, direction="adverse",
                            fix=f"quote the code as it is on page {q.page}, or change the code."))
    return out
