"""Properties of the court over random scripted benches: whatever the judges do, the
final scores are the chief justice's rules applied to the final opinions, and the limits
hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from verdict_builders import make_evidence, make_opinion

from court.support import CASE, Investigator, ScriptedBackend, rubric_with, synthesise
from courtroom import chief_justice
from courtroom.court import rules as court_rules
from courtroom.court.session import hold_court
from courtroom.judges.bench import JudgeBench
from courtroom.models import JUDGES, EvidenceRequest
from courtroom.rubric import CourtParameters
from courtroom.trace import Trace

FACT = make_evidence("A fact", location="src/a.py:1")
SECURITY = make_evidence("shell=True", location="src/b.py:2", tags=("github_repo", "security"))
EXTRA = make_evidence("Found on a second look", location="src/c.py:3")
POOL = {e.id: e for e in (FACT, SECURITY)}
score = st.integers(min_value=1, max_value=5)


@st.composite
def scenario(draw: st.DrawFn) -> tuple[dict[str, list[int]], CourtParameters, bool]:
    revisions = {j: draw(st.lists(score, min_size=1, max_size=5)) for j in JUDGES}
    limits = CourtParameters(
        max_rounds=draw(st.integers(0, 4)),
        max_remands=draw(st.integers(0, 2)),
        max_handoffs=draw(st.integers(1, 20)),
        ttl_seconds=draw(st.sampled_from([5.0, 1000.0])),
    )
    return revisions, limits, draw(st.booleans())


@settings(max_examples=120, deadline=None)
@given(scenario())
def test_final_scores_are_the_chief_justice_s_on_the_final_opinions(
    case: tuple[dict[str, list[int]], CourtParameters, bool],
) -> None:
    revisions, limits, asks = case
    rubric = rubric_with(["c"])
    backend = ScriptedBackend()
    ask = [EvidenceRequest(path="src/c.py", question="more?")] if asks else None
    opening = [
        make_opinion(j, "c", revisions[j][0], cites=[SECURITY.id if j == "Prosecutor" else FACT.id],
                charges=["shell injection"] if j == "Prosecutor" else None,
                mitigations=["works"] if j == "Defense" else None,
                requests=ask if j == "TechLead" else None)
        for j in JUDGES
    ]
    for j in JUDGES:
        backend.enqueue("c", j, *[make_opinion(j, "c", s, cites=[FACT.id], salt=f"r{n}")
                                  for n, s in enumerate(revisions[j][1:], start=1)])
    ticks = iter(range(0, 10_000, 2))
    outcome = hold_court(
        rubric, CASE, POOL, {"c": list(POOL.values())}, {"c": opening},
        bench=JudgeBench(backend, max_workers=3), trace=Trace(), limits=limits,
        clock=lambda: float(next(ticks)), investigator=Investigator({"src/c.py": [EXTRA]}),
    )
    record = outcome.records["c"]
    final = outcome.opinions["c"]
    result = synthesise(rubric, outcome, POOL)[0]
    ruled = chief_justice.rule("c", "C", final, {**POOL, **outcome.new_evidence},
                               rubric.parameters)

    assert result.final_score == ruled.final_score
    assert result.execution_log == ruled.execution_log
    assert result.security_override == ruled.security_override
    assert result.re_evaluation_required == (ruled.re_evaluation_required
                                             or record.path == "mistrial")
    assert record.handoffs <= limits.max_handoffs
    assert record.remands <= limits.max_remands
    assert record.extra_calls == len(backend.hearing_requests())
    if record.path in ("plea", "skipped"):
        assert record.extra_calls == 0 and record.rounds == []
    else:
        assert len(record.rounds) - 1 <= limits.max_rounds
        assert record.rounds[-1].opinions == final if len(record.rounds) > 1 else True
    if record.path in ("hearing", "remand"):
        assert court_rules.variance(final) <= court_rules.HEARING_VARIANCE
    if record.path == "mistrial":
        assert record.mistrial_reason is not None and record.gaps
