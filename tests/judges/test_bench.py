"""The bench: fan-out in request order, fallback on failure, usage, trace, seeds."""

from __future__ import annotations

import json

from builders import FakeBackend

from courtroom.errors import JudgeTransportError
from courtroom.judges.backends import make_backend
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.bench import JudgeBench
from courtroom.judges.cache import OpinionCache
from courtroom.judges.offline import OfflineBackend
from courtroom.models import FALLBACK_ARGUMENT, JUDGES
from courtroom.trace import Trace

from .conftest import make_criterion, mixed_evidence


class Flaky(FakeBackend):
    """A backend whose Defense always fails (one way or another)."""

    name = "flaky"

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
        self.inner = OfflineBackend()

    def opine(self, request: JudgeRequest):
        if request.persona == "Defense":
            raise self.exc
        opinion, _ = self.inner.opine(request)
        return opinion, JudgeUsage(input_tokens=10, output_tokens=5)


def _ask(criteria: list, evidence: dict) -> list[JudgeRequest]:  # type: ignore[type-arg]
    return [JudgeRequest(persona=p, criterion=d, evidence=evidence.get(d.id, []))
            for d in criteria for p in JUDGES]


def test_answers_come_back_in_request_order():
    criteria = [make_criterion("a"), make_criterion("b")]
    answers = JudgeBench(OfflineBackend()).judge(_ask(criteria, {"a": mixed_evidence()}))
    assert [(o.criterion_id, o.judge) for o, _usage in answers] == [
        (d.id, p) for d in criteria for p in JUDGES]
    assert all(o.cited_evidence == ["NO_EVIDENCE"] for o, _usage in answers[3:])


def test_failed_judge_falls_back_and_the_rest_goes_on():
    for exc in (JudgeTransportError("HTTP 529 after 2 retries"), RuntimeError("bug")):
        bench = JudgeBench(Flaky(exc), max_workers=4)
        answers = bench.judge(_ask([make_criterion()], {make_criterion().id: mixed_evidence()}))
        by = {o.judge: o for o, _usage in answers}
        assert by["Defense"].fallback and by["Defense"].argument == FALLBACK_ARGUMENT
        assert not by["Prosecutor"].fallback and not by["TechLead"].fallback
        assert bench.usage.calls == 3 and bench.usage.input_tokens == 20


def test_trace_events_carry_figures_never_text():
    trace = Trace()
    JudgeBench(OfflineBackend(), trace=trace).judge(_ask([make_criterion()],
                                                        {make_criterion().id: mixed_evidence()}))
    kinds = [e["event"] for e in trace.events if e["stage"] == "judge"]
    assert kinds.count("enter") == 3 and kinds.count("exit") == 3
    exits = [e for e in trace.events if e["event"] == "exit"]
    assert {e["judge"] for e in exits} == set(JUDGES)
    assert all({"seconds", "score", "transport_retries", "input_tokens"} <= set(e) for e in exits)
    assert "os.system" not in json.dumps(trace.events)  # no evidence or prompt text



def test_unreadable_cache_entry_is_a_miss(tmp_path):
    request = JudgeRequest(persona="Defense", criterion=make_criterion(), evidence=mixed_evidence())
    cache = OpinionCache(tmp_path)
    key = cache.key(request, "offline")
    path = tmp_path / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    assert cache.get(key, request) is None


def test_anthropic_base_url_from_the_environment(fake, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
    backend = make_backend("anthropic", api_key="sk-ant-env-test", base_url=None, timeout=5.0)
    request = JudgeRequest(persona="Prosecutor", criterion=make_criterion(), evidence=[])
    opinion, _ = backend.opine(request)
    assert len(fake.requests) == 1 and opinion.cited_evidence == ["NO_EVIDENCE"]


def test_offline_opinions_are_not_cached(tmp_path):
    request = JudgeRequest(persona="Defense", criterion=make_criterion(), evidence=mixed_evidence())
    bench = JudgeBench(OfflineBackend(), cache=OpinionCache(tmp_path))
    bench.judge([request])
    bench.judge([request])
    assert bench.usage.cached_opinions == 0 and not list(tmp_path.rglob("*.json"))
