"""Security findings held against the base commit's: what a change adds, keeps and removes.

A finding's line number moves whenever a line above it is added, so findings are matched
by what survives a shift: the rule, the file, the sink's line as written (whitespace
collapsed) and, among findings alike in all three, their order in the file. A finding the
change makes confirmed where the base only had a hint is new: it is matched on its
confirmation too.

With ``fail-on-findings: new`` a confirmed finding the base already had is pre-existing:
its fact carries ``security_preexisting`` instead of ``security``, so it neither caps a
score (DESIGN §4 rule 4) nor fails the gate, and the report lists it apart. The verdict's
evidence records the tag, so ``courtroom verify`` recounts the same conclusion.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from courtroom.detectives.security.detective import finding_evidence
from courtroom.diff import Diff
from courtroom.findings import Baseline, FailOn, SecurityFinding, SecurityReport
from courtroom.models import SECURITY_TAG, Evidence

#: The tag a confirmed finding carries instead of ``security`` when the base had it too
#: and the gate fails on new findings only.
PREEXISTING_TAG = "security_preexisting"
_SPACE = re.compile(r"\s+")

#: (path, 1-based line) -> that line's text in the tree the finding was made on.
LineText = Callable[[str, int], str]


def line_reader(read: Callable[[str], str | None]) -> LineText:
    """A ``LineText`` over a tree's ``read_text``, each file read once."""
    files: dict[str, list[str]] = {}

    def line(path: str, number: int) -> str:
        if path not in files:
            files[path] = (read(path) or "").splitlines()
        lines = files[path]
        return lines[number - 1] if 0 < number <= len(lines) else ""

    return line


def fingerprints(findings: Iterable[SecurityFinding], text: LineText) -> list[str]:
    """One key per finding (same order) that survives line shifts: rule, file, confirmation,
    the sink's line as written and its rank among findings alike in all of these."""
    seen: Counter[str] = Counter()
    keys: dict[int, str] = {}
    ordered = sorted(enumerate(findings), key=lambda p: (p[1].path, p[1].line, p[1].column))
    for index, f in ordered:
        written = _SPACE.sub(" ", text(f.path, f.line)).strip()
        alike = "\x1f".join((f.rule_id, f.path, str(f.confirmed), written))
        keys[index] = hashlib.sha256(f"{alike}\x1f{seen[alike]}".encode()).hexdigest()[:32]
        seen[alike] += 1
    return [keys[i] for i in range(len(keys))]


def compare(head: SecurityReport, head_text: LineText, base: list[tuple[str, SecurityFinding]],
            *, sha: str, fail_on: FailOn, diff: Diff | None) -> SecurityReport:
    """The head's report with each finding marked new or unchanged (and in the diff or
    not), and the base's findings it no longer has; ``base`` is (fingerprint, finding)."""
    theirs = {key for key, _ in base}
    ours = fingerprints(head.findings, head_text)
    marked = [f.model_copy(update={
        "baseline": "unchanged" if key in theirs else "new",
        "in_diff": diff.changed(f.path, f.line) if diff is not None else None,
    }) for f, key in zip(head.findings, ours, strict=True)]
    mine = set(ours)
    fixed = [f for key, f in base if key not in mine]
    new = sum(f.baseline == "new" for f in marked)
    summary = Baseline(base=sha, fail_on=fail_on, new=new, unchanged=len(marked) - new,
                       fixed=fixed)
    return head.model_copy(update={"findings": marked, "baseline": summary})


def mark_findings(report: SecurityReport, diff: Diff) -> SecurityReport:
    """The report with each finding marked in or out of the change's lines (no baseline)."""
    return report.model_copy(update={"findings": [
        f.model_copy(update={"in_diff": diff.changed(f.path, f.line)})
        for f in report.findings]})


def set_aside(pool: Mapping[str, Evidence], report: SecurityReport) -> dict[str, Evidence]:
    """The pool with the facts of confirmed findings the base already had tagged
    pre-existing, when the gate fails on new findings only; otherwise as it is."""
    out = dict(pool)
    if report.baseline is None or report.baseline.fail_on != "new":
        return out
    for f in report.findings:
        fact = out.get(finding_evidence(f).id) if f.confirmed else None
        if fact is not None and f.baseline == "unchanged" and SECURITY_TAG in fact.tags:
            tags = sorted({*fact.tags, PREEXISTING_TAG} - {SECURITY_TAG})
            out[fact.id] = fact.model_copy(update={"tags": tags})
    return out


def mark_diff(pool: Mapping[str, Evidence], diff: Diff | None) -> dict[str, Evidence]:
    """Each fact marked in or out of the change's lines (unmarked without a diff)."""
    if diff is None:
        return dict(pool)
    return {key: e if e.in_diff is not None else e.model_copy(
        update={"in_diff": diff.touches(e.location)}) for key, e in pool.items()}
