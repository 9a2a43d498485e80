"""Replay a recorded Messages API exchange (vcrpy, record_mode none): the real wire format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import vcr
import yaml

from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.base import JudgeRequest

from .conftest import ev, make_criterion

CASSETTE = Path(__file__).resolve().parent.parent / "cassettes" / "judge_techlead_opinion.yaml"
SAMPLING = {"temperature", "top_p", "top_k"}


def same_shape(live, recorded) -> None:
    """Matcher: same endpoint, same top-level fields, no sampling parameter on either side."""
    mine, theirs = json.loads(live.body), json.loads(recorded.body)
    assert set(mine) == set(theirs)
    assert not SAMPLING & set(mine) and not SAMPLING & set(theirs)
    assert mine["output_config"] == theirs["output_config"]
    assert mine["system"] == theirs["system"]


def evidence() -> list:
    return [
        ev("subprocess.run with an argument list", location="src/git_tools.py:8",
           confidence=0.85),
        ev("git clone runs through os.system with shell=True", location="src/tools.py:12",
           tags=("security", "tools"), content="os.system(f'git clone {url}')"),
    ]


@pytest.fixture
def player() -> vcr.VCR:
    player = vcr.VCR(record_mode="none", filter_headers=["x-api-key", "authorization"])
    player.register_matcher("same_shape", same_shape)
    return player


def test_cassette_follows_the_messages_format_and_holds_no_key():
    data = yaml.safe_load(CASSETTE.read_text(encoding="utf-8"))
    exchange = data["interactions"][0]
    headers = {k.lower() for k in exchange["request"]["headers"]}
    assert not headers & {"x-api-key", "authorization"}
    assert exchange["request"]["uri"].endswith("/v1/messages")
    body = json.loads(exchange["request"]["body"])
    assert {"model", "max_tokens", "system", "messages", "output_config"} <= set(body)
    reply = json.loads(exchange["response"]["body"]["string"])
    assert reply["type"] == "message" and reply["content"][0]["type"] == "text"
    assert {"input_tokens", "output_tokens", "cache_creation_input_tokens"} <= set(reply["usage"])


def test_replayed_opinion(player, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    backend = AnthropicBackend(api_key="sk-ant-replay-only", timeout=5.0, sleep=lambda s: None)
    request = JudgeRequest(persona="TechLead", criterion=make_criterion(), evidence=evidence())
    with player.use_cassette(str(CASSETTE), match_on=["method", "uri", "same_shape"]) as tape:
        opinion, usage = backend.opine(request)
    assert tape.play_count == 1
    assert opinion.score == 2 and opinion.judge == "TechLead"
    assert opinion.cited_evidence == [evidence()[1].id, evidence()[0].id]
    assert "shell injection" in (opinion.charges or [""])[0]
    assert usage.cache_write_tokens == 1536 and usage.output_tokens == 143
