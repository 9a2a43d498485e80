"""Shared fixtures of the judge tests: a rubric criterion, evidence, the fake Messages API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakes.anthropic_server import FakeAnthropic

from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.models import Direction, Evidence
from courtroom.rubric import Criterion, JudicialLogic

#: A fake key: tests assert it never leaves the auth header.
SECRET = "sk-ant-test-7c1f0e55d9a94b3c"


def make_criterion(ident: str = "safe_tool_engineering") -> Criterion:
    return Criterion(
        id=ident,
        name="Safe Tool Engineering",
        target_artifact="github_repo",
        forensic_instruction="Check how the repository clones and runs git.",
        success_pattern="Clones into a temporary directory with argument lists.",
        failure_pattern="os.system with user input.",
        judicial_logic=JudicialLogic(
            prosecutor="Any shell string with user input is a charge.",
            defense="A sandbox attempt deserves credit.",
            tech_lead="Ask whether a failure is caught and reported.",
        ),
    )


def ev(goal: str, *, found: bool = True, location: str = "src/tools.py:10",
       confidence: float = 0.9, tags: tuple[str, ...] = ("tools",),
       content: str | None = None, direction: Direction | None = None,
       rationale: str = "checked by a test", fix: str | None = None) -> Evidence:
    # Unless told, a found fact supports the criterion; a missing one or a security
    # finding counts against it.
    way: Direction = direction or ("supports" if found and "security" not in tags else "adverse")
    return Evidence.make(detective="test", goal=goal, found=found, location=location,
                         rationale=rationale, confidence=confidence,
                         content=content, tags=tags, direction=way, fix=fix)


def mixed_evidence() -> list[Evidence]:
    return [
        ev("git clone runs through os.system with shell=True", location="src/tools.py:12",
           tags=("security", "tools"), content="os.system(f'git clone {url}')"),
        ev("tempfile.TemporaryDirectory used for clones", found=False,
           location="src/tools.py", confidence=0.8, tags=("sandbox",)),
        ev("clone errors are caught and reported", location="src/nodes.py:40",
           confidence=0.5),
        ev("22 commits over four days", location="0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
           confidence=0.95, tags=("git", "history")),
        ev("subprocess.run with an argument list", location="src/git_tools.py:8",
           confidence=0.85),
    ]


def long_evidence() -> list[Evidence]:
    """Evidence big enough that a criterion's prompt prefix passes the cache minimum."""
    return [ev(f"node {i} of the graph", location=f"src/graph.py:{i}",
               content="def node(state):\n    return {'evidence': []}\n" * 30)
            for i in range(4)]


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    server = FakeAnthropic().start()
    yield server
    server.stop()


class Sleeps(list[float]):
    """A sleep function that records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def claude(fake: FakeAnthropic, sleeps: Sleeps) -> AnthropicBackend:
    return AnthropicBackend(api_key=SECRET, base_url=fake.url, timeout=5.0, sleep=sleeps)
