"""On a change over its base, Claude's judges are shown the diff's hunks first."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import Commit, flask_shell_route, head_sha, make_repo
from fakes.anthropic_server import FakeAnthropic
from judges.conftest import SECRET

from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

ADDED = '@app.route("/calc")\ndef calc():\n    return str(eval(request.args["expr"]))'


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    server = FakeAnthropic().start()
    yield server
    server.stop()


def _items(body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    text = "\n".join(b.get("text", "") for b in body["messages"][0]["content"])
    data = re.search(r"<criterion_evidence>\n(.*?)\n</criterion_evidence>", text, re.S)
    assert data is not None
    return text, json.loads(data.group(1))["items"]


def test_the_judges_request_shows_the_hunks_first(fake: FakeAnthropic, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", [Commit("base", {"app.py": flask_shell_route()}),
                                         Commit("pr", {"app.py": flask_shell_route(ADDED)})])
    outcome = audit(AuditConfig(target=str(repo), out_dir=tmp_path / "out", judges="anthropic",
                                api_key=SECRET, base_url=fake.url, court=False,
                                cache_dir=tmp_path / "cache", base=head_sha(repo, "HEAD~1")))
    assert outcome.verdict is not None
    repo_requests = [_items(r.json) for r in fake.requests
                     if "Artifact examined: github_repo" in _items(r.json)[0]]
    assert repo_requests
    for text, items in repo_requests:
        assert items[0]["tags"] == ["diff", "github_repo"]
        assert items[0]["location"] == "app.py:11-15"
        assert items[0]["in_diff"] is True and "eval" in items[0]["content"]
        assert "the first 1 item(s) (tag \"diff\") are the hunks" in text
        assert all("in_diff" in item for item in items)
