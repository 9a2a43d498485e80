"""What the action was asked to do: inputs read as the runner passes them, one clear error
for each unusable one, the commit each event judges, and a PDF input that stays inside the
checkout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtroom.errors import ConfigError, PublishError
from courtroom.publish.github import event as event_module
from courtroom.publish.github.checkout import inside, resolve_pdf
from courtroom.publish.github.event import (
    ActionConfig,
    config_from_env,
    resolve_subject,
    temp_root,
)
from courtroom.publish.protocol import PullCommits

HEAD = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
BASE = "1234567890abcdef1234567890abcdef12345678"
TOKEN = "ghs_secret_token_value"


def environment(tmp_path: Path, event: object = None, **inputs: str) -> dict[str, str]:
    payload = tmp_path / "event.json"
    payload.write_text(json.dumps({} if event is None else event), encoding="utf-8")
    env = {"GITHUB_REPOSITORY": "octo-org/auditor", "GITHUB_EVENT_PATH": str(payload),
           "GITHUB_WORKSPACE": str(tmp_path), "INPUT_GITHUB-TOKEN": TOKEN}
    env.update({f"INPUT_{name.upper().replace('_', '-')}": value for name, value in inputs.items()})
    return env


class Pulls:
    """The one GitHub read resolve_subject makes, answered from a dict (base: BASE)."""

    def __init__(self, heads: dict[int, str]) -> None:
        self.heads = heads

    def pull_commits(self, number: int) -> PullCommits:
        if number not in self.heads:
            raise PublishError(f"GET /pulls/{number} -> HTTP 404")
        return PullCommits(head=self.heads[number], base=BASE)


def config(tmp_path: Path, event_name: str = "push", event: object = None,
           **inputs: str) -> ActionConfig:
    env = environment(tmp_path, event, **inputs)
    env["GITHUB_EVENT_NAME"] = event_name
    return config_from_env(env)


def test_inputs_are_read_with_hyphens_or_underscores_and_trimmed(tmp_path: Path) -> None:
    env = environment(tmp_path, fail_below=" 3.5 ", check_name="court")
    del env["INPUT_GITHUB-TOKEN"]
    env["INPUT_GITHUB_TOKEN"] = f"  {TOKEN}  "  # a docker:// step spells inputs this way
    read = config_from_env(env)
    assert (read.token, read.settings["fail_below"], read.check_name) == (TOKEN, 3.5, "court")
    assert read.comment and read.settings["provider"] == "anthropic"
    assert "max_cost_usd" not in read.settings
    assert "fail_on_uncovered" not in read.settings  # unset: the config file may still set it
    yes = config_from_env({**env, "INPUT_FAIL-ON-UNCOVERED": "Yes"})
    assert yes.settings["fail_on_uncovered"] is True
    assert config_from_env({**env, "INPUT_COMMENT": "off"}).comment is False


def test_the_configuration_never_shows_a_secret(tmp_path: Path) -> None:
    env = environment(tmp_path, anthropic_api_key="sk-ant-hidden")
    env["COURTROOM_SIGNING_KEY"] = "signing-hidden"
    shown = repr(config_from_env(env))
    assert TOKEN not in shown and "sk-ant-hidden" not in shown and "signing-hidden" not in shown


@pytest.mark.parametrize(("inputs", "message"), [
    ({"github_token": ""}, "input github-token is empty"),
    ({"comment": "maybe"}, "input comment must be true or false"),
    ({"fail_on_uncovered": "sometimes"}, "input fail-on-uncovered must be true or false"),
    ({"fail_below": "6"}, "input fail-below must be between 0 and 5"),
    ({"fail_below": "high"}, "input fail-below must be a number"),
    ({"pr_number": "two"}, "input pr-number must be a number"),
    ({"provider": "openai"}, "input provider must be one of anthropic, bedrock, vertex"),
    ({"max_concurrency": "0"}, "input max-concurrency must be between 1 and 64, got 0"),
    ({"max_concurrency": "65"}, "input max-concurrency must be between 1 and 64, got 65"),
    ({"max_concurrency": "many"}, "input max-concurrency must be a number"),
    ({"max_cost": "-1"}, "input max-cost must be greater than 0"),
    ({"judge_timeout": "soon"}, "input judge-timeout must be a number"),
])
def test_each_unusable_input_is_one_clear_error(
    tmp_path: Path, inputs: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_env(environment(tmp_path, **inputs))


def test_the_repository_and_the_payload_must_be_usable(tmp_path: Path) -> None:
    env = environment(tmp_path)
    with pytest.raises(ConfigError, match="GITHUB_REPOSITORY must be owner/name"):
        config_from_env({**env, "GITHUB_REPOSITORY": "auditor"})
    with pytest.raises(ConfigError, match="not an object"):
        config_from_env(environment(tmp_path, event=[1, 2]))
    with pytest.raises(ConfigError, match="cannot read the event payload"):
        config_from_env({**env, "GITHUB_EVENT_PATH": str(tmp_path / "missing.json")})


def test_each_provider_reads_only_its_own_region(tmp_path: Path) -> None:
    regions = {"aws_region": "eu-west-1", "vertex_region": "europe-west4",
               "vertex_project": "proj"}
    bedrock = config(tmp_path, provider="Bedrock", **regions)
    chosen = {k: bedrock.settings.get(k) for k in ("provider", "region", "project_id")}
    assert chosen == {"provider": "bedrock", "region": "eu-west-1", "project_id": None}
    vertex = config(tmp_path, provider="vertex", **regions)
    assert (vertex.settings["region"], vertex.settings["project_id"]) == ("europe-west4", "proj")
    assert "region" not in config(tmp_path, **regions).settings  # the Anthropic API has none


def test_a_pull_request_event_judges_its_head_and_names_its_base(tmp_path: Path) -> None:
    event = {"number": 7, "pull_request": {"head": {"sha": HEAD}, "base": {"sha": BASE}}}
    subject = resolve_subject(config(tmp_path, "pull_request_target", event), Pulls({}))
    assert (subject.head_sha, subject.pr_number, subject.base_sha) == (HEAD, 7, BASE)
    with pytest.raises(ConfigError, match=r"no pull_request\.head\.sha"):
        resolve_subject(config(tmp_path, "pull_request", {"number": 7}), Pulls({}))
    headless = {"pull_request": {"head": {"sha": HEAD}}}
    with pytest.raises(ConfigError, match="no pull request number"):
        resolve_subject(config(tmp_path, "pull_request", headless), Pulls({}))


def test_a_pr_number_input_asks_github_for_that_prs_commits(tmp_path: Path) -> None:
    dispatch = config(tmp_path, "workflow_dispatch", {"inputs": {"pr-number": "4"}})
    subject = resolve_subject(dispatch, Pulls({4: HEAD}))
    assert (subject.head_sha, subject.pr_number, subject.base_sha) == (HEAD, 4, BASE)
    with pytest.raises(ConfigError, match=r"cannot read pull request #4: .*HTTP 404"):
        resolve_subject(dispatch, Pulls({}))


def test_push_and_workflow_run_judge_their_own_commit(tmp_path: Path) -> None:
    pushed = resolve_subject(config(tmp_path, "push", {"after": HEAD}), Pulls({}))
    assert (pushed.head_sha, pushed.pr_number, pushed.base_sha) == (HEAD, None, None)
    run = config(tmp_path, "workflow_run", {"workflow_run": {"head_sha": "b" * 40}})
    assert resolve_subject(run, Pulls({})).head_sha == "b" * 40
    env = {**environment(tmp_path), "GITHUB_EVENT_NAME": "schedule", "GITHUB_SHA": "c" * 40}
    assert resolve_subject(config_from_env(env), Pulls({})).head_sha == "c" * 40
    with pytest.raises(ConfigError, match="cannot tell which commit to audit for event 'schedule'"):
        resolve_subject(config(tmp_path, "schedule"), Pulls({}))


def test_inside_means_real_folders_of_the_root(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "r.pdf").write_bytes(b"%PDF")
    (tmp_path / "linked").symlink_to(tmp_path / "docs")
    assert inside(tmp_path, tmp_path / "docs" / "r.pdf")
    assert not inside(tmp_path, tmp_path / "linked" / "r.pdf")  # a link in the way
    assert not inside(tmp_path, tmp_path / "docs" / ".." / "docs" / "r.pdf")
    assert not inside(tmp_path / "docs", tmp_path / "other.pdf")


def test_a_pdf_glob_takes_its_first_safe_match(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    outside = tmp_path.parent / f"{tmp_path.name}-secret.pdf"
    outside.write_bytes(b"%PDF")
    (reports / "a.pdf").symlink_to(outside)
    (reports / "b.pdf").write_bytes(b"%PDF")
    chosen = config(tmp_path, pdf="reports/*.pdf")
    assert resolve_pdf(chosen) == (reports / "b.pdf", None)
    assert resolve_pdf(config(tmp_path)) == (None, None)


def test_a_pdf_input_that_leaves_the_checkout_is_refused_with_the_reason(tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-secret.pdf"
    outside.write_bytes(b"%PDF")
    (tmp_path / "report.pdf").symlink_to(outside)
    pdf, why = resolve_pdf(config(tmp_path, pdf="report.pdf"))
    assert pdf is None and why is not None
    assert why.startswith("input pdf: report.pdf is a symbolic link or lies outside")
    pdf, why = resolve_pdf(config(tmp_path, pdf=str(outside)))
    assert pdf is None and why is not None and str(outside) in why


def test_a_pdf_that_is_not_there_is_kept_to_be_reported_missing(tmp_path: Path) -> None:
    assert resolve_pdf(config(tmp_path, pdf="docs/*.pdf")) == (tmp_path / "docs/*.pdf", None)
    assert resolve_pdf(config(tmp_path, pdf="report.pdf")) == (tmp_path / "report.pdf", None)


def test_runner_temp_is_used_only_when_it_is_a_writable_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert temp_root(None) is None and temp_root("") is None
    assert temp_root(str(tmp_path)) == tmp_path
    assert temp_root(str(tmp_path / "not-mounted")) is None
    assert "RUNNER_TEMP" in capsys.readouterr().err
    # A read-only mount (root in a container may write anywhere else, so the check is faked).
    monkeypatch.setattr(event_module.os, "access", lambda _path, _mode: False)
    assert temp_root(str(tmp_path)) is None


def test_fail_on_findings_is_all_or_new(tmp_path: Path) -> None:
    assert "fail_on_findings" not in config(tmp_path).settings
    assert config(tmp_path, fail_on_findings=" NEW ").settings["fail_on_findings"] == "new"
    with pytest.raises(ConfigError, match="input fail-on-findings must be one of all, new"):
        config(tmp_path, fail_on_findings="some")
