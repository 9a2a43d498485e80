"""Publish a verdict on GitHub with PyGithub: one sticky PR comment and one check run.

The sticky comment is the one our own identity wrote: GraphQL ``viewer { login }`` names
the token's account (``github-actions[bot]`` for a workflow's GITHUB_TOKEN, ``<app>[bot]``
for an app's installation token, the user for a personal token; REST ``GET /user`` is not
open to installation tokens). A comment by anyone else is never edited and its hidden
state never trusted, whatever marker it carries.

Every call goes through ``_call``, which retries what GitHub asks to be retried (secondary
rate limits: 403/429 with ``retry-after`` or an exhausted rate-limit header; 5xx; dropped
connections) with visible, bounded backoff. PyGithub's own retry is switched off so that
the only retry policy is this one. A 403 "Resource not accessible by integration" — the
read-only token of a fork PR — becomes ``ReadOnlyTokenError`` for the caller to fall back.
"""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import requests
from github import Auth, Github, GithubException
from github.IssueComment import IssueComment

from courtroom.errors import PublishError
from courtroom.publish.github.annotations import as_api, batches
from courtroom.publish.protocol import Annotation, CheckRun, PullCommits
from courtroom.render.state import COMMENT_MARKER

T = TypeVar("T")
MAX_WAIT = 60.0  # never sleep longer than this on one retry, whatever a header says
MAX_PULL_FILES = 3000  # GitHub lists no more of a pull request's files than this
VIEWER = "query { viewer { login } }"


class ReadOnlyTokenError(PublishError):
    """The token may read but not write here (typically a pull request from a fork)."""


def _header(headers: dict[str, Any] | None, name: str) -> str | None:
    for key, value in (headers or {}).items():
        if key.lower() == name:
            return str(value)
    return None


def _message(exc: GithubException) -> str:
    data = exc.data if isinstance(exc.data, dict) else {}
    return str(data.get("message") or exc.message or "")


def _backoff(base: float, attempt: int) -> float:
    return float(base * (1 << attempt))


def retry_delay(exc: GithubException, attempt: int, base: float, now: float) -> float | None:
    """Seconds to wait before retrying ``exc``, or None when it must not be retried."""
    status, headers = exc.status, exc.headers
    after = _header(headers, "retry-after")
    remaining = _header(headers, "x-ratelimit-remaining")
    secondary = "secondary rate limit" in _message(exc).lower() or "abuse" in _message(exc).lower()
    if status in (403, 429) and (after or remaining == "0" or secondary or status == 429):
        if after and after.isdigit():
            return min(MAX_WAIT, float(after))
        reset = _header(headers, "x-ratelimit-reset")
        if remaining == "0" and reset and reset.isdigit():
            return min(MAX_WAIT, max(1.0, float(reset) - now))
        return min(MAX_WAIT, max(60.0 * base, _backoff(base, attempt)))  # GitHub: ≥ 1 min
    if status >= 500:
        return min(MAX_WAIT, _backoff(base, attempt))
    return None


