"""What every submission of a batch shares, and how one submission is audited.

Both the thread/process batch (command.py) and the Message Batches path (batch_api.py)
start from these, so neither imports the other back.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from courtroom.cohort.manifest import Row
from courtroom.errors import ConfigError, TargetError
from courtroom.models import JudgeKind
from courtroom.settings.config import AuditConfig
from courtroom.tree_paths import find_pdf, inside_tree
from courtroom.untrusted import log_line

if TYPE_CHECKING:
    from courtroom.judges.base import Backend
    from courtroom.pipeline import AuditOutcome


@dataclass(frozen=True)
class BatchSettings:
    """What every submission of a batch shares; calling it makes one submission's config."""

    rubric_path: Path
    judges: JudgeKind = "offline"
    model: str | None = None
    api_key: SecretStr | None = None
    base_url: str | None = None
    use_cache: bool = True
    cache_dir: Path | None = None
    #: Further AuditConfig fields every submission shares (the gate, timeouts, provider ...).
    shared: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, row: Row, folder: Path) -> AuditConfig:
        """The AuditConfig of one submission, writing into ``folder``."""
        return AuditConfig.model_validate(
            {
                **self.shared,
                "target": row.repo,
                "pdf": Path(row.pdf) if row.pdf else None,
                "rubric_path": self.rubric_path,
                "out_dir": folder,
                "judges": self.judges,
                "model": self.model,
                "api_key": self.api_key,
                "base_url": self.base_url,
                "use_cache": self.use_cache,
                "cache_dir": self.cache_dir,
            }
        )


def default_audit(config: AuditConfig, backend: Backend | None = None) -> AuditOutcome:
    """Run the real pipeline on a checkout of the submission (a URL is cloned once here).

    A relative PDF (one the manifest's folder did not hold) is looked up inside the
    checkout, exactly as `courtroom audit --pdf` does; the cache may not live in the tree.
    """
    from courtroom.detectives import open_workspace
    from courtroom.pipeline import audit
    from courtroom.trace import Trace

    with open_workspace(config.target, timeout=config.clone_timeout) as workspace:
        root = workspace.root.resolve()
        if config.resolved_cache_dir.resolve().is_relative_to(root):
            raise ConfigError(f"the opinion cache {config.resolved_cache_dir} lies inside {root}")
        pdf = config.pdf
        if pdf is not None and not pdf.is_absolute():
            if inside_tree(root, pdf) is None:
                raise TargetError(f"pdf {pdf} points outside the repository or via a symlink")
            lookup = find_pdf(pdf, base=None, root=root)
            if lookup.path is None:
                shown = config.display_name or workspace.display
                print(f"courtroom: {log_line(f'{shown}: {lookup.missing(pdf)}')}", file=sys.stderr)
            pdf = lookup.path or lookup.tried[-1]
        local = config.model_copy(
            update={
                "target": str(workspace.root),
                "pdf": pdf,
                "display_name": config.display_name or workspace.display,
                "commit": config.commit or workspace.commit,
            }
        )
        return audit(local, trace=Trace(), backend=backend)
