"""The change under review as evidence: one located fact per hunk, shown to judges first."""

from __future__ import annotations

from pathlib import Path

from courtroom.detectives.base import Case
from courtroom.detectives.docket import MAX_ITEMS, evidence_for
from courtroom.detectives.repo import changes
from courtroom.detectives.repo.workspace import Workspace
from courtroom.diff import Diff, Hunk
from courtroom.models import Evidence
from courtroom.rubric import Criterion

SHA = "a" * 40


def _diff(*hunks: Hunk) -> Diff:
    return Diff(base=SHA, head="b" * 40, hunks=list(hunks))


def _hunk(path: str, start: int, added: int = 1, removed: int = 0) -> Hunk:
    return Hunk(path=path, start=start, end=start + max(added, 1) - 1, added=added,
                removed=removed, base_start=start, text="x = 1" if added else "")


def _case(tmp_path: Path, diff: Diff | None, ignore: tuple[str, ...] = ()) -> Case:
    return Case(workspace=Workspace(tmp_path, "repo", ignore=ignore), diff=diff)


def _dimension(artifact: str = "github_repo", tags: list[str] | None = None) -> Criterion:
    return Criterion(id="input_validation", name="Input validation", target_artifact=artifact,
                     forensic_instruction="Check the handlers.", evidence_tags=tags or ["tools"])


def test_each_hunk_is_a_located_fact_tagged_diff(tmp_path: Path) -> None:
    facts = changes.changes(_case(tmp_path, _diff(_hunk("app.py", 4, 2), _hunk("app.py", 9, 0, 3))))
    assert [(f.location, f.in_diff, f.content) for f in facts] == [
        ("app.py:4-5", True, "x = 1"), ("app.py:9", False, None)]
    assert all(changes.DIFF_TAG in f.tags and f.direction == "context" for f in facts)
    assert "3 line(s) removed" in facts[1].rationale


def test_no_base_no_facts_and_ignored_paths_stay_unread(tmp_path: Path) -> None:
    assert changes.changes(_case(tmp_path, None)) == []
    facts = changes.changes(_case(tmp_path, _diff(_hunk("vendor/x.py", 1), _hunk("a.py", 1)),
                                  ignore=("vendor/**",)))
    assert [f.location for f in facts] == ["a.py:1"]


def test_a_large_change_is_summed_up_past_the_bound(tmp_path: Path) -> None:
    many = [_hunk(f"m{i:03}.py", 1) for i in range(changes.MAX_HUNKS + 5)]
    facts = changes.changes(_case(tmp_path, _diff(*many)))
    assert len(facts) == changes.MAX_HUNKS + 1
    assert facts[-1].location == "." and "5 more hunks in 5 files" in facts[-1].rationale


def _fact(location: str, tags: tuple[str, ...]) -> Evidence:
    return Evidence.make(detective="tools", goal=f"fact at {location}", found=True,
                         location=location, rationale="seen", confidence=0.9, tags=tags)


def test_the_docket_shows_hunks_first_those_in_the_criterions_files_ahead(tmp_path: Path) -> None:
    hunks = changes.changes(_case(tmp_path, _diff(*[_hunk(f"other{i}.py", 1) for i in range(12)],
                                                  _hunk("app.py", 7))))
    own = [_fact(f"app.py:{n}", ("github_repo", "tools")) for n in range(1, 40)]
    shown = evidence_for(_dimension(), [*own, *hunks])
    assert len(shown) == MAX_ITEMS
    first = shown[:changes.MAX_FIRST]
    assert all(changes.DIFF_TAG in e.tags for e in first)
    assert first[0].location == "app.py:7"
    assert all(changes.DIFF_TAG not in e.tags for e in shown[changes.MAX_FIRST:])


def test_a_criterion_about_the_pdf_is_not_shown_the_hunks(tmp_path: Path) -> None:
    hunks = changes.changes(_case(tmp_path, _diff(_hunk("app.py", 1))))
    pdf_fact = _fact("pdf:page 1", ("pdf_report", "concepts"))
    assert evidence_for(_dimension("pdf_report", ["concepts"]), [*hunks, pdf_fact]) == [pdf_fact]
