"""The action under attack: forged state, failing writes, hostile inputs, broken runners."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from action_support import HEAD, FakeAudit, fake_github, make_env, outputs, publisher_factory, run
from fakes.github_server import FakeGitHub
from verdict_builders import make_verdict

from courtroom.errors import ConfigError
from courtroom.publish.github.action import AuditRequest, action, main
from courtroom.publish.github.checkout import resolve_pdf
from courtroom.publish.github.event import config_from_env
from courtroom.render.state import COMMENT_MARKER
from courtroom.resources import default_rubric_path


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    yield from fake_github()


def _genuine_body(tmp_path: Path, fake: FakeGitHub) -> str:
    """The body our own first audit leaves on PR #2 (its state seeds 14 opinions)."""
    env = make_env(tmp_path / "first", fake)
    run(env, FakeAudit())
    (body,) = [c["body"] for c in fake.comments.values()]
    return body


def test_a_reposted_state_from_the_pr_author_is_ignored_and_never_edited(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    (tmp_path / "first").mkdir()
    body = _genuine_body(tmp_path, fake)
    fake.comments.clear()
    fake.comments[1] = {"issue": 2, "body": body, "login": "mallory"}  # before our first audit
    audit = FakeAudit()
    run(make_env(tmp_path, fake), audit)
    assert audit.reused == 0 and audit.asked == 14  # every opinion asked afresh
    assert fake.comments[1] == {"issue": 2, "body": body, "login": "mallory"}
    assert not fake.writes("PATCH", "/issues/comments/1")
    ours = [c for c in fake.comments.values() if c["login"] == fake.login]
    assert len(ours) == 1 and ours[0]["body"].startswith(COMMENT_MARKER)


def test_without_a_known_identity_no_comment_is_trusted(tmp_path: Path, fake: FakeGitHub) -> None:
    (tmp_path / "first").mkdir()
    body = _genuine_body(tmp_path, fake)
    fake.fail("POST", "graphql", 502, times=99)
    audit = FakeAudit()
    run(make_env(tmp_path, fake), audit)
    assert audit.reused == 0 and audit.asked == 14
    assert next(c["body"] for c in fake.comments.values()) == body  # not edited either
    assert len(fake.check_runs) == 2
    graphql = [r for r in fake.requests if r["path"] == "/graphql"]
    assert len(graphql) == 1 + 5  # the first run's answer, then one bounded ask: 5 attempts


@pytest.mark.parametrize(("status", "message"), [(422, "Validation Failed"), (502, "Bad Gateway")])
def test_a_comment_refused_every_time_still_yields_a_completed_check_run(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str], status: int, message: str
) -> None:
    fake.fail("POST", r"/comments$", status, times=99, message=message)
    assert run(make_env(tmp_path, fake), FakeAudit(make_verdict(findings=3))) == 1
    assert not fake.comments
    (check,) = fake.check_runs.values()
    assert check["status"] == "completed" and check["conclusion"] == "failure"
    assert len(check["annotations"]) >= 3
    assert "could not publish the comment" in capsys.readouterr().out
    assert outputs(tmp_path)["conclusion"] == "failure"
    assert "## Executive summary" in (tmp_path / "summary.md").read_text()


def test_an_unwritable_summary_does_not_stop_the_outputs_or_the_check(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake)
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "no-such-folder" / "summary.md")
    assert run(env, FakeAudit()) == 1
    assert outputs(tmp_path)["conclusion"] == "failure"
    assert len(fake.check_runs) == 1 and len(fake.comments) == 1


def _workspace_with_links(tmp_path: Path) -> Path:
    outside = tmp_path / "runner-files"
    outside.mkdir()
    (outside / "secret.pdf").write_bytes(b"%PDF-1.4 the runner's own file")
    workspace = tmp_path / "workspace"
    (workspace / "reports").mkdir(parents=True)
    (workspace / "reports" / "a-report.pdf").symlink_to(outside / "secret.pdf")
    (workspace / "linked").symlink_to(outside, target_is_directory=True)
    return workspace


