"""The action end to end against the fake GitHub: events, publishing, fallbacks, packaging."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from action_support import (
    HEAD,
    MERGE,
    FakeAudit,
    Outcome,
    fake_github,
    make_env,
    outputs,
    publisher_factory,
    run,
)
from fakes.github_server import FakeGitHub
from verdict_builders import make_verdict

from courtroom.publish.github.action import AuditRequest, action, main
from courtroom.publish.github.event import config_from_env
from courtroom.render.state import COMMENT_MARKER, decode_state

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    yield from fake_github()


def test_first_run_creates_comment_and_check_on_the_pr_head(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    audit = FakeAudit()
    assert run(make_env(tmp_path, fake, pdf="reports/*.pdf"), audit) == 1
    (comment,) = fake.comments.values()
    assert comment["issue"] == 2 and comment["body"].startswith(COMMENT_MARKER)
    (check,) = fake.check_runs.values()
    assert check["head_sha"] == HEAD != MERGE
    assert check["conclusion"] == "failure" and check["name"] == "courtroom"
    out = outputs(tmp_path)
    assert out == {
        "score": "3.00",
        "conclusion": "failure",
        "report-path": "courtroom-report/report.md",
        "sarif-path": "",
    }
    workspace = tmp_path / "workspace"
    assert json.loads((workspace / "courtroom-report" / "verdict.json").read_text())["conclusion"]
    assert "## Executive summary" in (tmp_path / "summary.md").read_text()
    assert audit.requests[0].commit == HEAD
    # No match: the literal path is kept, and the audit reports the PDF as not found.
    assert audit.requests[0].settings["pdf"] == workspace / "reports/*.pdf"
    assert "ghs_secret_token_value" not in capsys.readouterr().err + comment["body"]


def test_second_run_edits_the_same_comment_and_reuses_opinions(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    env = make_env(tmp_path, fake)
    first = FakeAudit()
    run(env, first)
    assert first.reused == 0 and first.asked == 14  # 15 opinions, one judge fell back
    second = FakeAudit(make_verdict(overall=3.4))
    run(env, second)
    assert len(fake.comments) == 1 and len(fake.writes("POST", "/comments")) == 1
    body = next(iter(fake.comments.values()))["body"]
    assert "(+0.40 since last audit)" in body
    assert second.reused == 14 and second.asked == 0  # nothing changed: no judge asked
    changed = FakeAudit(inputs="v2")  # new evidence: every key differs, nothing reused
    run(env, changed)
    assert changed.reused == 0 and changed.asked == 14
    assert decode_state(body) is not None


def test_120_findings_become_batched_annotations(tmp_path: Path, fake: FakeGitHub) -> None:
    run(make_env(tmp_path, fake), FakeAudit(make_verdict(findings=120)))
    (check,) = fake.check_runs.values()
    batches = [
        len(r["body"]["output"].get("annotations", [])) for r in fake.writes(contains="check-runs")
    ]
    assert len(check["annotations"]) >= 120 and max(batches) <= 50 and len(batches) >= 3


@pytest.mark.parametrize("key", ["", "a-signing-key"])
def test_a_huge_report_still_fits(tmp_path: Path, fake: FakeGitHub, key: str) -> None:
    env = make_env(tmp_path, fake)
    if key:
        env["COURTROOM_SIGNING_KEY"] = key
    run(env, FakeAudit(make_verdict(huge=True, findings=120)))
    (comment,) = fake.comments.values()
    assert len(comment["body"].encode()) <= 65536
    assert ("courtroom:state-hmac" in comment["body"]) == bool(key)
    assert len(fake.check_runs) == 1
    first = fake.writes("POST", "check-runs")[0]["body"]["output"]
    assert len(first["summary"].encode()) <= 65535 and len(first["text"].encode()) <= 65535
    assert len((tmp_path / "workspace/courtroom-report/report.md").read_text()) > 200_000


def test_fork_pr_falls_back_to_workflow_annotations(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.read_only = True
    assert run(make_env(tmp_path, fake), FakeAudit(make_verdict(findings=3))) == 1
    out = capsys.readouterr().out
    assert re.search(r"^::error file=pkg/mod000\.py,line=1,", out, re.M)
    assert "read-only" in (tmp_path / "summary.md").read_text()
    assert (tmp_path / "workspace/courtroom-report/report.md").exists()
    assert not fake.comments and not fake.check_runs


def test_flaky_502_on_a_write_is_retried(tmp_path: Path, fake: FakeGitHub) -> None:
    fake.fail("POST", r"/comments$", 502)
    fake.fail("POST", r"/check-runs$", 502)
    assert run(make_env(tmp_path, fake), FakeAudit(exit_code=0)) == 0
    assert len(fake.comments) == 1 and len(fake.check_runs) == 1


def test_workflow_dispatch_posts_on_the_selected_pr_head(tmp_path: Path, fake: FakeGitHub) -> None:
    env = make_env(tmp_path, fake, "workflow_dispatch", pr_number="2")
    run(env, FakeAudit())
    assert any(r["path"].endswith("/pulls/2") for r in fake.requests)
    (check,) = fake.check_runs.values()
    assert check["head_sha"] == HEAD
    assert [c["issue"] for c in fake.comments.values()] == [2]


def test_push_audits_the_pushed_commit_without_comment(tmp_path: Path, fake: FakeGitHub) -> None:
    run(make_env(tmp_path, fake, "push"), FakeAudit())
    assert not fake.comments
    assert [c["head_sha"] for c in fake.check_runs.values()] == [HEAD]


def test_enterprise_api_url(tmp_path: Path) -> None:
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.pulls[2] = HEAD
        env = make_env(tmp_path, fake, "workflow_dispatch", pr_number="2")
        assert env["GITHUB_API_URL"].endswith("/api/v3")
        run(env, FakeAudit())
    assert fake.violations == [] and fake.response_violations == []
    assert len(fake.check_runs) == 1 and len(fake.comments) == 1
    rest = [r["path"] for r in fake.requests if r["path"] != "/api/graphql"]
    assert all(path.startswith("/repos/") for path in rest) and len(rest) < len(fake.requests)


def test_workflow_run_publishes_a_verdict_from_an_unprivileged_run(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    """The fork pattern: run A audited without secrets, run B publishes its verdict.json."""
    from courtroom.integrity import seal

    env = make_env(tmp_path, fake, "workflow_run", pr_number="2", verdict="artifact/verdict.json")
    event = {"action": "completed", "workflow_run": {"head_sha": HEAD, "pull_requests": []}}
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
    artifact = tmp_path / "workspace" / "artifact"
    artifact.mkdir()
    (artifact / "verdict.json").write_text(seal(make_verdict()).model_dump_json())
    assert main(env | {"GITHUB_API_URL": fake.api_url}) == 1  # the verdict's failure
    (check,) = fake.check_runs.values()
    assert check["head_sha"] == HEAD and check["conclusion"] == "failure"
    assert [c["issue"] for c in fake.comments.values()] == [2]


@pytest.mark.parametrize(
    ("forge", "why"),
    [
        ("rechain", "does not match"),  # a forged pass under the old chain
        ("strip", "carries no integrity chain"),  # integrity: null and a forged pass
        # The chain recomputed without a key: the numbers are not the rules' own.
        ("recompute", "overall score: 5 recorded, 3 recomputed"),
    ],
)
def test_an_altered_verdict_is_refused(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str], forge: str, why: str
) -> None:
    from courtroom.integrity import chain, seal

    env = make_env(tmp_path, fake, "workflow_run", pr_number="2", verdict="v.json")
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps({"workflow_run": {"head_sha": HEAD}}))
    sealed = json.loads(seal(make_verdict()).model_dump_json())
    sealed["overall_score"], sealed["conclusion"] = 5.0, "success"  # a forged pass
    if forge == "strip":
        sealed["integrity"] = None
    if forge == "recompute":
        sealed["integrity"] = chain(sealed)
    (tmp_path / "workspace" / "v.json").write_text(json.dumps(sealed))
    assert main(env) == 2
    out = capsys.readouterr().out
    assert "refusing to publish" in out and why in out
    assert not fake.comments
    (check,) = fake.check_runs.values()  # the gate shows the refusal, it never passes
    assert check["conclusion"] == "failure" and check["head_sha"] == HEAD
    assert outputs(tmp_path)["conclusion"] == "failure"


def test_a_verdict_must_carry_a_valid_hmac_when_a_key_is_set(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """Re-chained after tampering: the chain holds, only the HMAC can tell."""
    from courtroom.integrity import seal

    env = make_env(tmp_path, fake, "workflow_run", pr_number="2", verdict="v.json")
    env["COURTROOM_SIGNING_KEY"] = "the-real-key"
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps({"workflow_run": {"head_sha": HEAD}}))
    forged = make_verdict().model_copy(update={"overall_score": 5.0, "conclusion": "success"})
    path = tmp_path / "workspace" / "v.json"
    path.write_text(seal(forged, b"a-guessed-key").model_dump_json())
    assert main(env) == 2
    assert "signature does not match" in capsys.readouterr().out
    assert [r["conclusion"] for r in fake.check_runs.values()] == ["failure"]
    fake.check_runs.clear()
    path.write_text(seal(make_verdict(), b"the-real-key").model_dump_json())
    assert main(env) == 1  # signed with the key: published, with its own conclusion
    (check,) = fake.check_runs.values()
    assert check["output"]["title"] != "The audit could not complete"


def test_sarif_path_names_the_findings_beside_the_verdict(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    def with_sarif(request: AuditRequest) -> Outcome:
        request.out_dir.mkdir(parents=True)
        sarif = request.out_dir / "findings.sarif"
        sarif.write_text('{"version": "2.1.0", "runs": []}')
        return Outcome(make_verdict(), 1, {"sarif": sarif})

    action(config_from_env(make_env(tmp_path, fake)), publisher_factory, with_sarif)
    assert outputs(tmp_path)["sarif-path"] == "courtroom-report/findings.sarif"


def test_comment_can_be_turned_off(tmp_path: Path, fake: FakeGitHub) -> None:
    run(make_env(tmp_path, fake, comment="false"), FakeAudit())
    assert not fake.comments and len(fake.check_runs) == 1


def test_publish_failure_keeps_the_verdict_and_its_status(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.fail("POST", r"/check-runs$", 422, times=2, message="Validation Failed")
    assert run(make_env(tmp_path, fake), FakeAudit(exit_code=1)) == 1
    assert "::warning::Courtroom could not publish" in capsys.readouterr().out
    assert outputs(tmp_path)["conclusion"] == "failure"


def test_critical_audit_fails_the_check(tmp_path: Path, fake: FakeGitHub) -> None:
    def broken(request: AuditRequest) -> Outcome:
        return Outcome(None, 3, error="no judge could take part")

    assert action(config_from_env(make_env(tmp_path, fake)), publisher_factory, broken) == 3
    runs = [r for r in fake.check_runs.values() if r["output"]["title"].startswith("The audit")]
    assert runs and runs[0]["conclusion"] == "failure"
    assert "did not complete" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize("token", ["", "   "])
def test_missing_token_is_one_clear_line(
    tmp_path: Path, fake: FakeGitHub, token: str, capsys: pytest.CaptureFixture[str]
) -> None:
    env = make_env(tmp_path, fake)
    env["INPUT_GITHUB-TOKEN"] = token
    assert main(env) == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "github-token" in out[0] and out[0].startswith("::error::")
    assert not fake.requests


def test_bad_inputs_exit_2(tmp_path: Path, fake: FakeGitHub) -> None:
    for key, value in [
        ("INPUT_FAIL-BELOW", "high"),
        ("INPUT_FAIL-BELOW", "7"),
        ("INPUT_COMMENT", "maybe"),
        ("INPUT_PR-NUMBER", "x"),
    ]:
        env = make_env(tmp_path, fake, "workflow_dispatch")
        env[key] = value
        assert main(env) == 2, key
    env = make_env(tmp_path, fake, "workflow_dispatch", pr_number="404")
    assert main(env) == 2  # the PR does not exist: said once, no traceback


def test_checkout_of_the_merge_commit_is_pointed_out(tmp_path: Path) -> None:
    from builders import head_sha, make_repo

    from courtroom.publish.github.checkout import checkout_mismatch

    repo = make_repo(tmp_path / "repo", files={"a.py": "x = 1\n"})
    assert checkout_mismatch(repo, head_sha(repo)) is None
    warning = checkout_mismatch(repo, HEAD)
    assert warning and "pull_request.head.sha" in warning
    assert checkout_mismatch(tmp_path, HEAD) is None  # not a git checkout: nothing to say
