"""Claude transcribes diagram images through the judges' client: cached, capped, counted."""

from __future__ import annotations

import io
import json
from concurrent.futures import Future
from pathlib import Path

import pytest
from fakes.anthropic_server import FakeAnthropic, Reply, error, has_image, message
from PIL import Image

from courtroom.errors import ConfigError, JudgeError
from courtroom.judges.anthropic_backend import AnthropicBackend
from courtroom.judges.base import Backend
from courtroom.judges.offline import OfflineBackend
from courtroom.judges.vision import ClaudeVision, for_audit
from courtroom.models import Usage
from courtroom.settings.config import AuditConfig

from .conftest import SECRET, Sleeps

ANSWER = {"boxes": [{"id": "s", "label": "START"}, {"id": "e", "label": "END"}],
          "arrows": [{"source": "s", "target": "e"}]}


def png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("L", (width, height), 230).save(buf, format="PNG")
    return buf.getvalue()


def ready(backend: Backend | Exception) -> Future[Backend]:
    done: Future[Backend] = Future()
    if isinstance(backend, Exception):
        done.set_exception(backend)
    else:
        done.set_result(backend)
    return done


def strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def test_each_distinct_image_is_asked_once_and_counted(fake: FakeAnthropic,
                                                       claude: AnthropicBackend) -> None:
    fake.enqueue(Reply(body=message(json.dumps(ANSWER))))
    vision = ClaudeVision(ready(claude))
    picture = png(1700, 900)
    first = vision.transcribe(picture)
    assert vision.transcribe(picture) == first and len(fake.requests) == 1
    assert [b.label for b in first.boxes] == ["START", "END"]
    assert vision.usage.requests == 1 and vision.usage.input_tokens == 900
    total = vision.add_to(Usage(calls=30, estimated_cost_usd=0.5, model=claude.model))
    assert total.calls == 31 and total.input_tokens == 900
    assert total.estimated_cost_usd == pytest.approx(0.5 + vision.spent_usd())
    rec = fake.requests[0]
    assert rec.path.endswith("/v1/messages") and has_image(rec.json)
    # The key only in the auth header; no path of this machine in the body.
    assert SECRET not in rec.raw.decode()
    assert not [s for s in strings(rec.json) if s.startswith("/") or str(Path.home()) in s]


def test_bad_answers_are_asked_again_then_the_failure_is_kept(
        fake: FakeAnthropic, claude: AnthropicBackend) -> None:
    fake.enqueue(*[Reply(body=message("a box, an arrow")) for _ in range(3)])
    vision = ClaudeVision(ready(claude))
    with pytest.raises(JudgeError, match="not valid JSON"):
        vision.transcribe(png(400, 300))
    with pytest.raises(JudgeError, match="not valid JSON"):
        vision.transcribe(png(400, 300))  # the failure is remembered, not re-sent
    assert len(fake.requests) == 3
    assert vision.usage.requests == 3 and vision.usage.output_retries == 2


def test_server_trouble_is_retried_then_reported(fake: FakeAnthropic, claude: AnthropicBackend,
                                                 sleeps: Sleeps) -> None:
    fake.enqueue(*[error(500, "api_error", "boom") for _ in range(3)])
    with pytest.raises(JudgeError, match="HTTP 500 after 2 retries"):
        ClaudeVision(ready(claude)).transcribe(png(400, 300))
    assert len(fake.requests) == 3 and len(sleeps) == 2


def test_a_call_that_could_pass_the_cap_is_not_made(fake: FakeAnthropic,
                                                    claude: AnthropicBackend) -> None:
    vision = ClaudeVision(ready(claude), max_cost_usd=0.01)
    with pytest.raises(JudgeError, match=r"cost cap \$0.01 reached"):
        vision.transcribe(png(1600, 1600))
    assert not fake.requests and vision.remaining() == 0.01


def test_the_judges_get_what_the_images_left(fake: FakeAnthropic,
                                            claude: AnthropicBackend) -> None:
    vision = ClaudeVision(ready(claude), max_cost_usd=1.0)
    vision.transcribe(png(500, 400))
    assert 0 < vision.spent_usd() < 0.1
    assert vision.remaining() == pytest.approx(1.0 - vision.spent_usd())


@pytest.mark.parametrize("judges", [OfflineBackend(), ConfigError("no key")],
                         ids=["offline", "unbuilt"])
def test_without_a_claude_backend_nothing_is_sent(judges: Backend | Exception) -> None:
    with pytest.raises(JudgeError):
        ClaudeVision(ready(judges)).transcribe(png(400, 300))


def test_only_claude_judges_get_an_image_reader(tmp_path: Path) -> None:
    offline = AuditConfig(target=str(tmp_path), out_dir=tmp_path)
    assert for_audit(offline, ready(OfflineBackend())) is None
    claude = AuditConfig(target=str(tmp_path), out_dir=tmp_path, judges="anthropic",
                         max_cost_usd=2.0)
    vision = for_audit(claude, ready(OfflineBackend()))
    assert isinstance(vision, ClaudeVision) and vision.cap == 2.0

