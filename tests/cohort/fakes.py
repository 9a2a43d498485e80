"""Fakes for cohort tests: an audit runner that writes a plausible verdict without a court."""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from builders import Commit, make_repo

from courtroom.errors import WorkspaceError
from courtroom.models import CriterionResult, ExecutionLog, RubricRef, Target, Verdict
from courtroom.settings.config import AuditConfig


@dataclass
class AuditOutcome:
    """The fields of courtroom.pipeline.AuditOutcome the batch reads."""

    verdict: Verdict | None
    exit_code: int
    paths: dict[str, Path] = field(default_factory=dict)
    error: str | None = None


# Not in alphabetical order on purpose: summaries must keep the rubric order.
CRITERIA = {"graph_orchestration": "Graph", "git_forensic_analysis": "Git Forensic Analysis"}
CALLS: list[str] = []
_LOCK = threading.Lock()


def _score(text: str, salt: str) -> int:
    return 1 + hashlib.sha256((salt + text).encode()).digest()[0] % 5


def fake_verdict(repo: str, commit: str | None) -> Verdict:
    """A small verdict whose scores depend only on the repository's name."""
    name = Path(repo).name
    criteria = [
        CriterionResult(
            criterion_id=cid,
            name=label,
            final_score=_score(name, cid),
            opinions=[],
            remediation="none",
            execution_log=ExecutionLog(
                criterion_id=cid, raw_scores={}, weights={}, final_float=1.0, final_int=1
            ),
        )
        for cid, label in CRITERIA.items()
    ]
    overall = round(sum(c.final_score for c in criteria) / len(criteria), 2)
    return Verdict(
        target=Target(repo=repo, commit=commit),
        rubric=RubricRef(name="r", version="1", sha256="0" * 64),
        bench="offline",
        overall_score=overall,
        conclusion="success" if overall >= 3 else "neutral",
        evidences={},
        criteria=criteria,
    )


def fake_audit(config: AuditConfig) -> AuditOutcome:
    """Write verdict.json like the pipeline; fail on 'broken', critical on 'critical'."""
    with _LOCK:
        CALLS.append(config.target)
    time.sleep(0.01)
    if "broken" in config.target:
        raise WorkspaceError(f"clone failed: {config.target}\nsecond line")
    if "critical" in config.target:
        return AuditOutcome(None, 3, {}, "critical failure: no judge")
    if "bug" in config.target:
        raise ValueError("an unexpected bug")
    from courtroom.cohort.keys import current_commit

    verdict = fake_verdict(config.target, current_commit(config.target))
    config.out_dir.mkdir(parents=True, exist_ok=True)
    path = config.out_dir / "verdict.json"
    path.write_text(verdict.model_dump_json(indent=2), encoding="utf-8")
    return AuditOutcome(verdict, 0, {"verdict": path})


def make_cohort(root: Path, count: int) -> list[Path]:
    """``count`` tiny git repositories under ``root``."""
    return [
        make_repo(root / f"sub{n:02d}", [Commit("start", {"main.py": f"print({n})\n"})])
        for n in range(count)
    ]


def write_csv(path: Path, lines: list[str]) -> Path:
    """A CSV manifest with the standard header."""
    path.write_text("repo,pdf,name\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path
