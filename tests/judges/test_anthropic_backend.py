"""The Claude backend against a local fake of the Messages API: faults, retries, concurrency."""

from __future__ import annotations

import json

import pytest
from fakes.anthropic_server import Reply, error, message, opinion_text, shown_ids

from courtroom.errors import JudgeError, JudgeOutputError, JudgeTransportError
from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.backends import make_backend
from courtroom.judges.base import JudgeRequest
from courtroom.judges.bench import JudgeBench
from courtroom.judges.cache import OpinionCache
from courtroom.models import FALLBACK_ARGUMENT, JUDGES
from courtroom.trace import Trace

from .conftest import SECRET, make_criterion, mixed_evidence

SAMPLING = {"temperature", "top_p", "top_k"}


def request(persona="Prosecutor", evidence=None, **kw) -> JudgeRequest:
    ev = mixed_evidence() if evidence is None else evidence
    return JudgeRequest(persona=persona, criterion=make_criterion(), evidence=ev, **kw)


def keys_anywhere(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


def assert_clean(fake) -> None:
    """No sampling parameter and no secret anywhere but the auth header."""
    assert fake.requests
    for rec in fake.requests:
        assert not SAMPLING & keys_anywhere(rec.json)
        assert SECRET not in rec.raw.decode()
        carriers = [k.lower() for k, v in rec.headers.items() if SECRET in v]
        assert carriers and set(carriers) <= {"x-api-key", "authorization"}


def test_valid_answer_becomes_an_opinion(fake, claude):
    cited = [mixed_evidence()[0].id, "not-a-real-id"]
    fake.enqueue(Reply(body=message(opinion_text(2, cited, charges=["shell injection"]))))
    opinion, usage = claude.opine(request())
    assert opinion.score == 2 and opinion.judge == "Prosecutor"
    assert opinion.cited_evidence == cited  # kept exactly, hallucinations included
    assert opinion.charges == ["shell injection"] and not opinion.fallback
    assert usage.input_tokens == 900 and usage.output_tokens == 180
    body = fake.requests[0].json
    assert body["model"] == "claude-sonnet-5-5" and body["max_tokens"] <= 32000
    assert body["output_config"]["format"]["type"] == "json_schema"
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    headers = {k.lower(): v for k, v in fake.requests[0].headers.items()}
    assert headers["anthropic-version"] == claude.api_version == "2026-10-21"
    assert headers["x-stainless-retry-count"] == "0"
    assert_clean(fake)


def test_only_the_criterion_evidence_is_sent(fake, claude):
    evidence = mixed_evidence()[:2]
    claude.opine(request(evidence=evidence))
    assert shown_ids(fake.requests[0].json) == [e.id for e in evidence]


def test_invalid_json_once_then_valid(fake, claude):
    fake.enqueue(Reply(body=message("{score: 4, oops")),
                 Reply(body=message(opinion_text(4, ["NO_EVIDENCE"]))))
    opinion, usage = claude.opine(request())
    assert opinion.score == 4 and usage.output_retries == 1
    assert len(fake.requests) == 2
    retry_turns = fake.requests[1].json["messages"]
    assert [m["role"] for m in retry_turns] == ["user", "assistant", "user"]
    assert retry_turns[1]["content"] == "{score: 4, oops"
    assert "not valid JSON" in retry_turns[2]["content"]
    assert usage.input_tokens == 1800  # both attempts are paid for and counted


def test_schema_violation_three_times_falls_back(fake, claude, tmp_path):
    bad = Reply(body=message(json.dumps({"score": 9, "argument": "", "cited_evidence": []})))
    fake.enqueue(bad, bad, bad)
    with pytest.raises(JudgeOutputError, match="schema violation"):
        claude.opine(request())
    assert len(fake.requests) == 3
    assert "score" in fake.requests[2].json["messages"][-1]["content"]

    fake.enqueue(bad, bad, bad)
    trace = Trace()
    bench = JudgeBench(claude, cache=OpinionCache(tmp_path), trace=trace)
    [(opinion, _usage)] = bench.judge([request("Defense")])
    assert opinion.fallback and opinion.score == 3 and opinion.argument == FALLBACK_ARGUMENT
    assert opinion.cited_evidence == [] and opinion.charges is None
    assert opinion.mitigations is None and opinion.remediation is None
    [exit_event] = [e for e in trace.events if e["event"] == "exit"]
    assert exit_event["fallback"] and "JudgeOutputError" in exit_event["error"]
    assert not list(tmp_path.rglob("*.json"))  # a fallback is never cached


def test_timeout_backs_off_then_succeeds(fake, sleeps):
    backend = AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=0.3, sleep=sleeps)
    fake.enqueue(Reply(body=message(opinion_text(3)), delay=1.0))
    opinion, usage = backend.opine(request())
    assert opinion.score == 3 and usage.transport_retries == 1
    assert len(sleeps) == 1 and 1.0 <= sleeps[0] <= 1.5  # first exponential step