class Publisher:
    """Writes to one repository through the REST API at ``api_url`` (GHES works too)."""

    def __init__(
        self,
        token: str,
        api_url: str,
        repo: str,
        *,
        attempts: int = 5,
        backoff: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
        throttle: bool = True,
        timeout: int = 30,
    ) -> None:
        self._gh = Github(
            base_url=api_url.rstrip("/"),
            auth=Auth.Token(token),
            retry=None,  # one retry policy only: ours, bounded and logged
            lazy=True,  # no GET /repos/{owner}/{repo} just to build URLs
            timeout=timeout,
            seconds_between_requests=0.25 if throttle else None,
            seconds_between_writes=1.0 if throttle else None,  # GitHub's advice for writes
        )
        self._repo = self._gh.get_repo(repo)
        self._attempts, self._backoff, self._sleep = attempts, backoff, sleep
        self.log: list[str] = []
        self._login: str | None = None
        self._asked_login = False  # asked once per run, even when GitHub would not say

    def _note(self, line: str) -> None:
        self.log.append(line)
        print(f"courtroom: {line}", file=sys.stderr)

    def _call(self, what: str, fn: Callable[[int], T]) -> T:
        """Run ``fn(attempt)`` with retries; ``what`` names the call in messages."""
        for attempt in range(self._attempts):
            delay: float | None
            try:
                return fn(attempt)
            except GithubException as exc:
                if exc.status == 403 and "not accessible by integration" in _message(exc).lower():
                    why = f"{what}: the token cannot write here ({_message(exc)})"
                    raise ReadOnlyTokenError(why) from exc
                delay = retry_delay(exc, attempt, self._backoff, time.time())
                reason = f"HTTP {exc.status}"
                if delay is None or attempt + 1 == self._attempts:
                    raise PublishError(f"{what} failed: {reason} {_message(exc)}".strip()) from exc
            except requests.RequestException as exc:
                reason = type(exc).__name__
                delay = min(MAX_WAIT, _backoff(self._backoff, attempt))
                if attempt + 1 == self._attempts:
                    raise PublishError(f"{what} failed: {reason}") from exc
            self._note(f"{what}: {reason}; retry {attempt + 2}/{self._attempts} in {delay:.1f}s")
            self._sleep(delay)
        raise PublishError(f"{what} failed")  # unreachable: the loop returns or raises

    def pull_commits(self, number: int) -> PullCommits:
        """The head commit of pull request ``number`` and the base commit it is measured against."""
        # Attribute access is inside the call: a lazy object fetches on first use.
        return self._call(f"GET pull #{number}", lambda _: self._commits(number))

    def _commits(self, number: int) -> PullCommits:
        pull = self._repo.get_pull(number)
        return PullCommits(str(pull.head.sha), str(pull.base.sha))

    def pull_files(self, number: int) -> list[str]:
        """Every path pull request ``number`` adds, edits or removes (both names of a rename)."""
        return self._call(f"list files of pull #{number}", lambda _: self._files(number))

    def _files(self, number: int) -> list[str]:
        pull = self._repo.get_pull(number)
        paths, listed = list[str](), 0
        for entry in pull.get_files():
            listed += 1
            paths.extend(filter(None, (entry.filename, entry.previous_filename)))
        if listed >= MAX_PULL_FILES or listed < pull.changed_files:
            raise PublishError(f"GitHub listed {listed} of the {pull.changed_files} files pull "
                               f"#{number} changes; it lists at most {MAX_PULL_FILES:,}")
        return paths

    def identity(self) -> str | None:
        """The login the token acts as; None when GitHub would not say (then nothing is ours)."""
        if not self._asked_login:
            self._asked_login = True
            try:
                data = self._call("GraphQL viewer", lambda _: self._graphql(VIEWER))
            except PublishError as exc:
                self._note(f"cannot tell which account the token is ({exc}); no comment is ours")
                return None
            login = ((data.get("data") or {}).get("viewer") or {}).get("login")
            self._login = str(login) if login else None
        return self._login

    def _graphql(self, query: str) -> dict[str, Any]:
        # The requester's own POST: the same auth, timeout and GHES URL (/api/graphql) as
        # every REST call, on every PyGithub version we support.
        requester = self._repo._requester
        _, data = requester.requestJsonAndCheck(
            "POST", requester.graphql_url, input={"query": query}
        )
        if not isinstance(data, dict) or data.get("errors"):
            raise GithubException(400, data, None)
        return data

    def previous_body(self, number: int) -> str | None:
        """The text of our sticky comment on PR ``number``; None when there is none."""
        comment = self.find_comment(number)
        return None if comment is None else str(comment.body or "")

    def find_comment(self, number: int) -> IssueComment | None:
        """Our sticky comment on PR ``number``: by our identity, starting with the marker."""
        me = self.identity()
        if me is None:
            return None

        def scan(_: int) -> IssueComment | None:
            for comment in self._repo.get_issue(number).get_comments():
                # Ours start with the marker; a human's quote of it starts with ">".
                mine = comment.user is not None and comment.user.login == me
                if mine and (comment.body or "").lstrip().startswith(COMMENT_MARKER):
                    return comment
            return None

        return self._call(f"list comments of #{number}", scan)

    def upsert_comment(self, number: int, body: str) -> str:
        """Edit our comment in place, or create it; returns its URL."""
        def write(_: int) -> str:
            # Looked up on every attempt: a POST that failed with 502 may still have
            # landed, and a second comment is exactly what we promise never to make.
            existing = self.find_comment(number)
            if existing is not None:
                existing.edit(body)
                return str(existing.html_url)
            created = self._repo.get_issue(number).create_comment(body)
            return str(created.html_url)

        return self._call(f"write comment on #{number}", write)

    def reply(self, number: int, body: str) -> str:
        """A new, plain comment on issue or PR ``number`` (answers to slash commands)."""
        return self._call(
            f"reply on #{number}",
            lambda _: str(self._repo.get_issue(number).create_comment(body).html_url),
        )

    def permission(self, login: str) -> str:
        """``login``'s permission on the repository: admin, write, read or none."""
        return self._call(
            f"permission of {login}",
            lambda _: str(self._repo.get_collaborator_permission(login)),
        )

    def publish_check_run(
        self,
        *,
        name: str,
        head_sha: str,
        conclusion: str,
        title: str,
        summary: str,
        text: str,
        annotations: list[Annotation],
    ) -> CheckRun:
        """Create a completed check run; annotations go 50 per request (they append).

        A batch of annotations that cannot be added does not undo the run: the run is the
        merge gate, the annotations are only pointers into it.
        """
        marker = uuid.uuid4().hex  # lets a retried POST find the run a lost reply created
        chunks = list(batches(annotations)) or [[]]
        output: dict[str, Any] = {"title": title, "summary": summary, "text": text}

        def create(attempt: int) -> Any:
            if attempt:
                commit = self._repo.get_commit(head_sha)
                for run in commit.get_check_runs(check_name=name):
                    if run.external_id == marker:
                        return run
            first = {**output, "annotations": [as_api(a) for a in chunks[0]]}
            return self._repo.create_check_run(
                name=name, head_sha=head_sha, external_id=marker, status="completed",
                conclusion=conclusion, output=first,
            )

        failed = 0
        try:
            run = self._call(f"create check run {name!r}", create)
        except ReadOnlyTokenError:
            raise
        except PublishError as exc:
            refused = isinstance(exc.__cause__, GithubException) and exc.__cause__.status == 422
            if not (refused and chunks[0]):
                raise
            # An annotation GitHub will not take must not cost the gate its check run.
            self._note(f"{exc}; creating the run without its first annotations")
            failed, chunks[0] = len(chunks[0]), []
            run = self._call(f"create check run {name!r} without annotations", create)
        failed += self._append_annotations(run, output, chunks[1:])
        return CheckRun(int(run.id), failed)

    def _append_annotations(
        self, run: Any, output: dict[str, Any], chunks: list[list[Annotation]]
    ) -> int:
        """PATCH the batches after the first (annotations append); returns how many failed."""
        failed = 0
        for index, chunk in enumerate(chunks, start=2):
            more = {**output, "annotations": [as_api(a) for a in chunk]}

            def append(_: int, patch: dict[str, Any] = more) -> None:
                run.edit(output=patch)

            try:
                self._call(f"add annotations batch {index}/{len(chunks) + 1}", append)
            except PublishError as exc:  # the run stands; only these annotations are lost
                self._note(str(exc))
                failed += len(chunk)
        return failed
