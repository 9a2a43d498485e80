"""Claude through Bedrock and Vertex: the SDK's own clients against the local fake."""

from __future__ import annotations

import pytest

from courtroom.errors import ConfigError
from courtroom.judges import providers as providers_module
from courtroom.judges.backends import make_backend
from courtroom.judges.base import JudgeRequest
from courtroom.judges.bench import JudgeBench
from courtroom.judges.pricing import base_model, price_for
from courtroom.models import JUDGES

from .conftest import SECRET, long_evidence, make_criterion, mixed_evidence


def ask(backend, evidence=None) -> JudgeBench:
    bench = JudgeBench(backend)
    answers = bench.judge([JudgeRequest(persona=p, criterion=make_criterion(),
                                        evidence=mixed_evidence() if evidence is None else evidence)
                           for p in JUDGES])
    bench.close()
    assert not any(opinion.fallback for opinion, _usage in answers)  # every judge answered
    return bench


def test_bedrock_invokes_the_mapped_model_with_its_own_credentials(fake, monkeypatch):
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-token-123")
    backend = make_backend("anthropic", provider="bedrock", region="eu-west-1",
                           api_key=SECRET, base_url=fake.url, timeout=5.0)
    assert backend.name == "bedrock:anthropic.claude-sonnet-5-5"
    bench = ask(backend, long_evidence())
    assert {r.path for r in fake.requests} == {"/model/anthropic.claude-sonnet-5-5/invoke"}
    for rec in fake.requests:
        headers = {k.lower(): v for k, v in rec.headers.items()}
        assert headers["authorization"] == "Bearer bedrock-token-123"
        assert SECRET not in str(rec.headers) and SECRET not in rec.raw.decode()
        body = rec.json
        assert "model" not in body and body["anthropic_version"]
        assert body["output_config"]["format"]["type"] == "json_schema"
    usage = bench.usage
    assert usage.calls == 3
    assert (fake.cache.writes, fake.cache.reads) == (1, 2)  # same cache rules
    assert usage.estimated_cost_usd > 0 and usage.model == "anthropic.claude-sonnet-5-5"


def test_vertex_posts_raw_predict_for_the_project_and_region(fake, monkeypatch):
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "ya29.vertex-token")
    backend = make_backend("anthropic", provider="vertex", region="us-east5",
                           project_id="courtroom-proj", api_key=SECRET, base_url=fake.url,
                           timeout=5.0)
    bench = ask(backend)
    assert {r.path for r in fake.requests} == {
        "/projects/courtroom-proj/locations/us-east5/publishers/anthropic/models/"
        "claude-sonnet-5-5:rawPredict"
    }
    headers = {k.lower(): v for k, v in fake.requests[0].headers.items()}
    assert headers["authorization"] == "Bearer ya29.vertex-token"
    assert SECRET not in fake.requests[0].raw.decode()
    assert bench.usage.calls == 3


def test_missing_extras_or_region_are_one_line_config_errors(monkeypatch):
    monkeypatch.delenv("AWS_BEARER_TOKEN_BEDROCK", raising=False)
    monkeypatch.delenv("GOOGLE_OAUTH_ACCESS_TOKEN", raising=False)
    monkeypatch.setattr(providers_module.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigError, match=r"courtroom\[bedrock\]"):
        make_backend("anthropic", provider="bedrock", region="us-east-1")
    with pytest.raises(ConfigError, match=r"courtroom\[vertex\]"):
        make_backend("anthropic", provider="vertex", region="us-east5", project_id="p")
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "t")
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    with pytest.raises(ConfigError, match="--provider bedrock: No AWS region") as info:
        make_backend("anthropic", provider="bedrock")
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match="unknown provider"):
        make_backend("anthropic", provider="azure")


def test_prices_follow_the_model_whatever_the_provider():
    assert base_model("us.anthropic.claude-sonnet-5-5") == "claude-sonnet-5-5"
    assert base_model("claude-opus-5-5@20260101") == "claude-opus-5-5"
    assert price_for("anthropic.claude-sonnet-5-5") == price_for("claude-sonnet-5-5")
