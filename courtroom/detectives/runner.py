"""Run every registered detective concurrently, with retries and partial results."""

from __future__ import annotations

import logging
import math
import os
import queue
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from courtroom.detectives.base import REGISTRY, Case, Detected, Detective
from courtroom.detectives.coverage import coverage_facts
from courtroom.detectives.parsing import release_trees
from courtroom.detectives.report.pdf_read import load_pdf
from courtroom.findings import SecurityReport
from courtroom.models import Evidence
from courtroom.problems import Problem, error_line
from courtroom.trace import Trace

log = logging.getLogger(__name__)

#: Seconds a detective may run (all its attempts together) before it is recorded as failed.
DETECTIVE_SECONDS = 300.0

_Outcome = tuple[str, Detected, str | None, float]


@dataclass(frozen=True)
class Detection:
    """What the detectives found together: facts, problems, and the security scan's report
    (None when the security detective did not finish or found nothing to scan)."""

    evidence: list[Evidence]
    problems: list[Problem]
    security: SecurityReport | None = None


def _scrub(text: str, roots: Iterable[str]) -> str:
    """Replace absolute checkout paths by repo-relative text."""
    for root in roots:
        text = text.replace(root + "/", "").replace(root, ".")
    return text


def _clean(evidence: Evidence, roots: list[str]) -> Evidence:
    """Strip any absolute checkout path a detective let slip (never show temp paths)."""
    fields = {"location": evidence.location, "content": evidence.content,
              "rationale": evidence.rationale, "fix": evidence.fix}
    if not any(r in (v or "") for v in fields.values() for r in roots):
        return evidence
    return Evidence.make(
        detective=evidence.detective, goal=evidence.goal, found=evidence.found,
        location=_scrub(evidence.location, roots),
        rationale=_scrub(evidence.rationale, roots), confidence=evidence.confidence,
        content=_scrub(evidence.content, roots) if evidence.content is not None else None,
        tags=evidence.tags, direction=evidence.direction,
        fix=_scrub(evidence.fix, roots) if evidence.fix is not None else None,
    )


def _attempt(name: str, fn: Detective, case: Case, retries: int,
             trace: Trace | None, until: float = math.inf) -> _Outcome:
    """Run one detective with retries; return its evidence or what its last try raised.

    No attempt starts after ``until`` (monotonic): a detective already recorded as past
    its deadline is abandoned, and must not go on spending the audit's CPU on retries.
    """
    started = time.perf_counter()
    attempts = 1 + max(0, retries)
    last = ""
    for attempt in range(1, attempts + 1):
        if attempt > 1 and time.monotonic() > until:
            attempts = attempt - 1
            break
        try:
            result = fn(case)
        except Exception as exc:  # the per-detective boundary: a bug in one
            # detective (or a file that trips a library) must not stop the audit.
            last = f"{type(exc).__name__}: {str(exc)[:200]}"
            log.debug("detective %s attempt %d failed", name, attempt, exc_info=True)
            if trace is not None:
                trace.event("detect", "retry" if attempt < attempts else "failed",
                            detective=name, attempt=attempt, error=type(exc).__name__)
            continue
        found = result if isinstance(result, Detected) else Detected(list(result))
        return name, found, None, time.perf_counter() - started
    roots = [str(case.workspace.root)]
    error = f"failed after {attempts} attempts: {_scrub(last, roots)}"
    return name, Detected([]), error, time.perf_counter() - started


@dataclass
class _Run:
    """Detectives running on their own daemon threads, each against its own deadline."""

    case: Case
    retries: int
    trace: Trace | None
    deadline: float
    done: queue.Queue[_Outcome] = field(default_factory=queue.Queue)
    started: dict[str, float] = field(default_factory=dict)
    #: Whether the parsed trees were released (see ``_schedule``).
    released: bool = False

    def start(self, name: str, fn: Detective) -> None:
        # Daemon threads: a detective stuck past its deadline cannot hold the process open.
        self.started[name] = time.monotonic()
        until = self.started[name] + self.deadline
        threading.Thread(target=lambda: self.done.put(
            _attempt(name, fn, self.case, self.retries, self.trace, until)),
            name=f"detective-{name}", daemon=True).start()

    def overdue(self) -> list[str]:
        now = time.monotonic()
        return [n for n, t in self.started.items() if now - t > self.deadline]


def _schedule(chosen: dict[str, Detective], run: _Run, workers: int) -> Iterator[_Outcome]:
    """Yield each detective's outcome; one past its deadline yields an error and is left."""
    pending = list(chosen.items())
    while pending or run.started:
        while pending and len(run.started) < workers:
            run.start(*pending.pop(0))
        try:
            outcome = run.done.get(timeout=0.05)
        except queue.Empty:
            outcome = None
        if outcome is not None and outcome[0] in run.started:
            del run.started[outcome[0]]
            yield outcome
        for name in run.overdue():
            del run.started[name]
            yield name, Detected([]), f"exceeded its {run.deadline:g} s deadline", \
                run.deadline
        if not run.released and not pending and len(run.started) <= 1:
            # The one detective left (the security scan, on a large repository) reads
            # the trees again through a bounded cache: holding every file's tree while
            # its analysis grows would cost most of the audit's memory. (Asked again
            # until the index exists: the last detective may be the one to build it.)
            run.released = release_trees(run.case.workspace)


def run_detectives(
    case: Case,
    *,
    trace: Trace | None = None,
    max_workers: int | None = None,
    retries: int = 3,
    only: Iterable[str] | None = None,
    deadline: float = DETECTIVE_SECONDS,
) -> Detection:
    """Run every registered detective concurrently; return what they found together.

    A detective that raises is retried ``retries`` more times, then one problem is
    recorded and the others' evidence is kept; one still running ``deadline`` seconds after
    it started is recorded the same way and abandoned. Facts about what the audit could
    not cover (listing limits, a failed security scan) are added. Evidence is deduplicated
    by id and sorted by (detective, location, goal) so the same input gives the same list.
    """
    chosen = {n: fn for n, fn in sorted(REGISTRY.items()) if only is None or n in set(only)}
    workers = max_workers or min(8, max(2, (os.cpu_count() or 2) * 2), max(1, len(chosen)))
    pool: dict[str, Evidence] = {}
    failures: dict[str, str] = {}
    roots = [str(case.workspace.root)]
    security: SecurityReport | None = None
    for name, found, error, seconds in _schedule(chosen, _Run(case, retries, trace, deadline),
                                                 workers):
        if error is not None:
            failures[name] = error
        security = found.security or security
        items = found.evidence
        for item in items:
            clean = _clean(item, roots)
            pool.setdefault(clean.id, clean)
        if trace is not None:
            trace.event("detect", "detective", detective=name, items=len(items),
                        seconds=round(seconds, 4), ok=error is None)
    facts, problems = coverage_facts(case, failures)
    for fact in facts:
        pool.setdefault(fact.id, fact)
    problems.extend(Problem(kind="detective_error", source=name, message=error)
                    for name, error in failures.items())
    if case.pdf is not None and ("report" in chosen or "diagrams" in chosen):
        # DESIGN §5: an unusable PDF does not stop the audit, but it is recorded.
        pdf = load_pdf(case.pdf, case.pdf_display)
        if pdf.problem is not None:
            problems.append(Problem(kind="pdf", location=pdf.display, message=pdf.problem))
        problems.extend(Problem(kind="pdf", location=pdf.display, message=note)
                        for note in pdf.limits)
    ordered = sorted(pool.values(), key=lambda e: (e.detective, e.location, e.goal, e.id))
    return Detection(ordered, sorted(problems, key=error_line), security)
