"""The cost cap: estimates before each call, offline judging past the cap, never a mix."""

from __future__ import annotations

import threading

from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.base import JudgeRequest
from courtroom.judges.bench import JudgeBench
from courtroom.judges.dispatch import Budget
from courtroom.models import JUDGES

from .conftest import SECRET, make_criterion, mixed_evidence


def requests(count: int) -> list[JudgeRequest]:
    return [JudgeRequest(persona=p, criterion=make_criterion(f"crit_{i}"),
                         evidence=mixed_evidence())
            for i in range(count) for p in JUDGES]


def test_calls_stop_before_the_cap_and_the_rest_is_judged_offline(fake):
    backend = AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=5.0)
    batch = requests(8)
    # The first criterion is estimated at ~$0.07 (2,000 output tokens assumed per call);
    # once answers are seen, at their mean (~$0.013 a criterion on the fake).
    cap = 0.075
    bench = JudgeBench(backend, max_workers=1, max_cost_usd=cap)
    answers = bench.judge(batch)
    bench.close()
    usage = bench.usage
    assert usage.max_cost_usd == cap and usage.estimated_cost_usd <= cap
    judged_by_claude = {r.json["messages"][0]["content"][0]["text"].split(" — ")[0]
                        for r in fake.requests}
    assert 8 > len(judged_by_claude) == 8 - len(usage.over_budget) > 1
    assert usage.over_budget == [f"crit_{i}" for i in range(8 - len(usage.over_budget), 8)]
    for cid in usage.over_budget:  # a criterion is never split between benches
        assert not any(cid in text for text in judged_by_claude)
        assert all(not o.fallback for o, _ in answers if o.criterion_id == cid)
    assert bench.notes and all(n.kind == "cost_cap" and "offline bench" in n.message
                               for n in bench.notes)
    assert usage.calls == len(fake.requests) + 3 * len(usage.over_budget)


def test_the_estimate_errs_high(fake):
    backend = AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=5.0)
    bench = JudgeBench(backend)
    [request] = requests(1)[:1]
    bench.judge([request])
    bench.close()
    assert backend.estimate_usd(request) > bench.usage.estimated_cost_usd


def test_a_call_that_does_not_fit_waits_for_calls_in_flight():
    budget = Budget(1.0)
    assert budget.reserve(0.6)
    budget.start()
    result: list[bool] = []
    waiter = threading.Thread(target=lambda: result.append(budget.reserve(0.6)))
    waiter.start()
    waiter.join(0.1)
    assert waiter.is_alive()  # 0.6 held + 0.6 > 1.0: it waits rather than refuse early
    budget.settle(0.6, 0.2, ran=True)  # the first call cost less than estimated
    waiter.join(2)
    assert result == [True] and round(budget.spent + budget.reserved, 6) == 0.8
    assert not budget.reserve(0.5)  # nothing running that could free room: refused