@pytest.mark.parametrize(
    "pattern", ["reports/*.pdf", "reports/a-report.pdf", "linked/*.pdf", "*/*.pdf", "../*/*.pdf"]
)
def test_the_pdf_input_never_follows_a_link_or_leaves_the_workspace(
    tmp_path: Path, fake: FakeGitHub, pattern: str
) -> None:
    workspace = _workspace_with_links(tmp_path)
    config = config_from_env(make_env(tmp_path, fake, pdf=pattern))
    pdf, why = resolve_pdf(config)
    assert pdf is None and why and "outside the workspace" in why
    (workspace / "reports" / "z-real.pdf").write_bytes(b"%PDF-1.4 committed")
    pdf, why = resolve_pdf(config)
    if pattern != "reports/a-report.pdf" and not pattern.startswith(("linked", "..")):
        assert pdf == workspace / "reports" / "z-real.pdf" and why is None


def test_a_refused_pdf_is_said_in_the_step_log(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    _workspace_with_links(tmp_path)
    audit = FakeAudit()
    run(make_env(tmp_path, fake, pdf="reports/*.pdf"), audit)
    assert "pdf" not in audit.requests[0].settings
    warning = "::warning::input pdf: reports/a-report.pdf is a symbolic link"
    assert warning in capsys.readouterr().out


@pytest.mark.parametrize("payload", ["[]", '"pull_request"', "42", "null"])
def test_an_event_that_is_not_an_object_exits_2(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str], payload: str
) -> None:
    env = make_env(tmp_path, fake)
    Path(env["GITHUB_EVENT_PATH"]).write_text(payload)
    assert main(env) == 2
    (line,) = capsys.readouterr().out.strip().splitlines()
    assert line.startswith("::error::") and "not an object" in line
    assert not fake.requests


