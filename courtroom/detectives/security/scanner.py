"""Bandit as a library: run its test set over the bytes of files we choose.

Bandit's manager reads files from disk and discovers them itself; we instead hand each
file's bytes (already read safely by the Workspace) to its node visitor, one file at a
time, so a file that breaks bandit (newer syntax than this interpreter's) is listed, and
the time spent per file is measured. Every file is scanned: no time budget.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from courtroom.child import child_env, finish, kill_group, python_module, spawn

with warnings.catch_warnings():
    # stevedore (bandit's plugin loader) warns about its own deprecated argument on import.
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.simplefilter("ignore", UserWarning)
    from bandit.core import config as b_config
    from bandit.core import meta_ast, metrics, node_visitor, test_set

#: Repositories with more source than this are scanned by bandit in a second process.
PARALLEL_BYTES = 300_000
#: The child's deadline: the security detective's own (past it the detective has failed
#: and the gate fails closed anyway); and the most its JSON answer may take.
CHILD_SECONDS = 300.0
MAX_ANSWER_BYTES = 256 << 20
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


def scan_one(path: str, data: bytes, ignored: frozenset[str] = IGNORED) -> list[Finding]:
    """Bandit findings for one file's bytes; raises SyntaxError/ValueError on bad input."""
    visitor = node_visitor.BanditNodeVisitor(
        path, io.BytesIO(data), meta_ast.BanditMetaAst(), _test_set(), False, {},
        metrics.Metrics(),
    )
    visitor.process(data)
    out = []
    for issue in visitor.tester.results:
        if issue.test_id in ignored:
            continue
        cwe = getattr(getattr(issue, "cwe", None), "id", 0) or 0
        out.append(Finding(path, int(issue.lineno), int(issue.col_offset or 0), issue.test_id,
                           str(issue.test), str(issue.severity), str(issue.confidence),
                           int(cwe), str(issue.text)))
    return out


def scan_all(files: list[tuple[str, bytes]]) -> ScanResult:
    """Scan every file; a file bandit cannot parse is listed with the reason, never dropped."""
    result = ScanResult()
    start = time.perf_counter()
    for path, data in files:
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


def start_scan(files: list[tuple[str, bytes]]) -> Callable[[], ScanResult]:
    """Begin scanning every file; call the result to wait for the findings.

    A large repository is scanned by a child interpreter on the second core while the
    caller runs the taint engine; a small one in this process when collected (the child's
    start-up would cost more than it saves). The choice depends on size, never on time,
    and a child that fails is replaced by an in-process scan: nothing is left unscanned.
    """
    if sum(len(d) for _, d in files) < PARALLEL_BYTES:
        return lambda: scan_all(files)
    try:
        # Isolated, outside the tree, without secrets: the tree may plant a package named
        # like ours (or bandit's) and would otherwise be imported instead.
        child = spawn(python_module("courtroom.detectives.security.scanner"), child_env(),
                      stdin=subprocess.PIPE)
    except OSError:
        return lambda: scan_all(files)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bandit")
    pending = pool.submit(_exchange, child, files)
    pool.shutdown(wait=False)  # the thread ends with the child's output

    def collect() -> ScanResult:
        try:
            out = pending.result()
            if child.returncode == 0:
                return _decode(json.loads(out))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return scan_all(files)

    return collect


def _exchange(child: subprocess.Popen[bytes], files: list[tuple[str, bytes]]) -> bytes:
    """Stream the files to the child one JSON line each (no second copy of the repository
    in memory), then read its result under a deadline and a byte cap. A child stopped by
    either is killed with its group and its answer is empty (the caller scans in-process)."""
    assert child.stdin is not None
    deadline = time.monotonic() + CHILD_SECONDS
    try:
        for path, data in files:
            line = json.dumps([path, base64.b64encode(data).decode("ascii")]) + "\n"
            child.stdin.write(line.encode("utf-8"))
        child.stdin.close()
    except OSError:
        kill_group(child)
        raise
    done = finish(child, deadline, MAX_ANSWER_BYTES)
    return b"" if done.stopped else done.output


def _decode(data: dict[str, Any]) -> ScanResult:
    """A ScanResult from the child's JSON."""
    return ScanResult(findings=[Finding(**f) for f in data["findings"]],
                      skipped=[(p, why) for p, why in data["skipped"]],
                      scanned=int(data["scanned"]), seconds=float(data["seconds"]),
                      slowest=(str(data["slowest"][0]), float(data["slowest"][1])))


def _child() -> None:
    """The child side of start_scan: files in as JSON lines on stdin, the result out as JSON."""
    files = [(path, base64.b64decode(data)) for path, data in map(json.loads, sys.stdin)]
    json.dump(asdict(scan_all(files)), sys.stdout)


def scan(files: list[tuple[str, bytes]]) -> ScanResult:
    """Scan every file and wait for the result."""
    return start_scan(files)()


if __name__ == "__main__":
    _child()
