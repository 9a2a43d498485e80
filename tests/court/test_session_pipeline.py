"""The court inside a whole offline audit (on, off, forced mistrial, sealed verdict) and
its resilience to a failing detective."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import Commit, FakeBackend, make_repo
from verdict_builders import make_opinion

from court.support import CASE, ScriptedBackend, rubric_with
from courtroom import chief_justice
from courtroom.court.session import hold_court
from courtroom.integrity import verify
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.bench import JudgeBench
from courtroom.judges.offline import OfflineBackend
from courtroom.models import EvidenceRequest, JudicialOpinion, Verdict
from courtroom.pipeline import audit
from courtroom.rubric import default_rubric_path, load_rubric
from courtroom.settings.config import AuditConfig
from courtroom.trace import Trace

FILES = {
    "src/graph.py": (
        "from langgraph.graph import StateGraph\nfrom typing import TypedDict, Annotated\n"
        "import operator\n\nclass AgentState(TypedDict):\n"
        "    evidences: Annotated[dict, operator.ior]\n\n"
        "g = StateGraph(AgentState)\ng.add_node('repo', repo)\ng.add_node('doc', doc)\n"
        "g.add_edge('start', 'repo')\ng.add_edge('start', 'doc')\n"
    ),
    "src/tools.py": "import os\n\ndef clone(url):\n    os.system(f'git clone {url}')\n",
}
CONTESTED = "git_forensic_analysis"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("court-repo")
    return make_repo(root, [Commit("init", FILES), "add notes", "more work", "fix", "tests"])


class Disputed(FakeBackend):
    """The offline judges, except that on one criterion the opening is forced apart.

    Keeps these tests about the court, whatever the detectives and lenses conclude.
    """

    name = "offline"

    def __init__(self) -> None:
        self.inner = OfflineBackend()

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        opinion, usage = self.inner.opine(request)
        if request.round == 0 and request.criterion.id == CONTESTED:
            forced = {"Prosecutor": 1, "Defense": 5}.get(request.persona)
            if forced is not None:
                opinion = opinion.model_copy(update={"score": forced})
        return opinion, usage


def run(repo: Path, out: Path, **settings: object) -> Verdict:
    config = AuditConfig(target=str(repo), out_dir=out, use_cache=False, **settings)  # type: ignore[arg-type]
    outcome = audit(config, backend=Disputed())
    assert outcome.verdict is not None
    return outcome.verdict


def assert_chief_justice_rules(verdict: Verdict) -> None:
    params = load_rubric(default_rubric_path()).parameters
    for result in verdict.criteria:
        ruled = chief_justice.rule(result.criterion_id, result.name, result.opinions,
                                   verdict.evidences, params)
        assert result.final_score == ruled.final_score
        assert result.execution_log == ruled.execution_log


def test_court_hears_the_contested_criterion_and_pleas_cost_nothing(
    repo: Path, tmp_path: Path
) -> None:
    on = run(repo, tmp_path / "on")
    off = run(repo, tmp_path / "off", court=False)
    records = {c.criterion_id: c.court for c in on.criteria}
    assert all(r is not None for r in records.values())
    heard = {cid for cid, r in records.items() if r and r.path not in ("plea", "skipped")}
    assert CONTESTED in heard
    assert all(r.extra_calls == 0 for cid, r in records.items() if r and cid not in heard)
    extra = sum(r.extra_calls for r in records.values() if r)
    assert on.usage.calls == off.usage.calls + extra and extra >= 3
    assert all(c.court is None for c in off.criteria)
    contested_off = next(c for c in off.criteria if c.criterion_id == CONTESTED)
    contested_on = next(c for c in on.criteria if c.criterion_id == CONTESTED)
    assert contested_off.re_evaluation_required
    assert contested_on.re_evaluation_required == (contested_on.court.path == "mistrial")  # type: ignore[union-attr]
    assert contested_on.court and contested_on.court.rounds[0].opinions == contested_off.opinions
    assert_chief_justice_rules(on)
    assert_chief_justice_rules(off)


def test_verdict_on_disk_is_sealed_and_signed(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COURTROOM_SIGNING_KEY", "pipeline-test-key")
    verdict = run(repo, tmp_path)
    text = (tmp_path / "verdict.json").read_text(encoding="utf-8")
    assert verify(text, b"pipeline-test-key") == []
    assert json.loads(text)["integrity"]["digest"] == verdict.integrity["digest"]  # type: ignore[index]
    tampered = text.replace('"final_score": ', '"final_score": 1', 1)
    assert verify(tampered, b"pipeline-test-key")


def test_a_forced_mistrial_is_flagged_and_unsettled(repo: Path, tmp_path: Path) -> None:
    verdict = run(repo, tmp_path, court_limits={"max_rounds": 0})
    contested = next(c for c in verdict.criteria if c.criterion_id == CONTESTED)
    assert contested.court is not None and contested.court.path == "mistrial"
    assert contested.court.mistrial_reason == "deliberation_exhausted"
    assert contested.court.gaps and contested.court.prosecution_best_score is not None
    assert contested.re_evaluation_required
    assert verdict.conclusion in ("neutral", "failure")  # never success with a mistrial
    assert_chief_justice_rules(verdict)


def test_a_remand_that_crashes_is_a_gap_not_a_failed_audit() -> None:
    def broken(case: object, requests: object) -> list[object]:
        raise RuntimeError("tree-sitter fell over")

    ask = [EvidenceRequest(path="src/x.py", question="there?")]
    opening = [make_opinion("Prosecutor", "c", 1), make_opinion("Defense", "c", 5),
               make_opinion("TechLead", "c", 3, requests=ask)]
    trace = Trace()
    outcome = hold_court(rubric_with(["c"]), CASE, {}, {"c": []}, {"c": opening},
                         bench=JudgeBench(ScriptedBackend()), trace=trace,
                         investigator=broken)  # type: ignore[arg-type]
    record = outcome.records["c"]
    assert record.path == "mistrial" and record.mistrial_reason == "judge_declared"
    assert any(g.raised_by == "TechLead" and "src/x.py" in g.missing for g in record.gaps)
    assert any(e["event"] == "remand_failed" for e in trace.events)
