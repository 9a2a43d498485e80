"""The cohort summary: one small record per submission that keeps the rubric's order
through its file, and tables that read weakest criterion first, each row on one line."""

from __future__ import annotations

import csv
from pathlib import Path

from verdict_builders import make_verdict

from courtroom.cohort.summary import (
    RECORD_FILE,
    SubmissionResult,
    cohort_csv,
    cohort_markdown,
)
from courtroom.models import CourtRecord

ORDER = {"zeta": "Zeta first in the rubric", "alpha": "Alpha second"}


def result(index: int, name: str, scores: dict[str, int], **changes: object) -> SubmissionResult:
    fields: dict[str, object] = {"index": index, "name": name, "repo": f"https://x.test/{name}",
                                 "status": "ok", "overall_score": 3.0, "conclusion": "neutral",
                                 "scores": scores, "criteria": dict(ORDER)}
    return SubmissionResult(**{**fields, **changes})  # type: ignore[arg-type]


def test_a_record_keeps_the_rubric_order_through_its_file(tmp_path: Path) -> None:
    saved = result(0, "ana", {"zeta": 2, "alpha": 5})
    saved.save(tmp_path)
    loaded = SubmissionResult.load(tmp_path)
    assert loaded == saved and list(loaded.criteria) == ["zeta", "alpha"]
    (tmp_path / RECORD_FILE).write_text('{"index": 0}', encoding="utf-8")
    assert SubmissionResult.load(tmp_path) is None
    assert SubmissionResult.load(tmp_path / "absent") is None


def test_a_verdict_condenses_to_its_row() -> None:
    verdict = make_verdict(errors=["one", "two"])
    heard = verdict.criteria[0].model_copy(update={"court": CourtRecord(path="mistrial")})
    verdict = verdict.model_copy(update={"criteria": [heard, *verdict.criteria[1:]]})
    row = SubmissionResult.from_verdict(3, "ana", "repo", verdict)
    assert (row.mistrials, row.errors, row.commit) == (1, 2, verdict.target.commit)
    assert list(row.scores) == [c.criterion_id for c in verdict.criteria]


def test_rows_follow_the_manifest_and_columns_the_rubric() -> None:
    rows = [result(1, "bo", {"zeta": 4, "alpha": 1}),
            result(0, "ana", {"zeta": 2}, overall_score=None, status="failed",
                   conclusion=None, failure="clone failed")]
    table = list(csv.reader(cohort_csv(rows).splitlines()))
    assert table[0][6:8] == ["zeta", "alpha"]
    assert [r[0] for r in table[1:]] == ["ana", "bo"]
    assert table[1][4] == "" and table[1][-1] == "clone failed"


def test_the_markdown_puts_the_weakest_criterion_first_and_keeps_failures_on_one_line() -> None:
    rows = [result(0, "ana", {"zeta": 5, "alpha": 1}), result(1, "bo", {"zeta": 4, "alpha": 2}),
            result(2, "cy", {}, status="failed", overall_score=None, conclusion=None,
                   failure="git said: fatal | not found\nfatal: exit 128")]
    text = cohort_markdown(rows)
    weakest = text.index("| Alpha second | 1.50 | 2 | 0 |")
    assert weakest < text.index("| Zeta first in the rubric | 4.50 | 0 | 2 |")
    assert "| [ana](ana/report.md) | 3.00 | neutral | 5 | 1 | 0 | 0 |" in text
    assert "| cy | — | **failed** | — | — | 0 | 0 |" in text
    assert "- **cy** (`https://x.test/cy`): git said: fatal \\| not found fatal: exit 128" in text


def test_text_cells_cannot_become_spreadsheet_formulas() -> None:
    failed = result(0, "ana", {}, status="failed", overall_score=None, conclusion=None,
                    repo="=HYPERLINK(\"http://x.test\")", failure="-1+cmd|' /C calc'!A0")
    row = list(csv.reader(cohort_csv([failed]).splitlines()))[1]
    assert row[1] == "'=HYPERLINK(\"http://x.test\")"
    assert row[-1] == "'-1+cmd|' /C calc'!A0"
    assert row[0] == "ana"  # ordinary text is left alone


def test_failures_in_the_markdown_mention_no_one_and_link_nowhere() -> None:
    failed = result(0, "ana", {}, status="failed", overall_score=None, conclusion=None,
                    failure="clone failed, ping @octocat at [here](https://evil.test) | x")
    text = cohort_markdown([failed])
    line = next(ln for ln in text.splitlines() if "clone failed" in ln)
    assert "@octocat" not in line and "](https://" not in line and " | x" not in line
