"""Run every registered detective concurrently, with retries and partial results."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from courtroom.detectives.base import REGISTRY, Case, Detective
from courtroom.detectives.pdf_read import load_pdf
from courtroom.models import Evidence
from courtroom.trace import Trace

log = logging.getLogger(__name__)


def _scrub(text: str, roots: Iterable[str]) -> str:
    """Replace absolute checkout paths by repo-relative text."""
    for root in roots:
        text = text.replace(root + "/", "").replace(root, ".")
    return text


def _clean(evidence: Evidence, roots: list[str]) -> Evidence:
    """Strip any absolute checkout path a detective let slip (never show temp paths)."""
    fields = {"location": evidence.location, "content": evidence.content,
              "rationale": evidence.rationale}
    if not any(r in (v or "") for v in fields.values() for r in roots):
        return evidence
    return Evidence.make(
        detective=evidence.detective, goal=evidence.goal, found=evidence.found,
        location=_scrub(evidence.location, roots),
        rationale=_scrub(evidence.rationale, roots), confidence=evidence.confidence,
        content=_scrub(evidence.content, roots) if evidence.content is not None else None,
        tags=evidence.tags, direction=evidence.direction,
    )


def _attempt(name: str, fn: Detective, case: Case, retries: int,
             trace: Trace | None) -> tuple[str, list[Evidence], str | None, float]:
    """Run one detective with retries; return its evidence or its final error line."""
    started = time.perf_counter()
    attempts = 1 + max(0, retries)
    last = ""
    for attempt in range(1, attempts + 1):
        try:
            items = list(fn(case))
        except Exception as exc:  # the per-detective boundary: a bug in one
            # detective (or a file that trips a library) must not stop the audit.
            last = f"{type(exc).__name__}: {str(exc)[:200]}"
            log.debug("detective %s attempt %d failed", name, attempt, exc_info=True)
            if trace is not None:
                trace.event("detect", "retry" if attempt < attempts else "failed",
                            detective=name, attempt=attempt, error=type(exc).__name__)
            continue
        return name, items, None, time.perf_counter() - started
    roots = [str(case.workspace.root)]
    error = f"detective {name} failed after {attempts} attempts: {_scrub(last, roots)}"
    return name, [], error, time.perf_counter() - started


def run_detectives(
    case: Case,
    *,
    trace: Trace | None = None,
    max_workers: int | None = None,
    retries: int = 3,
    only: Iterable[str] | None = None,
) -> tuple[list[Evidence], list[str]]:
    """Run every registered detective concurrently; return (evidence, error lines).

    A detective that raises is retried ``retries`` more times, then one error line is
    recorded and the others' evidence is kept. Evidence is deduplicated by id and sorted
    by (detective, location, goal) so the same input gives the same list.
    """
    chosen = {n: fn for n, fn in sorted(REGISTRY.items()) if only is None or n in set(only)}
    workers = max_workers or min(8, max(2, (os.cpu_count() or 2) * 2), max(1, len(chosen)))
    timings: dict[str, float] = {}
    pool: dict[str, Evidence] = {}
    errors: list[str] = []
    roots = [str(case.workspace.root)]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="detective") as executor:
        futures = [executor.submit(_attempt, n, fn, case, retries, trace)
                   for n, fn in chosen.items()]
        for future in futures:
            name, items, error, seconds = future.result()
            timings[name] = round(seconds, 4)
            if error is not None:
                errors.append(error)
            for item in items:
                clean = _clean(item, roots)
                pool.setdefault(clean.id, clean)
            if trace is not None:
                trace.event("detect", "detective", detective=name, items=len(items),
                            seconds=round(seconds, 4), ok=error is None)
    if case.pdf is not None and ("report" in chosen or "diagrams" in chosen):
        # DESIGN §5: an unusable PDF does not stop the audit, but it is recorded in errors.
        pdf = load_pdf(case.pdf, case.pdf_display)
        if pdf.problem is not None:
            errors.append(f"pdf {pdf.display}: {pdf.problem}")
    ordered = sorted(pool.values(), key=lambda e: (e.detective, e.location, e.goal, e.id))
    LAST_TIMINGS.clear()
    LAST_TIMINGS.update(timings)
    return ordered, sorted(errors)


#: Seconds each detective took in the last run (read by the benchmark).
LAST_TIMINGS: dict[str, float] = {}
