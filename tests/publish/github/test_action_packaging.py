"""The action as packaged: Dockerfile, action.yml, and entrypoint.py run as the runner would."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from action_support import MERGE, fake_github, outputs
from fakes.github_server import PAYLOADS, FakeGitHub

from courtroom.settings.schema import SETTINGS

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    yield from fake_github()


def test_dockerfile_installs_this_repository_and_matches_action_yml() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    action_yml = (ROOT / "action.yml").read_text()
    assert re.search(r"^FROM python:3\.13\.\d+-slim", dockerfile, re.M)  # pinned, current
    assert re.search(r"^COPY \. /opt/courtroom\b", dockerfile, re.M)
    assert re.search(r"pip install[^\n]*/opt/courtroom", dockerfile)
    assert "git" in dockerfile and not re.search(r"^(WORKDIR|USER)\b", dockerfile, re.M)
    entry = re.search(r'^ENTRYPOINT \["python", "-P", "(/opt/courtroom/[^"]+)"\]', dockerfile, re.M)
    assert entry and (ROOT / Path(entry.group(1)).relative_to("/opt/courtroom")).is_file()
    assert "using: docker" in action_yml.replace("'", "").replace('"', "")
    assert re.search(r"image:\s*['\"]?Dockerfile", action_yml)
    for name in (
        "github-token",
        "anthropic-api-key",
        "model",
        "rubric",
        "pdf",
        "fail-below",
        "pr-number",
        "check-name",
        "comment",
        "verdict",
        "provider",
        "max-cost",
        "max-concurrency",
        "judge-timeout",
        "clone-timeout",
    ):
        assert re.search(rf"^  {name}:", action_yml, re.M), name
    for name in ("score", "conclusion", "report-path", "sarif-path"):
        assert re.search(rf"^  {name}:", action_yml, re.M), name


def test_every_input_read_is_declared_and_every_declared_input_is_read() -> None:
    source = (ROOT / "courtroom" / "publish" / "github" / "event.py").read_text()
    settings = {given.name for setting in SETTINGS for given in setting.inputs}
    # A setting's input is read through the schema only, never by name in event.py.
    read = set(re.findall(r'(?:read|switch)\(env, "([a-z-]+)"', source))
    assert not read & settings
    read |= settings
    action_yml = (ROOT / "action.yml").read_text()
    block = action_yml.split("\ninputs:\n", 1)[1].split("\noutputs:\n", 1)[0]
    declared = set(re.findall(r"^  ([a-z-]+):", block, re.M))
    assert read == declared


@pytest.mark.slow
def test_entrypoint_runs_as_the_runner_would(tmp_path: Path, fake: FakeGitHub) -> None:
    """The real entrypoint.py and a real audit with Claude judges (a local fake), twice.

    The second run finds the same evidence, so every opinion comes from the comment's
    hidden state through the opinion cache: not one model call.
    """
    import os
    import subprocess
    import sys

    from builders import head_sha, make_repo
    from fakes.anthropic_server import FakeAnthropic

    workspace = make_repo(
        tmp_path / "workspace",
        files={
            "src/graph.py": "from langgraph.graph import StateGraph\n\ngraph = StateGraph(dict)\n",
            "README.md": "# Auditor\n",
        },
    )
    sha = head_sha(workspace)
    event = json.loads((PAYLOADS / "pull_request.synchronize.json").read_text())
    event["pull_request"]["head"]["sha"] = sha
    (tmp_path / "event.json").write_text(json.dumps(event))
    claude = FakeAnthropic().start()
    keep = {
        k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_", "ANTHROPIC"))
    }
    env = {
        **keep,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(tmp_path / "event.json"),
        "GITHUB_REPOSITORY": fake.repo,
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_API_URL": fake.api_url,
        "GITHUB_SHA": MERGE,
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "RUNNER_TEMP": str(tmp_path),
        "ANTHROPIC_BASE_URL": claude.url,
        "INPUT_GITHUB-TOKEN": "ghs_e2e",
        "INPUT_ANTHROPIC-API-KEY": "sk-ant-test-key",
        "INPUT_CHECK-NAME": "courtroom",
        "INPUT_COMMENT": "true",
    }
    verdicts, calls = [], []
    try:
        for _ in range(2):
            before = len(claude.requests)
            done = subprocess.run(
                [sys.executable, str(ROOT / "entrypoint.py")],
                env=env,
                cwd=workspace,
                capture_output=True,
                text=True,
                timeout=300,
            )
            verdict = json.loads((workspace / "courtroom-report" / "verdict.json").read_text())
            expected = 1 if verdict["conclusion"] == "failure" else 0
            assert done.returncode == expected, done.stdout + done.stderr
            assert "sk-ant-test-key" not in done.stdout + done.stderr
            verdicts.append(verdict)
            calls.append(len(claude.requests) - before)
    finally:
        claude.stop()
    assert verdicts[0]["bench"].startswith("anthropic:")
    assert len(fake.comments) == 1 and len(fake.check_runs) == 2
    assert {r["head_sha"] for r in fake.check_runs.values()} == {sha}
    assert calls[0] >= 30 and calls[1] == 0, calls
    assert verdicts[1]["usage"]["cached_opinions"] >= 30
    assert verdicts[1]["overall_score"] == verdicts[0]["overall_score"]
    assert outputs(tmp_path)["score"] == f"{verdicts[1]['overall_score']:.2f}"
    assert outputs(tmp_path)["sarif-path"] == "courtroom-report/findings.sarif"
    assert (workspace / "courtroom-report" / "findings.sarif").is_file()
    body = next(iter(fake.comments.values()))["body"]
    assert "sk-ant-test-key" not in body and "ghs_e2e" not in body


def test_the_setup_guide_workflow_is_valid_and_complete() -> None:
    import yaml

    text = (ROOT / "docs" / "action.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```yaml\n(.*?)^```", text, re.M | re.S)
    workflow = next(yaml.safe_load(b) for b in blocks if "jobs:" in b)
    triggers = workflow[True]  # YAML 1.1 reads `on` as True
    assert triggers["issue_comment"] == {"types": ["created"]}
    assert {"pull_request", "workflow_dispatch"} <= set(triggers)
    assert workflow["permissions"]["security-events"] == "write"
    assert workflow["permissions"]["checks"] == workflow["permissions"]["pull-requests"] == "write"
    steps = workflow["jobs"]["audit"]["steps"]
    declared = set(yaml.safe_load((ROOT / "action.yml").read_text())["inputs"])
    (ours,) = [s for s in steps if "courtroom@" in str(s.get("uses"))]
    assert set(ours["with"]) <= declared
    (sarif,) = [s for s in steps if "upload-sarif" in str(s.get("uses"))]
    assert sarif["with"]["category"] == "courtroom"
    assert sarif["with"]["sarif_file"] == "${{ steps.courtroom.outputs.sarif-path }}"
    outputs_declared = set(yaml.safe_load((ROOT / "action.yml").read_text())["outputs"])
    assert "sarif-path" in outputs_declared
