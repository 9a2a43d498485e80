"""Shared pieces of the action tests: a fake audit, the runner's environment, payloads."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from fakes.github_server import PAYLOADS, FakeGitHub
from verdict_builders import make_verdict

from courtroom.judges.cache import OpinionCache
from courtroom.models import Verdict
from courtroom.publish.github.action import AuditRequest, action
from courtroom.publish.github.client import Publisher
from courtroom.publish.github.event import ActionConfig, config_from_env

HEAD = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
MERGE = "1111111111111111111111111111111111111111"


def fake_github() -> Iterator[FakeGitHub]:
    """The body of each test module's ``fake`` fixture: PR #2 at HEAD, contract enforced."""
    with FakeGitHub() as server:
        server.pulls[2] = HEAD
        yield server
    assert server.violations == [] and server.response_violations == []


@dataclass
class Outcome:
    verdict: Verdict | None
    exit_code: int
    paths: dict[str, Path] = field(default_factory=dict)
    error: str | None = None


class FakeAudit:
    """Stands in for courtroom.pipeline.audit; remembers what it was asked.

    It uses the opinion cache as the real bench does: an opinion whose input key is in the
    cache counts as reused, any other is "asked" and stored. ``inputs`` plays the part of
    the evidence: change it and every key changes.
    """

    def __init__(
        self, verdict: Verdict | None = None, exit_code: int = 1, inputs: str = "v1"
    ) -> None:
        self.verdict = verdict if verdict is not None else make_verdict()
        self.exit_code = exit_code
        self.inputs = inputs
        self.requests: list[AuditRequest] = []
        self.reused = 0
        self.asked = 0

    def __call__(self, request: AuditRequest) -> Outcome:
        self.requests.append(request)
        assert request.cache_dir is not None
        cache = OpinionCache(request.cache_dir)
        for criterion in self.verdict.criteria:
            for opinion in criterion.opinions:
                key = hashlib.sha256(f"{opinion.opinion_id}/{self.inputs}".encode()).hexdigest()
                if opinion.fallback:
                    continue
                if (request.cache_dir / key[:2] / f"{key}.json").exists():
                    self.reused += 1
                else:
                    self.asked += 1
                    cache.put(key, opinion)
        return Outcome(self.verdict, self.exit_code)


def payload(tmp: Path, event: str, **changes: object) -> Path:
    """A documented payload from tests/fixtures, rewritten with our own head sha."""
    source = {
        "pull_request": PAYLOADS / "pull_request.synchronize.json",
        "workflow_dispatch": PAYLOADS / "workflow_dispatch.json",
        "issue_comment": PAYLOADS / "issue_comment.created.json",
    }.get(event)
    data = json.loads(source.read_text()) if source else {"after": HEAD, "ref": "refs/heads/main"}
    if event == "pull_request":
        data["pull_request"]["head"]["sha"] = HEAD
    data.update(changes)
    path = tmp / f"{event}.json"
    path.write_text(json.dumps(data))
    return path


def make_env(
    tmp: Path, fake: FakeGitHub, event: str = "pull_request", **inputs: str
) -> dict[str, str]:
    workspace = tmp / "workspace"
    workspace.mkdir(exist_ok=True)
    env = {
        "GITHUB_EVENT_NAME": event,
        "GITHUB_EVENT_PATH": str(payload(tmp, event)),
        "GITHUB_REPOSITORY": fake.repo,
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_API_URL": fake.api_url,
        "GITHUB_SHA": MERGE,
        "GITHUB_OUTPUT": str(tmp / "output.txt"),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "INPUT_GITHUB-TOKEN": "ghs_secret_token_value",
        "INPUT_CHECK-NAME": "courtroom",
        "INPUT_COMMENT": "true",
    }
    env.update({f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()})
    return env


def publisher_factory(config: ActionConfig) -> Publisher:
    return Publisher(
        config.token, config.api_url, config.repository, throttle=False, sleep=lambda _: None
    )


def run(env: dict[str, str], audit: FakeAudit) -> int:
    return action(config_from_env(env), publisher_factory, audit)


def outputs(tmp: Path) -> dict[str, str]:
    lines = (tmp / "output.txt").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines)
