"""Publishing through the seam: any PublishTarget takes the comment and the check run, each
write stands alone, and a read-only token turns the findings into workflow annotations."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from verdict_builders import make_verdict

from courtroom.errors import PublishError
from courtroom.publish.github.client import ReadOnlyTokenError
from courtroom.publish.github.event import ActionConfig, Subject
from courtroom.publish.github.publish import publish
from courtroom.publish.protocol import Annotation, CheckRun, PullCommits
from courtroom.render.markdown import COMMENT_LIMIT
from courtroom.render.state import trusted_state

HEAD = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"


@dataclass
class Target:
    """A publish target that records what it was given, or refuses as told."""

    refuse: dict[str, PublishError] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    runs: list[dict[str, object]] = field(default_factory=list)

    def pull_commits(self, number: int) -> PullCommits:
        return PullCommits(head=HEAD, base="b" * 40)

    def previous_body(self, number: int) -> str | None:
        return self.comments.get(number)

    def upsert_comment(self, number: int, body: str) -> str:
        if "comment" in self.refuse:
            raise self.refuse["comment"]
        self.comments[number] = body
        return f"https://example.test/{number}#comment"

    def reply(self, number: int, body: str) -> str:
        return self.upsert_comment(number, body)

    def permission(self, login: str) -> str:
        return "read"

    def publish_check_run(self, *, name: str, head_sha: str, conclusion: str, title: str,
                          summary: str, text: str, annotations: list[Annotation]) -> CheckRun:
        if "check run" in self.refuse:
            raise self.refuse["check run"]
        self.runs.append({"name": name, "head_sha": head_sha, "conclusion": conclusion,
                          "annotations": annotations})
        return CheckRun(id=len(self.runs), annotations_failed=1 if len(annotations) > 2 else 0)


def action_config(tmp_path: Path, **changes: object) -> ActionConfig:
    fields: dict[str, object] = {
        "token": "ghs_x", "repository": "octo-org/auditor", "workspace": tmp_path,
        "api_url": "https://api.github.com", "event_name": "pull_request", "event": {},
        "summary_path": tmp_path / "summary.md", "check_name": "courtroom"}
    return ActionConfig(**{**fields, **changes})


def test_a_pr_gets_a_comment_and_the_commit_a_check_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, verdict = Target(), make_verdict(findings=3)
    publish(action_config(tmp_path), target, Subject(HEAD, 7), verdict, None, {})
    (run,) = target.runs
    assert (run["head_sha"], run["conclusion"]) == (HEAD, verdict.conclusion)
    assert len(run["annotations"]) >= 3
    assert "courtroom:state" in target.comments[7]
    out = capsys.readouterr()
    assert "::warning::1 annotation(s) could not be added" in out.out
    assert "check run 'courtroom' #1" in out.err


def test_a_push_or_comment_false_publishes_only_the_check_run(tmp_path: Path) -> None:
    pushed, quiet = Target(), Target()
    publish(action_config(tmp_path), pushed, Subject(HEAD, None), make_verdict(), None, {})
    publish(action_config(tmp_path, comment=False), quiet, Subject(HEAD, 7), make_verdict(),
            None, {})
    assert not pushed.comments and not quiet.comments
    assert len(pushed.runs) == len(quiet.runs) == 1


def test_with_a_signing_key_the_comment_is_signed_and_still_fits(tmp_path: Path) -> None:
    target = Target()
    config = action_config(tmp_path, signing_key=b"key")
    publish(config, target, Subject(HEAD, 7), make_verdict(huge=True), None, {})
    body = target.comments[7]
    assert len(body) <= COMMENT_LIMIT
    assert trusted_state(body, b"key") is not None and trusted_state(body, b"other") is None


def test_a_refused_comment_never_stops_the_check_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = Target(refuse={"comment": PublishError("HTTP 502 three times")})
    publish(action_config(tmp_path), target, Subject(HEAD, 7), make_verdict(), None, {})
    assert len(target.runs) == 1
    out = capsys.readouterr().out
    assert "could not publish the comment to GitHub: HTTP 502 three times" in out
    assert not (tmp_path / "summary.md").exists()  # not read-only: nothing to explain there


def test_a_read_only_token_turns_findings_into_workflow_annotations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    no = ReadOnlyTokenError("the token cannot write here")
    target = Target(refuse={"comment": no, "check run": no})
    publish(action_config(tmp_path), target, Subject(HEAD, 7), make_verdict(findings=2), None, {})
    out = capsys.readouterr().out
    assert out.count("::error file=pkg/mod") == 2
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "refused to write the comment and the check run" in summary