def test_a_slow_answer_within_the_timeout_is_waited_for(fake, sleeps):
    backend = AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=2.0, sleep=sleeps)
    fake.latency = 0.6
    opinion, usage = backend.opine(request())
    assert not opinion.fallback and usage.transport_retries == 0 and sleeps == []
    assert usage.requests == 1


def test_a_slow_answer_past_the_timeout_becomes_a_fallback(fake, sleeps):
    backend = AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=0.2, sleep=sleeps)
    fake.latency = 0.6
    trace = Trace()
    bench = JudgeBench(backend, trace=trace)
    [(opinion, _usage)] = bench.judge([request()])
    [exit_event] = [e for e in trace.events if e["event"] == "exit"]
    assert opinion.fallback and "JudgeTransportError" in exit_event["error"]
    assert len(fake.requests) == 3 and bench.usage.calls == 3  # failed requests count too


def test_timeout_reaches_the_client_and_max_tokens_fits_a_non_streaming_call(fake):
    from courtroom.judges.anthropic_backend import MAX_TOKENS_CEILING

    backend = make_backend("anthropic", api_key=SECRET, base_url=fake.url, timeout=600.0)
    timeout = backend._client.timeout
    assert (timeout.read, timeout.connect) == (600.0, 5.0)
    big = AnthropicBackend(api_key=SECRET, base_url=fake.url, max_tokens=64000)
    assert big.max_tokens == MAX_TOKENS_CEILING == 21333
    # The SDK's own rule for non-streaming requests accepts it (it raises past ten minutes).
    big._client._calculate_nonstreaming_timeout(big.max_tokens, None)


def test_rate_limits_are_waited_out_as_told_not_spent_as_failures(fake, claude, sleeps):
    told = [error(429, "rate_limit_error", "slow down", {"retry-after": "2"})] * 4
    fake.enqueue(*told, error(529, "overloaded_error", "busy", {"retry-after-ms": "500"}))
    opinion, usage = claude.opine(request())
    assert not opinion.fallback and usage.output_retries == 0
    assert sleeps == [2.0, 2.0, 2.0, 2.0, 0.5] and usage.requests == 6


def test_every_request_is_counted_retries_included(fake, claude):
    fake.enqueue(error(503, "api_error", "busy"), Reply(body=message("not json")))
    bench = JudgeBench(claude)
    bench.judge([request()])
    assert bench.usage.calls == len(fake.requests) == 3


def test_judges_read_each_facts_direction(fake, claude):
    from .conftest import ev

    facts = [ev("shell=True with user input", tags=("security",)).model_copy(
                 update={"direction": "adverse"}),
             ev("argument list", location="src/a.py:3").model_copy(
                 update={"direction": "supports"})]
    claude.opine(request(evidence=facts))
    block = fake.requests[0].json["messages"][0]["content"][0]["text"]
    items = json.loads(block.split("<criterion_evidence>\n")[1].split("\n</criterion")[0])
    assert [i["direction"] for i in items["items"]] == ["adverse", "supports"]
    assert "never credit" in block


def test_the_prompt_says_what_was_left_out(fake, claude):
    claude.opine(request(omitted={"graph, adverse": 3, "history, context": 2}))
    block = fake.requests[0].json["messages"][0]["content"][0]["text"]
    assert "5 more item(s) relevant to this criterion were left out" in block
    assert '"left_out":{"graph, adverse":3,"history, context":2}' in block


