"""The generic and check detectives keep their evidence contract: every tag a fact carries
is one its detective declares (beside its artifact and the criterion a check serves)."""

from __future__ import annotations

from pathlib import Path

from courtroom.detectives import Case
from courtroom.detectives.base import CONTRACT, REGISTRY
from courtroom.detectives.generic import measures
from courtroom.rubric import parse_rubric
from detectives.conftest import OpenCase
from detectives.service_builders import flask_service

GENERIC = ("tests", "ci", "linters", "dependencies", "secrets", "function_size", "exceptions",
           "logging", "readme", "licence")


def test_every_fact_carries_only_declared_tags(tmp_path: Path, open_case: OpenCase) -> None:
    repo = flask_service(tmp_path / "svc", pinned=False, xss=True, secret=True,
                         swallowed=True)
    (repo / "service" / "big.py").write_text(
        "def big(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(60)),
        encoding="utf-8")
    rubric = parse_rubric((Path(__file__).resolve().parents[2] / "rubrics" / "pr-gate.json")
                          .read_text(encoding="utf-8"))
    case = Case(workspace=open_case(repo).workspace, criteria=tuple(rubric.criteria))
    checks = sorted(name for name in REGISTRY if name.startswith("check_"))
    assert measures.long_functions(case.workspace, 50)  # the size facts are exercised
    for name in (*GENERIC, *checks):
        declared = {p.tag for p in CONTRACT[name]} | {p.artifact for p in CONTRACT[name]}
        facts = REGISTRY[name](case)
        assert facts, name
        for fact in facts:
            extra = {t for t in fact.tags if not t.startswith("criterion:")} - declared
            assert not extra, (name, fact.goal, extra)
