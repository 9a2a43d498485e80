"""run_detectives: concurrency, retries, dedupe, ordering, errors."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from courtroom.detectives import REGISTRY, run_detectives
from courtroom.detectives.base import Case
from courtroom.detectives.common import SCAN_INCOMPLETE, make
from courtroom.detectives.repo import listing
from courtroom.models import Evidence
from courtroom.problems import error_lines
from courtroom.trace import Trace
from detectives.conftest import OpenCase
from detectives.submissions import exemplary_submission, flawed_submission, good_pdf

ARTIFACTS = {"github_repo", "pdf_report", "pdf_images"}
#: Topic tags each default-rubric criterion is judged on (docs/ARCHITECTURE.md).
DIMENSION_TAGS = {
    "git_forensic_analysis": {"git", "history"},
    "state_management_rigor": {"state"},
    "graph_orchestration": {"graph", "parallelism", "conditional"},
    "safe_tool_engineering": {"tools", "sandbox", "security"},
    "structured_output_enforcement": {"structured_output"},
    "judicial_nuance": {"personas"},
    "chief_justice_synthesis": {"synthesis"},
    "theoretical_depth": {"concepts"},
    "report_accuracy": {"claims", "paths"},
    "swarm_visual": {"diagram"},
}


def test_every_dimension_gets_located_evidence(tmp_path: Path, open_case: OpenCase) -> None:
    repo = exemplary_submission(tmp_path / "r")
    case = open_case(repo, good_pdf(tmp_path / "good.pdf"))
    trace = Trace()
    found = run_detectives(case, trace=trace)
    evidence, errors = found.evidence, found.problems
    assert errors == []
    for criterion, tags in DIMENSION_TAGS.items():
        assert any(tags & set(e.tags) for e in evidence), criterion
    root = str(case.workspace.root)
    for e in evidence:
        assert len(ARTIFACTS & set(e.tags)) == 1, e
        assert 0 <= e.confidence <= 1
        assert not e.location.startswith("/") and root not in e.model_dump_json()
        assert str(tmp_path) not in e.model_dump_json()
    assert len({e.id for e in evidence}) == len(evidence)
    keys = [(e.detective, e.location, e.goal) for e in evidence]
    assert keys == sorted(keys)
    assert any(ev["event"] == "detective" for ev in trace.events)
    json.dumps([e.model_dump() for e in evidence])


def test_runs_are_deterministic(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(flawed_submission(tmp_path / "r"))
    first = run_detectives(case).evidence
    second = run_detectives(case, max_workers=1).evidence
    assert [e.id for e in first] == [e.id for e in second]


def test_failing_detective_is_retried_then_recorded(tmp_path: Path, open_case: OpenCase,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    flaky_calls: list[int] = []

    def broken(case: Case) -> list[Evidence]:
        calls.append(1)
        raise RuntimeError(f"boom in {case.workspace.root}/x.py")

    def flaky(case: Case) -> list[Evidence]:
        flaky_calls.append(1)
        if len(flaky_calls) < 3:
            raise OSError("transient")
        return [make("flaky", "flaky fact", True, "a.py:1", "ok", 0.5, ("github_repo",)),
                make("flaky", "flaky fact", True, "a.py:1", "ok", 0.5, ("github_repo",))]

    monkeypatch.setitem(REGISTRY, "zz_broken", broken)
    monkeypatch.setitem(REGISTRY, "zz_flaky", flaky)
    case = open_case(flawed_submission(tmp_path / "r"))
    found = run_detectives(case, only=["zz_broken", "zz_flaky", "history"])
    evidence, errors = found.evidence, found.problems
    assert len(calls) == 4  # first try + 3 retries
    (line,) = error_lines(errors)
    assert line.startswith("detective zz_broken failed after 4")
    assert errors[0].source == "zz_broken" and str(case.workspace.root) not in line
    assert len([e for e in evidence if e.detective == "flaky"]) == 1  # deduplicated by id
    assert any(e.detective == "history" for e in evidence)


def test_absolute_paths_are_scrubbed(tmp_path: Path, open_case: OpenCase,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky(case: Case) -> list[Evidence]:
        root = case.workspace.root
        return [make("leaky", "leak", True, f"{root}/a.py:3", f"read {root}/a.py", 0.5,
                     ("github_repo",), content=str(root))]

    monkeypatch.setitem(REGISTRY, "zz_leaky", leaky)
    case = open_case(flawed_submission(tmp_path / "r"))
    evidence = run_detectives(case, only=["zz_leaky"]).evidence
    assert evidence[0].location == "a.py:3" and evidence[0].rationale == "read a.py"
    assert evidence[0].content == "."


def test_unusable_pdf_is_recorded_in_errors(tmp_path: Path, open_case: OpenCase) -> None:
    bad = tmp_path / "report.pdf"
    bad.write_text("not a pdf")
    found = run_detectives(open_case(flawed_submission(tmp_path / "r"), bad))
    evidence, errors = found.evidence, found.problems
    assert error_lines(errors) == ["pdf report.pdf: the file is not a PDF (no %PDF- header)"]
    assert errors[0].location == "report.pdf"
    assert any(e.detective == "report" and not e.found for e in evidence)
    errors = run_detectives(open_case(flawed_submission(tmp_path / "s"))).problems
    assert errors == []


def test_a_detective_past_its_deadline_is_recorded_and_left(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def stuck(case: Case) -> list[Evidence]:
        release.wait(30)
        return [make("stuck", "late fact", True, "a.py:1", "late", 0.5, ("github_repo",))]

    monkeypatch.setitem(REGISTRY, "zz_stuck", stuck)
    case = open_case(flawed_submission(tmp_path / "r"))
    started = time.monotonic()
    try:
        found = run_detectives(case, only=["zz_stuck", "history"], deadline=1.0)
        evidence, errors = found.evidence, found.problems
    finally:
        release.set()
    assert time.monotonic() - started < 5
    assert error_lines(errors) == ["detective zz_stuck exceeded its 1 s deadline"]
    assert any(e.detective == "history" for e in evidence)
    assert not any(e.detective == "stuck" for e in evidence)


def test_a_detective_past_its_deadline_starts_no_more_attempts(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    gave_up = threading.Event()

    def slow_failure(case: Case) -> list[Evidence]:
        calls.append(time.monotonic())
        time.sleep(1.5)
        gave_up.set()
        raise MemoryError

    monkeypatch.setitem(REGISTRY, "security", slow_failure)
    found = run_detectives(open_case(flawed_submission(tmp_path / "r")),
                           only=["security"], retries=3, deadline=1.0)
    evidence, errors = found.evidence, found.problems
    assert error_lines(errors) == ["detective security exceeded its 1 s deadline"]
    assert [e.goal for e in evidence if SCAN_INCOMPLETE in e.tags] == [
        "Security scan did not complete"]
    assert gave_up.wait(5)
    time.sleep(0.5)  # long enough for a second attempt to have begun, were one allowed
    assert len(calls) == 1


def test_a_failed_security_scan_is_a_scan_incomplete_fact(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(case: Case) -> list[Evidence]:
        raise MemoryError

    monkeypatch.setitem(REGISTRY, "security", broken)
    found = run_detectives(open_case(flawed_submission(tmp_path / "r")),
                           only=["security", "history"])
    evidence, errors = found.evidence, found.problems
    incomplete = [e for e in evidence if SCAN_INCOMPLETE in e.tags]
    assert [e.goal for e in incomplete] == ["Security scan did not complete"]
    assert "github_repo" in incomplete[0].tags
    assert error_lines(errors) == ["detective security failed after 4 attempts: MemoryError: "]


def test_listing_limits_become_errors_and_a_fact(
        tmp_path: Path, open_case: OpenCase, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_OTHER_FILES", 1)
    repo = flawed_submission(tmp_path / "r")
    for i in range(3):
        (repo / f"pad{i}.txt").touch()
    case = open_case(repo)
    found = run_detectives(case, only=["history"])
    evidence, errors = found.evidence, found.problems
    assert [p.kind for p in errors] == ["workspace"]
    assert "other file(s) beyond the 1-file cap" in errors[0].message
    facts = [e for e in evidence if e.detective == "coverage"]
    assert len(facts) == 1 and SCAN_INCOMPLETE not in facts[0].tags  # sources all listed
