"""Settings of one audit, from flags, environment or action inputs. Secrets never print."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from courtroom.detectives.workspace import run_git
from courtroom.rubric import default_rubric_path

JudgeKind = Literal["offline", "anthropic"]
Provider = Literal["anthropic", "bedrock", "vertex"]

SELF_DIR = Path("audit/report_onself_generated")
PEER_DIR = Path("audit/report_onpeer_generated")
RECEIVED_DIR = Path("audit/report_bypeer_received")


class AuditConfig(BaseModel):
    """Everything one audit needs to know; built by the CLI, the action or a batch."""

    model_config = ConfigDict(frozen=True)

    target: str = Field(description="Local path or git URL of the repository.")
    pdf: Path | None = Field(default=None, description="PDF report about the repository.")
    rubric_path: Path = Field(default_factory=default_rubric_path)
    out_dir: Path = Field(description="Where report.md, verdict.json and trace.jsonl go.")
    judges: JudgeKind = "offline"
    model: str | None = Field(default=None, description="Claude model; None = backend default.")
    api_key: SecretStr | None = Field(default=None, repr=False)
    base_url: str | None = None
    fail_below: float | None = Field(default=None, ge=0, le=5)
    use_cache: bool = True
    cache_dir: Path | None = None
    court: bool = True
    #: Overrides of the rubric's court limits (ttl_seconds, max_handoffs, max_rounds,
    #: max_remands, enabled); anything absent keeps the rubric's value.
    court_limits: dict[str, float | int | bool] = Field(default_factory=dict)
    provider: Provider = Field(default="anthropic", description="Where Claude is served from.")
    #: Cloud region of the Bedrock or Vertex endpoint (else AWS_REGION / CLOUD_ML_REGION).
    region: str | None = None
    #: Google Cloud project of the Vertex endpoint (else ANTHROPIC_VERTEX_PROJECT_ID).
    project_id: str | None = None
    #: Cap on the estimated spend of the Claude judges; past it, the offline bench judges.
    max_cost_usd: float | None = Field(default=None, gt=0)
    #: Judge requests in flight at once, over the whole audit (first round and court).
    max_concurrency: int = Field(default=8, ge=1, le=256)
    clone_timeout: float = Field(default=180.0, gt=0)
    #: Per-request timeout of a (non-streaming) Claude call, in seconds.
    judge_timeout: float = Field(default=600.0, gt=0)
    #: Glob patterns of repo-relative paths no detective reads (vendored, generated code).
    ignore: tuple[str, ...] = ()
    display_name: str | None = Field(default=None, description="Name shown for the target.")
    commit: str | None = Field(default=None, description="Commit to report (e.g. a PR head).")

    @property
    def resolved_cache_dir(self) -> Path:
        """Where cached opinions live (beside the audit folders, shared across runs)."""
        return self.cache_dir or self.out_dir.parent / ".courtroom-cache"


def choose_judges(flag: str | None, env: Mapping[str, str]) -> JudgeKind:
    """`--judges` wins; otherwise Claude when an API key is set, else the offline bench."""
    if flag in ("offline", "anthropic"):
        return flag  # type: ignore[return-value]
    return "anthropic" if env.get("ANTHROPIC_API_KEY") else "offline"


def _git_toplevel(path: Path) -> Path | None:
    top = (run_git(path, "rev-parse", "--show-toplevel", timeout=10) or "").strip()
    return Path(top).resolve() if top else None


def target_name(target: str) -> str:
    """A short, filesystem-safe name for a target: the repository's last path part."""
    tail = re.split(r"[/:]", target.rstrip("/"))[-1] or "target"
    tail = tail.removesuffix(".git")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", tail).strip(".-") or "target"


def default_out_dir(target: str, cwd: Path | None = None) -> Path:
    """Self-audits and peer audits go to separate folders (DESIGN §5)."""
    here = (cwd or Path.cwd()).resolve()
    local = Path(target)
    if local.exists():
        top, own = _git_toplevel(local), _git_toplevel(here)
        if (top is not None and top == own) or local.resolve() == here:
            return here / SELF_DIR
    return here / PEER_DIR / target_name(target)


def env_api_key(env: Mapping[str, str] | None = None) -> SecretStr | None:
    """The Anthropic key from the environment, wrapped so it never prints."""
    value = (env if env is not None else os.environ).get("ANTHROPIC_API_KEY", "").strip()
    return SecretStr(value) if value else None
