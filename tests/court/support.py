"""Helpers for the court tests: a small rubric, a scripted judge backend, a stepping clock.

The scripted backend works like a test double for an LLM: queue the opinions each judge
should give, round by round, and it answers in order; it records every request so tests
can check what the judges were shown.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict, deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from builders import FakeBackend

from courtroom import chief_justice
from courtroom.court.session import CourtOutcome
from courtroom.detectives.base import Case
from courtroom.errors import JudgeError
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.models import (
    CriterionResult,
    Evidence,
    EvidenceRequest,
    JudgeName,
    JudicialOpinion,
)
from courtroom.rubric import Rubric, parse_rubric

CASE = Case(workspace=None, pdf=None)  # type: ignore[arg-type]  # remands are faked


def rubric_with(ids: Sequence[str], court: Mapping[str, Any] | None = None,
                tags: Sequence[str] = ("github_repo",)) -> Rubric:
    """A rubric of github_repo criteria with the given ids (and court limits), each
    shown every repository fact."""
    data: dict[str, Any] = {
        "rubric_metadata": {"rubric_name": "Court test", "version": "1"},
        "dimensions": [
            {"id": cid, "name": cid.replace("_", " ").title(), "target_artifact": "github_repo",
             "forensic_instruction": f"Look for {cid}.",
             "evidence_tags": list(tags)}  # every repository fact by default
            for cid in ids
        ],
        "synthesis_rules": {"court": dict(court or {})},
    }
    return parse_rubric(json.dumps(data), "test-rubric")


Script = JudicialOpinion | Callable[[JudgeRequest], JudicialOpinion] | JudgeError


class ScriptedBackend(FakeBackend):
    """Answers each (criterion, judge) from its own queue; stands by when the queue is empty."""

    name = "scripted"

    def __init__(self, tokens: int = 0) -> None:
        self.queues: dict[tuple[str, str], deque[Script]] = defaultdict(deque)
        self.requests: list[JudgeRequest] = []
        self.tokens = tokens
        self._lock = threading.Lock()

    def enqueue(self, cid: str, judge: JudgeName, *answers: Script) -> None:
        """Queue the next answers of one judge on one criterion."""
        self.queues[(cid, judge)].extend(answers)

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """The next scripted answer; the judge's previous opinion when nothing is queued."""
        with self._lock:
            self.requests.append(request)
            queue = self.queues[(request.criterion.id, request.persona)]
            answer = queue.popleft() if queue else None
        if isinstance(answer, JudgeError):
            raise answer
        if callable(answer):
            answer = answer(request)
        if answer is None:
            if request.previous is None:
                raise JudgeError(f"nothing scripted for {request.persona}")
            answer = request.previous
        return answer, JudgeUsage(input_tokens=self.tokens, output_tokens=self.tokens // 10)

    def hearing_requests(self) -> list[JudgeRequest]:
        """Requests made during hearings (round > 0)."""
        return [r for r in self.requests if r.round > 0]


class StepClock:
    """A clock that moves ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class Investigator:
    """A fake detective squad: answers remands from a prepared map of path -> evidence."""

    def __init__(self, answers: Mapping[str, Sequence[Evidence]] | None = None) -> None:
        self.answers = dict(answers or {})
        self.calls: list[list[EvidenceRequest]] = []

    def __call__(self, case: Case, requests: list[EvidenceRequest]) -> list[Evidence]:
        self.calls.append(list(requests))
        found: list[Evidence] = []
        for request in requests:
            found.extend(self.answers.get(request.path or request.symbol or "", []))
        return found


def synthesise(
    rubric: Rubric, outcome: CourtOutcome, pool: Mapping[str, Evidence]
) -> list[CriterionResult]:
    """What the pipeline does after the court: rule on the final opinions, attach records."""
    full = {**pool, **outcome.new_evidence}
    return [
        outcome.settle(
            chief_justice.rule(d.id, d.name, outcome.opinions[d.id], full, rubric.parameters)
        )
        for d in rubric.criteria
    ]


def tmp_verdict_path(tmp: Path, text: str) -> Path:
    """Write verdict text to a file under ``tmp``."""
    path = tmp / "verdict.json"
    path.write_text(text, encoding="utf-8")
    return path
