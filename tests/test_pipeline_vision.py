"""A Claude audit sends the report's diagram image to Claude once; an offline one never."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders import Commit, make_repo
from detectives.pdf_builders import graph_png, image_pdf, two_fan_outs
from fakes.anthropic_server import FakeAnthropic, Reply, has_image, message
from judges.conftest import SECRET

from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

NOTE = "Claude's transcription of the image was used where the OCR agreed: 9 of 9"
FILES = {"src/graph.py": "from langgraph.graph import StateGraph\n\ng = StateGraph(dict)\n"}


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    server = FakeAnthropic().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("vision")
    repo = make_repo(root / "repo", [Commit("Set up the graph", FILES)])
    return repo, image_pdf(root / "report.pdf", graph_png(*two_fan_outs()))


def _diagram(verdict_path: Path) -> str:
    data = json.loads(verdict_path.read_text(encoding="utf-8"))
    return next(e["rationale"] for e in data["evidences"].values()
                if e["goal"] == "Diagram image in the report")


def test_claude_judges_have_the_image_transcribed_once(report, fake, tmp_path):
    boxes, arrows = two_fan_outs()
    answer = {"boxes": [{"id": f"n{i}", "label": b[0]} for i, b in enumerate(boxes)],
              "arrows": [{"source": f"n{a}", "target": f"n{b}"} for a, b in arrows]}
    plain = fake.default_reply
    fake.default_reply = lambda body: (Reply(body=message(json.dumps(answer)))
                                       if has_image(body) else plain(body))
    repo, pdf = report
    outcome = audit(AuditConfig(target=str(repo), pdf=pdf, out_dir=tmp_path / "out",
                                judges="anthropic", api_key=SECRET, base_url=fake.url,
                                court=False, use_cache=False, max_cost_usd=5.0))
    assert outcome.verdict is not None
    images = [r for r in fake.requests if has_image(r.json)]
    assert len(images) == 1 and NOTE in _diagram(tmp_path / "out" / "verdict.json")
    assert outcome.verdict.usage.calls == len(fake.requests)
    assert outcome.verdict.usage.estimated_cost_usd > 0
    assert outcome.verdict.usage.max_cost_usd == 5.0  # the audit's cap, not what was left
    assert SECRET not in (tmp_path / "out" / "trace.jsonl").read_text(encoding="utf-8")


def test_offline_the_image_stays_on_the_machine(report, tmp_path):
    repo, pdf = report
    outcome = audit(AuditConfig(target=str(repo), pdf=pdf, out_dir=tmp_path / "out"))
    assert outcome.verdict is not None and outcome.verdict.usage.calls == 30
    rationale = _diagram(tmp_path / "out" / "verdict.json")
    assert rationale.startswith("Diagram image: 9 connected boxes") and "Claude" not in rationale
