"""The publish seam: what a publish target offers (comment, check run, annotations).

The GitHub client implements it; tests hand in fakes. A new target (a merge-request note
elsewhere) implements this protocol and needs no change to the pipeline or the renderers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Annotation:
    """One located note on the change under review (a file's lines), platform-neutral."""

    path: str
    start_line: int
    end_line: int
    level: str  # notice | warning | failure
    title: str
    message: str
    #: Whether it lies in the lines the change under review adds (None: no base to compare).
    in_diff: bool | None = None


@dataclass(frozen=True)
class CheckRun:
    """A published check run, and how many annotations could not be added to it."""

    id: int
    annotations_failed: int = 0


@dataclass(frozen=True)
class PullCommits:
    """A pull request's head commit (what is audited) and base commit (where its config is)."""

    head: str
    base: str


class PublishTarget(Protocol):
    """What publishing a verdict needs from a platform (``publish.github.client.Publisher`` fits).

    The comment (read back for its hidden state, then created or edited), replies to
    commands, the caller's permission, the check run that gates the merge, and the paths a
    pull request changes (all of them, or PublishError: a partial list proves nothing).
    """

    def pull_commits(self, number: int) -> PullCommits: ...
    def pull_files(self, number: int) -> list[str]: ...
    def previous_body(self, number: int) -> str | None: ...
    def upsert_comment(self, number: int, body: str) -> str: ...
    def reply(self, number: int, body: str) -> str: ...
    def permission(self, login: str) -> str: ...
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
    ) -> CheckRun: ...