def test_429_honours_retry_after(fake, claude, sleeps):
    fake.enqueue(error(429, "rate_limit_error", "slow down", {"retry-after": "7"}))
    opinion, usage = claude.opine(request())
    assert not opinion.fallback and usage.transport_retries == 1
    assert sleeps == [7.0]


def test_overloaded_gives_up_after_two_retries(fake, claude, sleeps):
    busy = error(529, "overloaded_error", "Overloaded")
    fake.enqueue(busy, busy, busy)
    with pytest.raises(JudgeTransportError, match="529 after 2 retries"):
        claude.opine(request())
    assert len(fake.requests) == 3 and len(sleeps) == 2 and sleeps[1] > sleeps[0]


def test_bad_request_is_not_retried(fake, claude, sleeps):
    fake.enqueue(error(400, "invalid_request_error", "temperature is not supported"))
    with pytest.raises(JudgeError, match="HTTP 400") as info:
        claude.opine(request())
    assert not isinstance(info.value, JudgeTransportError)
    assert len(fake.requests) == 1 and sleeps == []


def test_thirty_concurrent_calls_overlap(fake):
    fake.latency = 0.2
    backend = make_backend("anthropic", model=None, api_key=SECRET, base_url=fake.url,
                           timeout=10.0)
    requests = [
        JudgeRequest(persona=p, criterion=make_criterion(f"crit_{i}"), evidence=mixed_evidence())
        for i in range(10)
        for p in JUDGES
    ]
    bench = JudgeBench(backend, max_workers=30)
    answers = bench.judge(requests)
    assert [(o.criterion_id, o.judge) for o, _ in answers] == [
        (r.criterion.id, r.persona) for r in requests
    ]
    assert len(fake.requests) == 30 and 10 <= fake.max_in_flight <= 30
    usage = bench.usage
    # Five short facts make a prefix under Sonnet's 1,024-token cache minimum: no caching.
    assert usage.calls == 30 and usage.cache_write_tokens == usage.cache_read_tokens == 0
    assert usage.estimated_cost_usd > 0 and usage.api_version == "2026-10-21"
    assert_clean(fake)


def test_no_environment_secret_reaches_a_request(fake, claude, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_shouldneverleave000000000000")
    claude.opine(request())
    raw = fake.requests[0].raw.decode()
    assert "ghp_shouldneverleave" not in raw and "GITHUB_TOKEN" not in raw
    assert_clean(fake)


def test_trace_records_calls_without_prompt_text(fake, claude):

    trace = Trace()
    fake.enqueue(Reply(body=message("nope")), Reply(body=message(opinion_text(4))))
    JudgeBench(claude, trace=trace).judge([request()])
    exit_event = next(e for e in trace.events if e["event"] == "exit")
    assert exit_event["output_retries"] == 1 and exit_event["score"] == 4
    assert exit_event["input_tokens"] == 1800 and exit_event["seconds"] >= 0
    dumped = json.dumps(trace.events)
    assert SECRET not in dumped and "Critical reading" not in dumped
    assert "PROSECUTOR" not in dumped and "os.system" not in dumped


def test_missing_key_fails_fast(monkeypatch, tmp_path):
    from courtroom.errors import ConfigError

    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        make_backend("anthropic", api_key=None, base_url="http://127.0.0.1:9", timeout=1.0)


def test_unknown_bench_is_a_config_error():
    from courtroom.errors import ConfigError

    with pytest.raises(ConfigError):
        make_backend("gpt", timeout=1.0)


def test_retry_after_ms_and_cut_off_answers(fake, claude, sleeps):
    fake.enqueue(error(503, "api_error", "busy", {"retry-after-ms": "250"}),
                 Reply(body=message('{"score": 4, "argu', stop="max_tokens")),
                 Reply(body=message(opinion_text(4))))
    opinion, usage = claude.opine(request())
    assert sleeps == [0.25] and usage.transport_retries == 1 and usage.output_retries == 1
    assert "max_tokens" in fake.requests[2].json["messages"][-1]["content"]
    assert opinion.score == 4
