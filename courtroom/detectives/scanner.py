"""Bandit as a library: run its test set over the bytes of files we choose.

Bandit's manager reads files from disk and discovers them itself; we instead hand each
file's bytes (already read safely by the Workspace) to its node visitor, one file at a
time, so a file that breaks bandit is skipped and the time spent per file is measured.
"""

from __future__ import annotations

import io
import logging
import threading
import time
import warnings
from dataclasses import dataclass, field

with warnings.catch_warnings():
    # stevedore (bandit's plugin loader) warns about its own deprecated argument on import.
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.simplefilter("ignore", UserWarning)
    from bandit.core import config as b_config
    from bandit.core import meta_ast, metrics, node_visitor, test_set

#: Files larger than this are not given to bandit (scan time grows with size).
MAX_SCAN_BYTES = 400_000
#: Total seconds the scanner may spend; files left over are reported as not scanned.
SCAN_BUDGET = 30.0
#: Bandit checks that are noise for an audit (imports, asserts, partial paths).
IGNORED = frozenset({"B101", "B403", "B404", "B603", "B607", "B110", "B112", "B311", "B405",
                     "B408", "B410"})

_lock = threading.Lock()
_tests: test_set.BanditTestSet | None = None


@dataclass(frozen=True)
class Finding:
    """One bandit issue, reduced to plain data."""

    path: str
    line: int
    col: int
    test_id: str
    test_name: str
    severity: str
    confidence: str
    cwe: int
    text: str


@dataclass
class ScanResult:
    """Findings of one scan plus what was skipped and how long it took."""

    findings: list[Finding] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    scanned: int = 0
    seconds: float = 0.0
    slowest: tuple[str, float] = ("", 0.0)


def _test_set() -> test_set.BanditTestSet:
    """Bandit's plugin set, loaded once (plugin discovery is the slow part)."""
    global _tests
    with _lock:
        if _tests is None:
            logging.getLogger("bandit").setLevel(logging.CRITICAL)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _tests = test_set.BanditTestSet(b_config.BanditConfig(), {})
        return _tests


def scan_one(path: str, data: bytes) -> list[Finding]:
    """Bandit findings for one file's bytes; raises SyntaxError/ValueError on bad input."""
    visitor = node_visitor.BanditNodeVisitor(
        path, io.BytesIO(data), meta_ast.BanditMetaAst(), _test_set(), False, {},
        metrics.Metrics(),
    )
    visitor.process(data)
    out = []
    for issue in visitor.tester.results:
        if issue.test_id in IGNORED:
            continue
        cwe = getattr(getattr(issue, "cwe", None), "id", 0) or 0
        out.append(Finding(path, int(issue.lineno), int(issue.col_offset or 0), issue.test_id,
                           str(issue.test), str(issue.severity), str(issue.confidence),
                           int(cwe), str(issue.text)))
    return out


def scan(files: list[tuple[str, bytes]], *, budget: float = SCAN_BUDGET) -> ScanResult:
    """Scan files in order within a time budget; a file that breaks bandit is skipped."""
    result = ScanResult()
    start = time.perf_counter()
    for path, data in files:
        if time.perf_counter() - start > budget:
            result.skipped.append((path, "scan time budget exhausted"))
            continue
        if len(data) > MAX_SCAN_BYTES:
            result.skipped.append((path, f"larger than {MAX_SCAN_BYTES} bytes"))
            continue
        began = time.perf_counter()
        try:
            result.findings.extend(scan_one(path, data))
        except (SyntaxError, ValueError, RecursionError, UnicodeDecodeError, MemoryError) as exc:
            result.skipped.append((path, f"bandit could not parse it ({type(exc).__name__})"))
            continue
        result.scanned += 1
        took = time.perf_counter() - began
        if took > result.slowest[1]:
            result.slowest = (path, took)
    result.seconds = time.perf_counter() - start
    return result
