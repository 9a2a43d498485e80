"""Findings held against the base's: fingerprints that survive line shifts, and the gate."""

from __future__ import annotations

from courtroom.baseline import (
    PREEXISTING_TAG,
    LineText,
    compare,
    fingerprints,
    mark_diff,
    set_aside,
)
from courtroom.detectives.security.detective import finding_evidence
from courtroom.diff import Diff, Hunk
from courtroom.findings import SecurityFinding, SecurityReport
from courtroom.models import SECURITY_TAG, Evidence

SINK = "    return subprocess.check_output(cmd, shell=True)"


def _finding(line: int, *, confirmed: bool = True, rule: str = "courtroom/shell-injection",
             path: str = "app.py") -> SecurityFinding:
    return SecurityFinding(rule_id=rule, name="shell injection", cwe=78, severity="HIGH",
                           precision="high", path=path, line=line, column=11,
                           message="subprocess.check_output(cmd, shell=True)",
                           confirmed=confirmed, in_test=False, reason="request data reaches it")


def _lines(text: dict[int, str]) -> LineText:
    return lambda path, number: text.get(number, "")


def test_a_line_shift_keeps_the_fingerprint_and_other_text_changes_it() -> None:
    [before] = fingerprints([_finding(10)], _lines({10: SINK}))
    [after] = fingerprints([_finding(14)], _lines({14: "\t" + SINK.strip() + "  "}))
    [other] = fingerprints([_finding(10)], _lines({10: "    return eval(expr)"}))
    assert before == after != other


def test_alike_findings_are_told_apart_by_their_rank_in_the_file() -> None:
    keys = fingerprints([_finding(20), _finding(10)], _lines({10: SINK, 20: SINK}))
    assert len(set(keys)) == 2
    # The same two findings pushed down by a new line keep their keys, in order.
    assert fingerprints([_finding(11), _finding(21)], _lines({11: SINK, 21: SINK})) == keys[::-1]


def test_a_hint_the_change_makes_confirmed_is_new() -> None:
    text = _lines({10: SINK})
    [hint] = fingerprints([_finding(10, confirmed=False)], text)
    [confirmed] = fingerprints([_finding(10)], text)
    assert hint != confirmed


def _diff() -> Diff:
    return Diff(base="a" * 40, head="b" * 40, hunks=[
        Hunk(path="app.py", start=20, end=21, added=2, removed=0, base_start=19)])


def test_compare_marks_new_unchanged_in_diff_and_fixed() -> None:
    old, gone = _finding(10), _finding(30, rule="courtroom/code-injection")
    base_text = _lines({10: SINK, 30: "    return eval(expr)"})
    base = list(zip(fingerprints([old, gone], base_text), [old, gone], strict=True))
    head = SecurityReport(findings=[_finding(12), _finding(20)], confirmed=2)
    held = compare(head, _lines({12: SINK, 20: "    os.system(cmd)"}), base, sha="a" * 40,
                   fail_on="new", diff=_diff())
    assert [(f.line, f.baseline, f.in_diff) for f in held.findings] == [
        (12, "unchanged", False), (20, "new", True)]
    assert held.baseline is not None
    assert (held.baseline.new, held.baseline.unchanged) == (1, 1)
    assert held.baseline.fixed == [gone]


def _pool(*findings: SecurityFinding) -> dict[str, Evidence]:
    return {e.id: e for e in map(finding_evidence, findings)}


def test_new_mode_sets_pre_existing_confirmed_findings_aside_and_all_mode_does_not() -> None:
    report = compare(SecurityReport(findings=[_finding(12), _finding(20)]),
                     _lines({12: SINK, 20: "x"}),
                     list(zip(fingerprints([_finding(10)], _lines({10: SINK})), [_finding(10)],
                              strict=True)), sha="a" * 40, fail_on="new", diff=None)
    pool = set_aside(_pool(_finding(12), _finding(20)), report)
    tags = {e.location: e.tags for e in pool.values()}
    assert SECURITY_TAG not in tags["app.py:12"] and PREEXISTING_TAG in tags["app.py:12"]
    assert SECURITY_TAG in tags["app.py:20"]
    assert report.baseline is not None
    loose = report.model_copy(update={"baseline": report.baseline.model_copy(
        update={"fail_on": "all"})})
    assert set_aside(_pool(_finding(12), _finding(20)), loose) == _pool(_finding(12), _finding(20))


def test_mark_diff_marks_facts_only_with_a_diff() -> None:
    pool = _pool(_finding(20), _finding(5))
    assert all(e.in_diff is None for e in mark_diff(pool, None).values())
    marked = {e.location: e.in_diff for e in mark_diff(pool, _diff()).values()}
    assert marked == {"app.py:20": True, "app.py:5": False}
