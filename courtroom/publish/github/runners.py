"""How the action gets a verdict: the real pipeline, or a verdict.json to publish as is.

``action`` takes one of these as its ``run_audit`` dependency, so tests can hand it a fake
and the pipeline is imported only when a real audit runs.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from courtroom.errors import EXIT_FAILURE, EXIT_OK, ConfigError
from courtroom.models import Verdict
from courtroom.settings.base_commit import PullBase, fallback_warning


@dataclass
class AuditRequest:
    """What the action asks of the audit; the runner maps it onto the pipeline's config."""

    workspace: Path
    out_dir: Path
    display_name: str
    commit: str
    api_key: str | None = field(repr=False)
    #: Opinion cache, pre-seeded from the previous comment (see courtroom.publish.github.reuse).
    cache_dir: Path | None = None
    #: AuditConfig fields set by action inputs (courtroom.settings.schema), the rubric
    #: and the PDF resolved in the checkout; anything absent keeps AuditConfig's default.
    settings: dict[str, Any] = field(default_factory=dict)
    #: For a pull request: the base commit its repository config is read from (None: the
    #: checkout's own config, as for a push).
    pull: PullBase | None = None


class Outcome(Protocol):
    """What an audit returns (``courtroom.pipeline.AuditOutcome`` fits)."""

    @property
    def verdict(self) -> Verdict | None:
        """The verdict; None when the audit could not complete (critical failure)."""

    @property
    def exit_code(self) -> int:
        """The audit's exit status (DESIGN §5)."""

    @property
    def paths(self) -> Mapping[str, Path]:
        """Files the audit wrote, by kind: verdict, report, trace."""

    @property
    def error(self) -> str | None:
        """Why the audit could not complete (a critical failure); None otherwise."""


RunAudit = Callable[[AuditRequest], Outcome]


def pipeline_runner(request: AuditRequest) -> Outcome:
    """Run the real pipeline (imported late: the action module must load without it)."""
    from pydantic import SecretStr

    from courtroom import pipeline
    from courtroom.settings.effective import effective_config
    from courtroom.trace import Trace

    # Bedrock and Vertex authenticate with the cloud's own credentials, not an API key.
    claude = bool(request.api_key) or request.settings.get("provider", "anthropic") != "anthropic"
    fields: dict[str, Any] = {
        **request.settings,
        "target": str(request.workspace),
        "out_dir": request.out_dir,
        "judges": "anthropic" if claude else "offline",
        "api_key": SecretStr(request.api_key) if request.api_key else None,
        "display_name": request.display_name,
        "commit": request.commit,
    }
    if request.cache_dir is not None:
        fields["cache_dir"] = request.cache_dir
    # Inputs win over the repository's .github/courtroom.yml; a pull request's comes from
    # its base commit, since the PR's own is its author's.
    with tempfile.TemporaryDirectory(prefix="courtroom-base-") as scratch:
        config = effective_config(fields, request.workspace, env=os.environ,
                                  pull=request.pull, scratch=Path(scratch))
        trace = Trace()
        if request.pull is not None:
            trace.event("config", "source", config=config.sources.get("config"))
            warning = fallback_warning(request.pull)
            if warning:
                trace.event("config", "warning", message=warning)
        return pipeline.audit(config, trace=trace)


@dataclass
class Replayed:
    """A verdict read from a file, shaped like an audit's outcome."""

    verdict: Verdict
    exit_code: int
    paths: dict[str, Path] = field(default_factory=dict)
    #: A replayed verdict exists, so there is never a critical failure to explain.
    error: str | None = None


def replay_runner(path: Path, key: bytes | None = None) -> RunAudit:
    """An audit runner that publishes an existing verdict.json instead of auditing.

    Used by the privileged ``workflow_run`` half of the fork-PR pattern: the verdict comes
    from an unprivileged run, so it is held to what ``courtroom verify`` holds: it must be
    sealed, its chain must match, and with ``key`` (COURTROOM_SIGNING_KEY) its HMAC must
    verify. Anything else is refused with ConfigError (exit 2).
    """

    def replay(request: AuditRequest) -> Outcome:
        from courtroom.integrity import verify

        try:
            text = path.read_text(encoding="utf-8")
            problems = verify(text, key)
            verdict = Verdict.model_validate_json(text)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read the verdict {path}: {exc}") from exc
        if problems:
            raise ConfigError(f"refusing to publish {path}: {problems[0]}")
        return Replayed(verdict, EXIT_FAILURE if verdict.conclusion == "failure" else EXIT_OK)

    return replay
