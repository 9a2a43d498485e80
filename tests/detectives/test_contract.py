"""The evidence contract: every tag a fact carries is one its detective declares; a rubric
runs the general detectives and its profile's; an evidence tag nothing produces stops the
rubric at load with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import make_repo

from courtroom import diff
from courtroom.detectives import Case, open_workspace, run_detectives
from courtroom.detectives.base import AUTOMATON_AUDITOR, CONTRACT, PROFILES, REGISTRY
from courtroom.detectives.contract import (
    OWN_FACTS,
    check_rubric,
    detectives_for,
    load_checked,
    with_profile,
)
from courtroom.detectives.remand import investigate
from courtroom.errors import RubricError
from courtroom.models import EvidenceRequest
from courtroom.resources import named_rubric
from courtroom.rubric import Criterion, default_rubric_path, load_rubric, parse_rubric
from detectives.submissions import buzzword_pdf, exemplary_submission, flawed_submission, good_pdf

ARTIFACTS = {"github_repo", "pdf_report", "pdf_images"}


def rubric(*criteria: tuple[str, list[str] | None], profile: str | None = None) -> str:
    meta: dict[str, object] = {"rubric_name": "PR gate"}
    if profile:
        meta["profile"] = profile
    return json.dumps({"rubric_metadata": meta, "dimensions": [
        {"id": ident, "name": ident.replace("_", " "), "target_artifact": "github_repo",
         "forensic_instruction": "Look.", "evidence_tags": tags} for ident, tags in criteria]})


#: One criterion per kind of declarative check, so that every check detective speaks.
CHECKS = [
    {"kind": "query", "meaning": "a call", "query": "(call) @call"},
    {"kind": "path", "meaning": "a module", "glob": "*.py"},
    {"kind": "text", "meaning": "an import", "glob": "*.py", "contains": ["import"]},
    {"kind": "count", "meaning": "tests", "measure": "test_functions", "at_least": 1},
    {"kind": "git", "meaning": "changed", "glob": "*.py", "at_least": 1},
    {"kind": "security", "meaning": "injection", "cwe": [78]},
]


def checked(kind: str, check: dict[str, object]) -> Criterion:
    return Criterion.model_validate({"id": f"own_{kind}", "name": kind,
                                     "target_artifact": "github_repo",
                                     "forensic_instruction": "Look.", "checks": [check]})


def test_every_tag_a_fact_carries_is_declared_by_its_detective(tmp_path: Path) -> None:
    criteria = (*load_rubric(default_rubric_path()).criteria,
            *(checked(str(c["kind"]), c) for c in CHECKS))
    cases = [(exemplary_submission(tmp_path / "good"), good_pdf(tmp_path / "good.pdf")),
             (flawed_submission(tmp_path / "bad"), buzzword_pdf(tmp_path / "bad.pdf")),
             (make_repo(tmp_path / "bare", files={"README.md": "hi"}), tmp_path / "none.pdf")]
    declared = {**CONTRACT, **OWN_FACTS}
    seen: set[str] = set()
    for repo, pdf in cases:
        with open_workspace(str(repo), timeout=30) as ws:
            # The good submission is audited as a change over its previous commit (a diff).
            change = diff.load(ws.root, "HEAD~1", ws.commit) if repo.name == "good" else None
            case = Case(workspace=ws, pdf=pdf, pdf_display=pdf.name, criteria=criteria,
                        diff=change)
            facts = run_detectives(case).evidence
            facts += investigate(case, [EvidenceRequest(path="src/nowhere.py", question="?")])
        for fact in facts:
            kinds = declared[fact.detective]
            # A check's fact also names its criterion, whose checks declare that tag.
            own = {t for t in fact.tags if t.startswith("criterion:own_")}
            undeclared = set(fact.tags) - ARTIFACTS - own - {k.tag for k in kinds}
            assert not undeclared, (fact.detective, fact.goal, undeclared)
            # The artifact a fact is tagged with is the one its detective declares (a check's
            # fact is routed by its criterion instead).
            assert own or {k.artifact for k in kinds} & set(fact.tags), (fact.detective,
                                                                          fact.tags)
            seen.add(fact.detective)
    assert set(REGISTRY) <= seen  # every registered detective was exercised


def test_every_detective_declares_what_it_produces_and_its_profile() -> None:
    assert set(CONTRACT) == set(REGISTRY) == set(PROFILES)
    for name, kinds in CONTRACT.items():
        assert kinds, name
        assert all(k.artifact in ARTIFACTS and k.meaning for k in kinds), name
    general = detectives_for(None)
    assert {"history", "security", "source", "report"} <= set(general)
    assert not {"graph", "state", "personas", "synthesis", "diagrams"} & set(general)
    assert set(detectives_for(AUTOMATON_AUDITOR)) == set(REGISTRY)


def test_a_tag_no_detective_produces_stops_the_rubric_with_one_line() -> None:
    bad = parse_rubric(rubric(("audit_logging", ["audit_trail"])))
    with pytest.raises(RubricError) as caught:
        check_rubric(bad, "gate.json")
    message = str(caught.value)
    assert message.startswith("gate.json: dimensions[0](audit_logging).evidence_tags: ")
    assert "'audit_trail'" in message and "\n" not in message


def test_a_profile_tag_needs_the_rubric_to_select_that_profile() -> None:
    week2 = rubric(("graph_orchestration", ["parallelism"]))
    with pytest.raises(RubricError, match="only by the 'automaton-auditor' profile"):
        check_rubric(parse_rubric(week2))
    check_rubric(parse_rubric(rubric(("graph_orchestration", ["parallelism"]),
                                     profile=AUTOMATON_AUDITOR)))
    check_rubric(parse_rubric(rubric(("injection", ["security", "scan_incomplete"]))))
    with pytest.raises(RubricError, match="unknown profile 'week9'"):
        check_rubric(parse_rubric(rubric(("injection", ["security"]), profile="week9")))


def test_a_criterions_own_checks_declare_its_criterion_tag() -> None:
    pinned = parse_rubric(rubric(("pinned", ["criterion:pinned"])))
    with pytest.raises(RubricError, match="'criterion:pinned'"):
        check_rubric(pinned)
    check_rubric(pinned, declared={"pinned": {"criterion:pinned"}})
    with pytest.raises(RubricError, match="'criterion:pinned'"):
        check_rubric(pinned, declared={"other": {"criterion:pinned"}})
    lock = {"kind": "path", "meaning": "a lock file", "glob": "requirements.txt"}
    check_rubric(parse_rubric(json.dumps({
        "rubric_metadata": {"rubric_name": "PR gate"},
        "dimensions": [{"id": "pinned", "name": "Pinned", "target_artifact": "github_repo",
                        "forensic_instruction": "Look.", "checks": [lock],
                        "evidence_tags": ["criterion:pinned", "dependencies"]}]})))


def test_the_profile_covers_its_own_criteria_left_untagged(tmp_path: Path) -> None:
    copy = parse_rubric(rubric(("graph_orchestration", None), ("release_notes", None),
                               profile=AUTOMATON_AUDITOR))
    graph, notes = with_profile(copy).criteria
    assert graph.evidence_tags == ["graph", "parallelism", "conditional"]
    assert notes.evidence_tags is None  # the profile knows nothing of it: not covered
    plain = parse_rubric(rubric(("graph_orchestration", None)))
    assert with_profile(plain).criteria[0].evidence_tags is None
    path = tmp_path / "r.json"
    path.write_text(rubric(("audit_logging", ["audit_trail"])), encoding="utf-8")
    with pytest.raises(RubricError, match=r"r\.json: dimensions"):
        load_checked(path)
    assert load_checked(default_rubric_path()).rubric_metadata.profile == AUTOMATON_AUDITOR


def test_the_bundled_team_rubric_runs_on_general_detectives_alone() -> None:
    gate = named_rubric("pr-gate")
    assert gate is not None
    team = load_checked(gate)
    assert team.rubric_metadata.profile is None
    # Only the criterion about security may be capped (its tags and its security check).
    assert team.parameters.security_criteria == ["security"]
