"""The gate on what a pull request introduced, through the Action against the fake GitHub."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from action_support import fake_github, make_env, publisher_factory
from builders import flask_shell_route
from config_builders import pull_repo
from fakes.github_server import FakeGitHub

from courtroom.publish.github.action import action
from courtroom.publish.github.event import config_from_env
from courtroom.publish.github.runners import pipeline_runner
from courtroom.settings.effective import NEW_UNKNOWN

SECOND = '@app.route("/calc")\ndef calc():\n    expr = request.args["expr"]\n' \
    "    return str(eval(expr))"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    server = fake_github()
    yield next(server)
    next(server, None)


def _env(tmp_path: Path, fake: FakeGitHub, base: str, head: str, **inputs: str
         ) -> dict[str, str]:
    env = make_env(tmp_path, fake, **inputs)
    path = Path(env["GITHUB_EVENT_PATH"])
    event = json.loads(path.read_text())
    event["pull_request"]["head"]["sha"], event["pull_request"]["base"]["sha"] = head, base
    path.write_text(json.dumps(event))
    fake.pulls[2] = head
    return env


def _audit(tmp_path: Path, fake: FakeGitHub, pr_files: dict[str, str | bytes | None],
           **inputs: str) -> tuple[int, dict[str, Any]]:
    base, head = pull_repo(tmp_path / "workspace", {"app.py": flask_shell_route()}, pr_files)
    code = action(config_from_env(_env(tmp_path, fake, base, head, **inputs)),
                  publisher_factory, pipeline_runner)
    out = tmp_path / "workspace" / "courtroom-report" / "verdict.json"
    return code, json.loads(out.read_text())


def _annotations(fake: FakeGitHub) -> list[dict[str, Any]]:
    return [note for r in fake.writes(contains="check-runs")
            for note in r["body"].get("output", {}).get("annotations", [])]


def test_new_fails_on_the_finding_the_pull_request_adds(tmp_path: Path, fake: FakeGitHub) -> None:
    code, verdict = _audit(tmp_path, fake, {"app.py": flask_shell_route(SECOND)},
                           **{"fail-on-findings": "new"})
    assert code == 1 and verdict["conclusion"] == "failure"
    baseline = verdict["security"]["baseline"]
    assert baseline["fail_on"] == "new" and baseline["new"] >= 1
    notes = {(n["start_line"], "In the lines this change adds." in n["message"])
             for n in _annotations(fake) if n["annotation_level"] == "failure"}
    assert (16, True) in notes and not any(line == 10 for line, _ in notes)


def test_new_passes_a_pull_request_touching_an_unrelated_file(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    code, verdict = _audit(tmp_path, fake, {"README.md": "hello\n"},
                           **{"fail-on-findings": "new"})
    assert code == 0 and verdict["conclusion"] != "failure"
    report = (tmp_path / "workspace" / "courtroom-report" / "report.md").read_text()
    assert "- pre-existing: `app.py:10`" in report


def test_the_default_still_fails_on_the_old_finding(tmp_path: Path, fake: FakeGitHub) -> None:
    code, verdict = _audit(tmp_path, fake, {"README.md": "hello\n"})
    assert code == 1 and verdict["security"]["baseline"] is None


def test_new_without_the_base_in_the_checkout_fails_closed(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    base, head = pull_repo(tmp_path / "origin", {"app.py": flask_shell_route()},
                           {"README.md": "hello\n"})
    subprocess.run(["git", "clone", "-q", "--depth", "1", (tmp_path / "origin").as_uri(),
                    str(tmp_path / "workspace")], check=True, capture_output=True)
    fake.files[2] = [{"filename": "README.md"}]
    env = _env(tmp_path, fake, base, head, **{"fail-on-findings": "new"})
    assert action(config_from_env(env), publisher_factory, pipeline_runner) == 1
    verdict = json.loads((tmp_path / "workspace" / "courtroom-report" / "verdict.json")
                         .read_text())
    assert any(line.startswith(NEW_UNKNOWN) for line in verdict["errors"])
    assert verdict["security"]["baseline"] is None