def test_an_audit_that_raises_is_explained_and_still_gates(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(request: AuditRequest) -> FakeAudit:
        request.out_dir.mkdir(parents=True)
        (request.out_dir / "trace.jsonl").write_text("{}\n")
        raise ConfigError("the rubric file rubric.json is not valid JSON")

    env = make_env(tmp_path, fake)
    assert action(config_from_env(env), publisher_factory, broken) == 2
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("::error::") and "rubric.json is not valid JSON" in last
    # What it left behind is not named: an audit that raised cannot vouch for that folder.
    assert outputs(tmp_path) == {
        "score": "",
        "conclusion": "failure",
        "report-path": "",
        "sarif-path": "",
    }
    (check,) = fake.check_runs.values()
    assert check["conclusion"] == "failure" and "not valid JSON" in check["output"]["summary"]


def test_a_critical_outcome_points_report_path_at_the_partial_state(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    from action_support import Outcome

    def critical(request: AuditRequest) -> Outcome:
        request.out_dir.mkdir(parents=True)
        partial = request.out_dir / "partial_state.json"
        partial.write_text("{}")
        return Outcome(None, 3, {"partial": partial}, error="no judge could take part")

    assert action(config_from_env(make_env(tmp_path, fake)), publisher_factory, critical) == 3
    assert "no judge could take part" in capsys.readouterr().out
    assert outputs(tmp_path)["report-path"] == "courtroom-report/partial_state.json"


def test_an_unmounted_runner_temp_falls_back_to_the_default(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake)
    env["RUNNER_TEMP"] = "/home/runner/work/_temp"  # the host's path, not mounted here
    assert not Path(env["RUNNER_TEMP"]).exists()
    audit = FakeAudit()
    assert run(env, audit) == 1
    cache = audit.requests[0].cache_dir
    assert cache is not None and Path(os.path.commonpath([cache, tmp_path])) != tmp_path
    assert len(fake.check_runs) == 1


def test_new_inputs_reach_the_audit_settings(tmp_path: Path, fake: FakeGitHub) -> None:
    env = make_env(
        tmp_path, fake, provider="bedrock", max_cost="2.5", max_concurrency="4",
        judge_timeout="900", clone_timeout="60",
    )
    audit = FakeAudit()
    run(env, audit)
    assert audit.requests[0].settings == {
        "provider": "bedrock",
        "max_cost_usd": 2.5,
        "max_concurrency": 4,
        "judge_timeout": 900.0,
        "clone_timeout": 60.0,
    }
    vertex = make_env(tmp_path, fake, provider="vertex", vertex_project="proj-1",
                      vertex_region="europe-west1", aws_region="us-east-1")
    run(vertex, audit)
    assert {k: audit.requests[-1].settings.get(k) for k in ("region", "project_id")} == {
        "region": "europe-west1", "project_id": "proj-1"
    }
    bedrock = make_env(tmp_path, fake, provider="bedrock", aws_region="us-east-1",
                       vertex_project="proj-1")
    run(bedrock, audit)
    assert audit.requests[-1].settings["region"] == "us-east-1"
    assert "project_id" not in audit.requests[-1].settings
    for key, value in [("provider", "azure"), ("max-cost", "0"), ("max-concurrency", "65"),
                       ("judge-timeout", "-1"), ("clone-timeout", "soon")]:
        bad = make_env(tmp_path, fake, **{key.replace("-", "_"): value})
        assert main(bad) == 2, key


def test_the_pipeline_runner_maps_settings_onto_the_audit_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from courtroom import pipeline
    from courtroom.publish.github.runners import pipeline_runner

    seen = []
    monkeypatch.setattr(pipeline, "audit", lambda config, trace: seen.append(config))
    fields = {"provider": "vertex", "max_cost_usd": 1.0, "max_concurrency": 3,
              "judge_timeout": 120.0, "clone_timeout": 30.0, "region": "europe-west1",
              "project_id": "proj-1"}
    request = AuditRequest(
        workspace=tmp_path, out_dir=tmp_path / "out", display_name="o/r", commit=HEAD,
        api_key=None, settings=fields,
    )
    pipeline_runner(request)
    (config,) = seen
    assert {k: getattr(config, k) for k in fields} == fields
    assert config.judges == "anthropic"  # Vertex needs no Anthropic key to run Claude


@pytest.mark.slow
def test_a_forged_state_buys_no_opinion_from_the_real_bench(
    tmp_path: Path, fake: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack as reported: the PR author re-posts our comment's state on a new PR.

    The real pipeline and Claude judges (a local fake) run three times: our audit of PR #2,
    the audit of PR #3 where only the attacker's copy exists (every judge is asked again and
    the copy is never edited), then a re-audit of PR #3 that reuses our own state (no call:
    so the state would have been used, had it been trusted).
    """
    from builders import head_sha, make_repo
    from fakes.anthropic_server import FakeAnthropic

    from courtroom.publish.github.runners import pipeline_runner

    workspace = make_repo(tmp_path / "workspace", files={"src/app.py": "print('hi')\n"})
    sha = head_sha(workspace)
    fake.pulls.update({2: sha, 3: sha})
    claude = FakeAnthropic().start()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", claude.url)
    calls: list[int] = []

    def audit_pr(number: int) -> None:
        env = make_env(tmp_path, fake, anthropic_api_key="sk-ant-test")
        event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text())
        event["number"] = event["pull_request"]["number"] = number
        event["pull_request"]["head"]["sha"] = sha
        Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
        before = len(claude.requests)
        action(config_from_env(env), publisher_factory, pipeline_runner)
        calls.append(len(claude.requests) - before)

    try:
        audit_pr(2)
        (ours,) = [c["body"] for c in fake.comments.values() if c["issue"] == 2]
        fake.comments[1] = {"issue": 3, "body": ours, "login": "mallory"}
        audit_pr(3)
        audit_pr(3)
    finally:
        claude.stop()
    assert calls[0] >= 30 and calls[1] == calls[0] and calls[2] == 0, calls
    assert fake.comments[1] == {"issue": 3, "body": ours, "login": "mallory"}
    assert len([c for c in fake.comments.values() if c["login"] == fake.login]) == 2


def test_with_a_signing_key_only_a_signed_state_seeds_opinions(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    """Another workflow posting as the same bot cannot seed opinions when a key is set."""
    env = make_env(tmp_path, fake)
    env["COURTROOM_SIGNING_KEY"] = "state-key"
    run(env, FakeAudit())
    (cid,) = fake.comments
    assert "courtroom:state-hmac" in fake.comments[cid]["body"]
    again = FakeAudit()
    run(env, again)
    assert again.reused == 14 and again.asked == 0  # our own signed state is used
    body = fake.comments[cid]["body"]
    fake.comments[cid]["body"] = body.split("\n<!-- courtroom:state-hmac")[0]  # unsigned copy
    unsigned = FakeAudit()
    run(env, unsigned)
    assert unsigned.reused == 0 and unsigned.asked == 14
    assert len(fake.comments) == 1  # still our comment: edited, not duplicated


def test_a_hostile_failure_reason_is_shown_inert(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    def hostile(request: AuditRequest) -> FakeAudit:
        raise ConfigError("bad file [click](https://evil.example) for @org/team\u202e\n::set-env")

    action(config_from_env(make_env(tmp_path, fake)), publisher_factory, hostile)
    lines = capsys.readouterr().out.strip().splitlines()
    # One error line and no injected command (the workspace holds no base commit: a warning).
    (line,) = [ln for ln in lines if ln.startswith("::error::")]
    assert all(ln.startswith(("::error::", "::warning::")) for ln in lines)
    assert "\u202e" not in line and "@org" not in line
    (check,) = fake.check_runs.values()
    summary = check["output"]["summary"]
    assert "](https://" not in summary and "@org" not in summary and "\u202e" not in summary
    assert "@org" not in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize("rubric", ["rubric.json", "../rubric.json"])
def test_the_rubric_input_never_follows_a_link_or_leaves_the_workspace(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str], rubric: str
) -> None:
    env = make_env(tmp_path, fake, rubric=rubric)
    (tmp_path / "rubric.json").write_text("{}")
    (tmp_path / "workspace" / "rubric.json").symlink_to(tmp_path / "rubric.json")
    audit = FakeAudit()
    with pytest.raises(ConfigError, match="input rubric"):
        action(config_from_env(env), publisher_factory, audit)
    assert not audit.requests
    env["INPUT_RUBRIC"] = "rubric.json"
    assert main(env) == 2  # the whole action: one line, exit 2
    assert capsys.readouterr().out.startswith("::error::courtroom: input rubric")


def test_the_rubric_input_names_a_bundled_rubric_but_never_an_outside_path(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake, rubric="automaton-auditor", fail_on_uncovered="true")
    audit = FakeAudit()
    run(env, audit)
    (request,) = audit.requests
    assert request.settings["rubric_path"].resolve() == default_rubric_path().resolve()
    assert request.settings["fail_on_uncovered"] is True
    # A file of that name in the checkout is the PR's, and wins; an outside path never reads.
    (tmp_path / "workspace" / "automaton-auditor").write_text("{}")
    run(env, audit)
    named = audit.requests[-1].settings["rubric_path"]
    assert named == tmp_path / "workspace" / "automaton-auditor"
    for outside in (str(default_rubric_path()), "../automaton-auditor"):
        with pytest.raises(ConfigError, match="input rubric"):
            action(config_from_env({**env, "INPUT_RUBRIC": outside}), publisher_factory, audit)


def test_inputs_spelled_with_underscores_reach_a_docker_url_step(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    # `uses: docker://...` has no action.yml: its inputs come from `env:`, with underscores.
    env = make_env(tmp_path, fake)
    env["INPUT_FAIL_BELOW"] = "4.5"
    env["INPUT_CHECK_NAME"] = "gate"
    del env["INPUT_CHECK-NAME"]
    config = config_from_env(env)
    assert config.check_name == "gate" and config.settings["fail_below"] == 4.5
