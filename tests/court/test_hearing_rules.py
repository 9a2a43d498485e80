"""The offline bench's hearing rules, alone and driving the court end to end."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from verdict_builders import make_evidence, make_opinion

from court.support import CASE, Investigator, rubric_with, synthesise
from courtroom import chief_justice
from courtroom.court.hearing_rules import answers, revise
from courtroom.court.session import CourtOutcome, hold_court
from courtroom.detectives.docket import evidence_for
from courtroom.errors import JudgeError
from courtroom.judges.base import JudgeRequest
from courtroom.judges.bench import JudgeBench
from courtroom.judges.offline import OfflineBackend
from courtroom.models import JUDGES, Evidence, EvidenceRequest, JudicialOpinion
from courtroom.rubric import CourtParameters, Rubric
from courtroom.trace import Trace

FOUND = make_evidence("Graph fans out", location="src/graph.py:10", direction="supports")
WEAK = [make_evidence(f"Partly wired node {i}", location=f"src/n{i}.py:1", confidence=0.4,
                      direction="supports")
        for i in range(12)]
HISTORY = make_evidence("Twelve commits over four days", location="abcdef1",
                        tags=("github_repo", "git"), detective="history", direction="supports")
SHELL = make_evidence("subprocess with shell=True", location="src/tools.py:7",
                      tags=("github_repo", "security"), detective="security",
                      direction="adverse")
MISSING = make_evidence("Error edge after the judges", location="src/edges.py:1", found=False,
                        direction="adverse")
ANSWER = make_evidence("Error edge after the judges (second look)", location="src/edges.py:12",
                       content="add_conditional_edges(...)", detective="remand")


def request(persona: str, previous: JudicialOpinion, peers: Sequence[JudicialOpinion],
            evidence: Sequence[Evidence], round_: int = 1) -> JudgeRequest:
    criterion = rubric_with(["c"]).criteria[0]
    return JudgeRequest(persona=persona, criterion=criterion, evidence=list(evidence),  # type: ignore[arg-type]
                        peers=list(peers), previous=previous, round=round_)


def test_backed_mitigation_raises_the_prosecutor_by_one_but_not_past_the_defense() -> None:
    pros = make_opinion("Prosecutor", "c", 2, cites=[FOUND.id], charges=["Weak."])
    backed = make_opinion("Defense", "c", 3, cites=[FOUND.id], mitigations=["It runs."])
    revised = revise(request("Prosecutor", pros, [backed], [FOUND]))
    assert revised.score == 3 and "Round 1" in revised.argument
    again = revise(request("Prosecutor", revised, [backed], [FOUND], round_=2))
    assert again.score == 3  # already level with the Defense


def test_unbacked_mitigation_moves_nobody() -> None:
    pros = make_opinion("Prosecutor", "c", 1, cites=[FOUND.id])
    unbacked = make_opinion("Defense", "c", 5, cites=[MISSING.id], mitigations=["Trust me."])
    assert revise(request("Prosecutor", pros, [unbacked], [FOUND, MISSING])).score == 1


def test_a_mitigation_citing_an_adverse_fact_is_not_backed() -> None:
    # Found, but pointing against the criterion: citing it backs no mitigation.
    flaw = make_evidence("Chief justice delegates the verdict to an LLM", found=True,
                         location="src/justice.py:9", direction="adverse")
    pros = make_opinion("Prosecutor", "c", 1, cites=[flaw.id])
    spin = make_opinion("Defense", "c", 4, cites=[flaw.id], mitigations=["It decides fast."])
    assert revise(request("Prosecutor", pros, [spin], [flaw])).score == 1


def test_security_charge_lowers_the_defense_to_three() -> None:
    defense = make_opinion("Defense", "c", 5, cites=[FOUND.id], mitigations=["Works."])
    charge = make_opinion("Prosecutor", "c", 1, cites=[SHELL.id], charges=["Shell injection."])
    assert revise(request("Defense", defense, [charge], [FOUND, SHELL])).score == 3
    uncharged = charge.model_copy(update={"charges": None})
    assert revise(request("Defense", defense, [uncharged], [FOUND, SHELL])).score == 5


def test_techlead_asks_for_missing_facts_in_the_first_round_only() -> None:
    lead = make_opinion("TechLead", "c", 3, cites=[FOUND.id])
    first = revise(request("TechLead", lead, [], [FOUND, MISSING]))
    assert first.evidence_requests is not None
    assert first.evidence_requests[0].path == "src/edges.py"
    later = revise(request("TechLead", lead, [], [FOUND, MISSING], round_=2))
    assert later.evidence_requests is None


def test_answered_request_means_a_fresh_look_and_the_request_is_dropped() -> None:
    ask = EvidenceRequest(path="src/edges.py", question="Is it there?")
    lead = make_opinion("TechLead", "c", 2, cites=[FOUND.id], requests=[ask])
    assert answers(ask, [ANSWER]) == [ANSWER] and answers(ask, [MISSING]) == []
    revised = revise(request("TechLead", lead, [], [FOUND, MISSING, ANSWER], round_=2))
    assert revised.evidence_requests is None
    assert ANSWER.id in revised.cited_evidence
    unanswered = revise(request("TechLead", lead, [], [FOUND, MISSING], round_=2))
    assert unanswered.evidence_requests == [ask]


def test_revise_is_deterministic_and_refuses_a_first_round() -> None:
    pros = make_opinion("Prosecutor", "c", 2, cites=[FOUND.id])
    peers = [make_opinion("Defense", "c", 5, cites=[FOUND.id], mitigations=["ok"])]
    assert revise(request("Prosecutor", pros, peers, [FOUND])) == revise(
        request("Prosecutor", pros, peers, [FOUND]))
    with pytest.raises(JudgeError):
        revise(request("Prosecutor", pros, peers, [FOUND], round_=0))


# ---- the offline bench through the whole court ---------------------------------------


def offline_court(
    evidence: list[Evidence], investigator: Investigator | None = None,
    limits: CourtParameters | None = None, tags: Sequence[str] = ("github_repo",),
) -> tuple[Rubric, CourtOutcome, dict[str, Evidence]]:
    rubric = rubric_with(["c"], tags=tags)
    pool = {e.id: e for e in evidence}
    shown = {d.id: evidence_for(d, pool.values()) for d in rubric.criteria}
    bench = JudgeBench(OfflineBackend(), max_workers=3)
    requests = [JudgeRequest(persona=j, criterion=d, evidence=shown[d.id])
                for d in rubric.criteria for j in JUDGES]
    opinions = {"c": [o for o, _ in bench.judge(requests)]}
    outcome = hold_court(rubric, CASE, pool, shown, opinions, bench=bench, trace=Trace(),
                         limits=limits, investigator=investigator or Investigator())
    return rubric, outcome, pool


def spread(ops: Sequence[JudicialOpinion]) -> int:
    return max(o.score for o in ops) - min(o.score for o in ops)


def test_offline_contested_hearing_converges() -> None:
    rubric, outcome, pool = offline_court([*WEAK, HISTORY])
    record = outcome.records["c"]
    assert spread(record.rounds[0].opinions) > 2
    assert record.path == "hearing" and len(record.rounds) == 3
    assert spread(outcome.opinions["c"]) <= 2
    result = synthesise(rubric, outcome, pool)[0]
    assert result.final_score == chief_justice.rule(
        "c", "C", outcome.opinions["c"], pool, rubric.parameters).final_score


def test_offline_remand_brings_new_evidence_and_converges() -> None:
    evidence = [*WEAK, HISTORY, MISSING]
    squad = Investigator({"src/edges.py": [ANSWER]})
    _, outcome, _ = offline_court(evidence, squad)
    record = outcome.records["c"]
    assert record.path == "remand" and record.remands == 1
    assert [r.stage for r in record.rounds] == ["opening", "hearing", "remand"]
    lead = {o.judge: o for o in outcome.opinions["c"]}["TechLead"]
    assert lead.evidence_requests is None and ANSWER.id in lead.cited_evidence
    assert squad.calls and squad.calls[0][0].path == "src/edges.py"
    assert ANSWER.id in outcome.new_evidence
    remand_round = next(r for r in record.rounds if r.stage == "remand")
    assert remand_round.new_evidence == [ANSWER.id]
    assert spread(outcome.opinions["c"]) <= 2


def test_offline_fruitless_remand_leaves_the_request_standing() -> None:
    _, outcome, _ = offline_court([*WEAK, HISTORY, MISSING], Investigator())
    lead = {o.judge: o for o in outcome.opinions["c"]}["TechLead"]
    assert outcome.records["c"].remands == 1 and lead.evidence_requests


def test_offline_unresolved_dispute_is_a_mistrial_with_gaps() -> None:
    evidence = [*WEAK, HISTORY, MISSING]
    rubric, outcome, pool = offline_court(evidence, Investigator(),
                                          CourtParameters(max_rounds=1))
    record = outcome.records["c"]
    assert record.path == "mistrial" and record.mistrial_reason == "judge_declared"
    assert record.prosecution_best_score == 2 and record.defense_challenges
    assert any(g.raised_by == "TechLead" and "src/edges.py" in g.missing for g in record.gaps)
    assert synthesise(rubric, outcome, pool)[0].re_evaluation_required


def test_offline_security_dispute_caps_the_defense() -> None:
    # A criterion about security: only such a one may be capped.
    rubric, outcome, pool = offline_court([FOUND, SHELL], tags=("github_repo", "security"))
    opening = {o.judge: o.score for o in outcome.records["c"].rounds[0].opinions}
    assert opening == {"Prosecutor": 2, "Defense": 4, "TechLead": 3}  # spread 2, disputed
    assert outcome.records["c"].path == "hearing"
    final = {o.judge: o.score for o in outcome.opinions["c"]}
    assert final == {"Prosecutor": 3, "Defense": 3, "TechLead": 3}
    result = synthesise(rubric, outcome, pool)[0]
    assert result.security_override and result.final_score <= 3


def test_offline_agreement_is_a_plea() -> None:
    solid = [make_evidence(f"Solid {i}", location=f"src/s{i}.py:1", direction="supports")
             for i in range(3)]
    _, outcome, _ = offline_court(solid)
    assert outcome.records["c"].path == "plea" and outcome.records["c"].extra_calls == 0
