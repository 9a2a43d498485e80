"""Facts about what the audit could not cover: listing limits, a failed security scan.

A gate that passes because the scan never saw the vulnerable file is worse than no gate.
Whatever left Python sources unscanned becomes an evidence item tagged
``SCAN_INCOMPLETE`` (the chief justice fails the conclusion closed on it) and a
``workspace`` problem that says why.
"""

from __future__ import annotations

from collections.abc import Mapping

from courtroom.detectives.base import Case, declares
from courtroom.detectives.common import REPO, SCAN_INCOMPLETE, make
from courtroom.detectives.security import detective as security
from courtroom.models import Evidence
from courtroom.problems import Problem

NAME = "coverage"
#: What the runner's own facts mean (they come from no registered detective).
PRODUCES = declares(REPO, {
    NAME: "files left out of the audit: listing limits, ignore globs, a scan that failed",
    SCAN_INCOMPLETE: "a file the runtime could execute was not examined: the gate fails closed",
})
#: Detectives whose failure leaves the security scan incomplete.
SECURITY_DETECTIVES = frozenset({security.NAME})


def coverage_facts(
    case: Case, failures: Mapping[str, str]
) -> tuple[list[Evidence], list[Problem]]:
    """Evidence and problems for listing limits, tree problems and a failed scan.

    ``failures`` maps each detective that failed or ran out of time to what happened.
    """
    ws = case.workspace
    listing = ws.listing
    problems = [Problem(kind="workspace", message=note)
                for note in (*listing.notes(), *ws.notes)]
    out: list[Evidence] = []
    limits = listing.notes()
    if limits or listing.ignored:
        ignored = f" {listing.ignored} file(s) matched the configured ignore globs." \
            if listing.ignored else ""
        tags = (REPO, NAME, SCAN_INCOMPLETE) if listing.source_incomplete else (REPO, NAME)
        out.append(make(NAME, "Files left out of the audit", bool(limits), ".",
                        ("; ".join(limits) + "." if limits else "No listing limit was hit.")
                        + ignored, 1.0, tags))
    for name in sorted(SECURITY_DETECTIVES & failures.keys()):
        out.append(make(NAME, "Security scan did not complete", True, ".",
                        f"The {name} detective produced no result ({failures[name]}); "
                        "the repository's sources were not all scanned.", 1.0,
                        (REPO, NAME, SCAN_INCOMPLETE)))
    return out, problems
