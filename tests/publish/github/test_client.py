"""Publisher against the contract-validating fake GitHub: comments, check runs, retries."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakes.github_server import FakeGitHub, validate
from verdict_builders import make_verdict

from courtroom.errors import PublishError
from courtroom.publish.github.annotations import (
    findings,
)
from courtroom.publish.github.client import Publisher, ReadOnlyTokenError
from courtroom.publish.protocol import PullCommits
from courtroom.render.state import COMMENT_MARKER

SHA = "4b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c"
BASE = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub() as server:
        yield server
    assert server.violations == [] and server.response_violations == []


@pytest.fixture
def sleeps() -> list[float]:
    return []


def publisher(fake: FakeGitHub, sleeps: list[float], **kwargs: object) -> Publisher:
    return Publisher(
        "ghs_test", fake.api_url, fake.repo, throttle=False, sleep=sleeps.append, **kwargs
    )  # type: ignore[arg-type]


def check(pub: Publisher, n: int = 0, conclusion: str = "failure") -> int:
    notes = findings(make_verdict(findings=n))
    run = pub.publish_check_run(
        name="courtroom",
        head_sha=SHA,
        conclusion=conclusion,
        title="t",
        summary="s",
        text="x",
        annotations=notes,
    )
    assert run.annotations_failed == 0
    return run.id


def test_sticky_comment_is_created_once_then_edited(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.comments[1] = {"issue": 7, "body": "LGTM from a human"}
    pub = publisher(fake, sleeps)
    pub.upsert_comment(7, f"{COMMENT_MARKER}\nfirst")
    pub.upsert_comment(7, f"{COMMENT_MARKER}\nsecond")
    ours = [c for c in fake.comments.values() if COMMENT_MARKER in c["body"]]
    assert len(ours) == 1 and ours[0]["body"].endswith("second")
    assert len(fake.writes("POST")) == 1 and len(fake.writes("PATCH")) == 1


def test_a_quoted_marker_is_not_our_comment(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.comments[1] = {"issue": 7, "body": f"> {COMMENT_MARKER}\n> score 2\n\nWhy so low?"}
    pub = publisher(fake, sleeps)
    assert pub.find_comment(7) is None
    pub.upsert_comment(7, f"{COMMENT_MARKER}\nverdict")
    assert fake.comments[1]["body"].endswith("Why so low?") and len(fake.comments) == 2


def test_marker_found_past_the_first_page(fake: FakeGitHub, sleeps: list[float]) -> None:
    for i in range(1, 46):
        fake.comments[i] = {"issue": 7, "body": f"chatter {i}"}
    fake.comments[46] = {"issue": 7, "body": f"{COMMENT_MARKER}\nold"}
    pub = publisher(fake, sleeps)
    found = pub.find_comment(7)
    assert found is not None and found.id == 46
    pub.upsert_comment(7, f"{COMMENT_MARKER}\nnew")
    assert fake.comments[46]["body"].endswith("new") and not fake.writes("POST")


def test_120_findings_are_annotated_in_batches_of_50(fake: FakeGitHub, sleeps: list[float]) -> None:
    run_id = check(publisher(fake, sleeps), n=120)
    run = fake.check_runs[run_id]
    sizes = [len((r["body"].get("output") or {}).get("annotations") or []) for r in fake.writes()]
    assert max(sizes) <= 50 and sum(sizes) == len(run["annotations"]) >= 120
    assert [r["method"] for r in fake.writes()] == ["POST", "PATCH", "PATCH"]
    assert run["head_sha"] == SHA and run["conclusion"] == "failure" and run["name"] == "courtroom"
    assert all(
        a["annotation_level"] in ("notice", "warning", "failure") for a in run["annotations"]
    )


def test_flaky_502_on_create_is_retried_without_duplicates(
    fake: FakeGitHub, sleeps: list[float]
) -> None:
    fake.fail("POST", r"/check-runs$", 502, times=2, message="Bad Gateway")
    run_id = check(publisher(fake, sleeps, backoff=0.5))
    assert list(fake.check_runs) == [run_id]
    assert sleeps == [0.5, 1.0]


def test_flaky_502_on_annotation_patch_is_retried(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.fail("PATCH", r"/check-runs/\d+$", 502)
    run_id = check(publisher(fake, sleeps), n=60)
    assert len(fake.check_runs[run_id]["annotations"]) >= 60 and len(sleeps) == 1


def test_secondary_rate_limit_waits_as_told(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.fail(
        "POST",
        r"/comments$",
        403,
        headers={"retry-after": "7"},
        message="You have exceeded a secondary rate limit",
    )
    fake.fail("POST", r"/comments$", 429, headers={"retry-after": "2"})
    publisher(fake, sleeps).upsert_comment(3, COMMENT_MARKER)
    assert sleeps == [7.0, 2.0] and len(fake.comments) == 1


def test_read_only_token_is_reported_as_such(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.read_only = True
    with pytest.raises(ReadOnlyTokenError):
        publisher(fake, sleeps).upsert_comment(3, COMMENT_MARKER)
    assert sleeps == []


def test_client_errors_are_not_retried_and_server_errors_give_up(
    fake: FakeGitHub, sleeps: list[float]
) -> None:
    pub = publisher(fake, sleeps, attempts=3)
    with pytest.raises(PublishError, match="HTTP 404"):
        pub.pull_commits(99)
    assert sleeps == []
    fake.fail("POST", r"/check-runs$", 500, times=10)
    with pytest.raises(PublishError, match="HTTP 500"):
        check(pub)
    assert len(sleeps) == 2 and any("retry 2/3" in line for line in pub.log)


def test_a_pull_requests_files_are_read_over_every_page_with_both_names_of_a_rename(
    fake: FakeGitHub, sleeps: list[float]
) -> None:
    fake.pulls[4] = SHA
    fake.files[4] = [{"filename": f"src/m{n}.py"} for n in range(40)]
    fake.files[4].append({"filename": "new.yml", "status": "renamed",
                          "previous_filename": ".github/courtroom.yml"})
    paths = publisher(fake, sleeps).pull_files(4)
    assert paths[:2] == ["src/m0.py", "src/m1.py"] and len(paths) == 42
    assert paths[-2:] == ["new.yml", ".github/courtroom.yml"]
    pages = [r for r in fake.requests if r["path"].endswith("/pulls/4/files")]
    assert len(pages) == 2  # 30 a page by default: the second page was read too


def test_a_file_list_cut_at_githubs_cap_or_refused_is_an_error_not_a_short_list(
    fake: FakeGitHub, sleeps: list[float]
) -> None:
    fake.pulls[4] = SHA
    fake.files[4] = [{"filename": f"f{n}", "status": "added"} for n in range(3005)]
    pub = publisher(fake, sleeps)
    with pytest.raises(PublishError, match="GitHub listed 3000 of the 3005 files pull #4"):
        pub.pull_files(4)
    with pytest.raises(PublishError, match="list files of pull #9 failed: HTTP 404"):
        pub.pull_files(9)


def test_enterprise_api_prefix(sleeps: list[float]) -> None:
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.pulls[5] = SHA
        pub = publisher(fake, sleeps)
        fake.bases[5] = BASE
        assert pub.pull_commits(5) == PullCommits(SHA, BASE)
        pub.upsert_comment(5, COMMENT_MARKER)
        check(pub, n=3)
    rest = [r["path"] for r in fake.requests if r["path"] != "/api/graphql"]
    assert all(path.startswith("/repos/") for path in rest) and len(rest) < len(fake.requests)
    assert fake.violations == [] and len(fake.check_runs) == 1


def test_fake_enforces_the_contract() -> None:
    ops = FakeGitHub.__new__(FakeGitHub)
    from fakes.github_server import load_operations

    ops.operations = load_operations()
    schema = ops.operation("POST", "/repos/o/r/check-runs")["request"]
    note = {
        "path": "a.py",
        "start_line": 1,
        "end_line": 1,
        "annotation_level": "failure",
        "message": "m",
    }
    good = {
        "name": "c",
        "head_sha": SHA,
        "status": "completed",
        "conclusion": "success",
        "output": {"title": "t", "summary": "s", "annotations": [note] * 50},
    }
    assert validate(good, schema) == []
    assert validate({**good, "output": {**good["output"], "annotations": [note] * 51}}, schema)
    assert validate({**good, "conclusion": "passed"}, schema)
    assert validate({"name": "c", "head_sha": SHA, "status": "completed"}, schema)
    assert validate({**good, "output": {"title": "t", "summary": "x" * 65536}}, schema)


def test_the_github_tests_carry_their_own_contract() -> None:
    """A bare clone has nothing beside it: the fakes read only tests/fixtures."""
    from pathlib import Path

    from fakes.github_server import CONTRACT, PAYLOADS

    tests = Path(__file__).resolve().parents[2]
    assert CONTRACT.is_relative_to(tests) and PAYLOADS.is_relative_to(tests)
    folder = "sha" + "red"  # spelt apart so this test does not find itself
    needles = (f'"{folder}"', f"../{folder}")
    for source in [*tests.rglob("test_*.py"), *tests.glob("fakes/*.py")]:
        text = source.read_text(encoding="utf-8")
        assert not any(n in text for n in needles), source.name


def test_only_comments_by_our_own_identity_are_ours(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.comments[1] = {"issue": 7, "body": f"{COMMENT_MARKER}\nforged", "login": "mallory"}
    fake.comments[2] = {"issue": 7, "body": f"{COMMENT_MARKER}\nours"}
    pub = publisher(fake, sleeps)
    assert pub.identity() == "github-actions[bot]"
    found = pub.find_comment(7)
    assert found is not None and found.id == 2
    pub.upsert_comment(7, f"{COMMENT_MARKER}\nnew")
    assert fake.comments[1]["body"].endswith("forged") and fake.comments[2]["body"].endswith("new")
    graphql = [r for r in fake.requests if r["path"] == "/graphql"]
    assert len(graphql) == 1  # asked once, then remembered


def test_an_app_token_is_its_own_bot(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.login = "courtroom-app[bot]"
    fake.comments[1] = {"issue": 7, "body": f"{COMMENT_MARKER}\nby actions"}
    pub = publisher(fake, sleeps)
    assert pub.find_comment(7) is None
    pub.upsert_comment(7, f"{COMMENT_MARKER}\nby the app")
    assert len(fake.comments) == 2 and fake.comments[1]["body"].endswith("by actions")


def test_a_failed_annotation_batch_leaves_the_run_standing(
    fake: FakeGitHub, sleeps: list[float]
) -> None:
    fake.fail("PATCH", r"/check-runs/\d+$", 422, times=1, message="Validation Failed")
    notes = findings(make_verdict(findings=120))
    run = publisher(fake, sleeps).publish_check_run(
        name="courtroom", head_sha=SHA, conclusion="failure", title="t", summary="s",
        text="x", annotations=notes,
    )
    assert fake.check_runs[run.id]["conclusion"] == "failure"
    assert run.annotations_failed == 50
    assert len(fake.check_runs[run.id]["annotations"]) == len(notes) - 50


def test_a_refused_first_batch_still_creates_the_run(fake: FakeGitHub, sleeps: list[float]) -> None:
    fake.fail("POST", r"/check-runs$", 422, times=1, message="Validation Failed")
    notes = findings(make_verdict(findings=60))
    run = publisher(fake, sleeps).publish_check_run(
        name="courtroom", head_sha=SHA, conclusion="failure", title="t", summary="s",
        text="x", annotations=notes,
    )
    assert fake.check_runs[run.id]["conclusion"] == "failure" and len(fake.check_runs) == 1
    assert run.annotations_failed == 50
    assert len(fake.check_runs[run.id]["annotations"]) == len(notes) - 50
    assert sleeps == []  # a 422 is not retried as such


def test_a_run_refused_without_annotations_is_reported(
    fake: FakeGitHub, sleeps: list[float]
) -> None:
    fake.fail("POST", r"/check-runs$", 422, times=2, message="Validation Failed")
    with pytest.raises(PublishError, match="HTTP 422"):
        check(publisher(fake, sleeps), n=0)
    assert not fake.check_runs and len(fake.writes("POST", "check-runs")) == 2
