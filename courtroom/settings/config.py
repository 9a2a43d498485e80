"""Settings of one audit, from flags, environment or action inputs. Secrets never print.

How flags, the configuration file and defaults combine is :mod:`courtroom.settings.effective`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from courtroom.detectives.repo.listing import may_be_python
from courtroom.detectives.repo.workspace import run_git
from courtroom.findings import FailOn
from courtroom.models import (
    CONCURRENCY_RANGE,
    JUDGE_KINDS,
    JudgeKind,
    Provider,
    SettingsSource,
)
from courtroom.rubric import default_rubric_path
from courtroom.settings.schema import SETTINGS
from courtroom.tree_paths import matcher

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
    max_concurrency: int = Field(default=8, ge=CONCURRENCY_RANGE[0], le=CONCURRENCY_RANGE[1])
    clone_timeout: float = Field(default=180.0, gt=0)
    #: Per-request timeout of a (non-streaming) Claude call, in seconds.
    judge_timeout: float = Field(default=600.0, gt=0)
    #: Glob patterns of repo-relative paths no detective reads (vendored, generated code).
    ignore: tuple[str, ...] = ()
    #: Globs from the audited tree's own config file: they hide any file but Python source,
    #: which the security scan must always see (the tree's author could otherwise hide it).
    tree_ignore: tuple[str, ...] = ()
    #: Per-criterion minimum scores: a criterion under its own minimum fails the gate.
    gate: dict[str, float] = Field(default_factory=dict)
    #: A criterion nothing the audit measures is about fails the gate (else: neutral).
    fail_on_uncovered: bool = False
    #: Lines that make the conclusion failure whatever the scores: the audit could not know
    #: what it must be measured with (a pull request whose base's settings are unknown).
    fail_closed: tuple[str, ...] = ()
    #: setting -> where its value came from ("flag", a config file, "default").
    sources: dict[str, str] = Field(default_factory=dict)
    #: Which settings the audited repository's own files decided (recorded in the verdict).
    settings_source: SettingsSource | None = None
    #: The base the change under review is compared with (a sha, branch or tag): its diff
    #: becomes evidence and, under ``fail_on_findings: new``, its security findings the
    #: baseline (None: the whole tree only).
    base: str | None = None
    #: What fails the gate: every confirmed finding ("all") or only those the change adds.
    fail_on_findings: FailOn = "all"
    display_name: str | None = Field(default=None, description="Name shown for the target.")
    commit: str | None = Field(default=None, description="Commit to report (e.g. a PR head).")

    @property
    def resolved_cache_dir(self) -> Path:
        """Where cached opinions live: ``cache_dir``, else the user's cache folder."""
        return self.cache_dir or user_cache_dir()

    def skips(self) -> Callable[[str], bool]:
        """The predicate of repo-relative paths no detective may read (``ignore`` globs)."""
        everywhere, tree = matcher(self.ignore), matcher(self.tree_ignore)
        return lambda rel: everywhere(rel) or (tree(rel) and not may_be_python(rel))

    def settings_record(self) -> dict[str, Any]:
        """The effective settings for the verdict: no secret, no local or temporary path."""
        record: dict[str, Any] = {}
        for setting in (s for s in SETTINGS if s.recorded):
            if setting.field == "rubric_path":  # by name: a local path never leaves the runner
                rubric = self.rubric_path
                record["rubric"] = "bundled" if rubric == default_rubric_path() else rubric.name
            else:
                record[setting.field] = _recorded(getattr(self, setting.field))
        if self.fail_closed:  # recorded only when set: `verify` recomputes the failure from it
            record["fail_closed"] = list(self.fail_closed)
        named = {("rubric" if k == "rubric_path" else k): v for k, v in self.sources.items()}
        # "config": which file a pull request's settings came from (its base commit's).
        shown = {*record, "pdf", "config"}
        record["sources"] = {k: v for k, v in sorted(named.items()) if k in shown}
        return record


def _recorded(value: Any) -> Any:
    """A setting as JSON shows it: globs as a list, a gate sorted by criterion."""
    if isinstance(value, tuple):
        return list(value)
    return dict(sorted(value.items())) if isinstance(value, dict) else value


def user_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/courtroom``, else ``~/.cache/courtroom``: never in an audited tree."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "courtroom"


def choose_judges(flag: str | None, env: Mapping[str, str]) -> JudgeKind:
    """`--judges` wins; otherwise Claude when an API key is set, else the offline bench."""
    for kind in JUDGE_KINDS:
        if flag == kind:
            return kind
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
