"""Independent checks that a verdict.json follows DESIGN §3 and §4 from what it records."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from courtroom.judgment import recompute
from courtroom.models import JUDGES, Verdict

REQUIRED_TOP = {
    "schema_version",
    "target",
    "rubric",
    "bench",
    "overall_score",
    "conclusion",
    "evidences",
    "criteria",
    "errors",
}
REQUIRED_CRITERION = {
    "criterion_id",
    "name",
    "final_score",
    "opinions",
    "dissent_summary",
    "remediation",
    "re_evaluation_required",
    "security_override",
    "execution_log",
}
REQUIRED_LOG = {
    "criterion_id",
    "raw_scores",
    "weights",
    "penalty_events",
    "override_triggered",
    "final_float",
    "final_int",
}


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def check_verdict(data: dict[str, Any]) -> None:
    """Assert the verdict's shape, and that every number follows from its opinions
    (``courtroom.judgment.recompute``, what `courtroom verify` checks)."""
    assert REQUIRED_TOP <= set(data), REQUIRED_TOP - set(data)
    assert data["schema_version"] == 1
    assert set(data["target"]) >= {"repo", "commit", "pdf"}
    assert set(data["rubric"]) >= {"name", "version", "sha256"}
    for key, raw in data["evidences"].items():
        uuid.UUID(raw["id"])
        assert key == raw["id"]
        assert 0.0 <= raw["confidence"] <= 1.0
        assert not raw["location"].startswith("/"), raw["location"]
    for crit in data["criteria"]:
        assert REQUIRED_CRITERION <= set(crit), REQUIRED_CRITERION - set(crit)
        assert REQUIRED_LOG <= set(crit["execution_log"])
        assert sorted(o["judge"] for o in crit["opinions"]) == sorted(JUDGES)
    assert recompute(Verdict.model_validate(data)) == []
