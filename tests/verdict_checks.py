"""Independent checks that a verdict.json follows DESIGN §3 and §4 from what it records."""

from __future__ import annotations

import json
import uuid
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from courtroom import chief_justice
from courtroom.models import JUDGES, Evidence, JudicialOpinion
from courtroom.rubric import SynthesisParameters

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


def check_verdict(data: dict[str, Any], params: SynthesisParameters | None = None) -> None:
    """Assert the verdict's shape and that every number follows from its opinions."""
    params = params or SynthesisParameters()
    assert REQUIRED_TOP <= set(data), REQUIRED_TOP - set(data)
    assert data["schema_version"] == 1
    assert set(data["target"]) >= {"repo", "commit", "pdf"}
    assert set(data["rubric"]) >= {"name", "version", "sha256"}
    pool = {}
    for key, raw in data["evidences"].items():
        uuid.UUID(raw["id"])
        assert key == raw["id"]
        assert 0.0 <= raw["confidence"] <= 1.0
        assert not raw["location"].startswith("/"), raw["location"]
        pool[key] = Evidence.model_validate(raw)
    finals = []
    for crit in data["criteria"]:
        assert REQUIRED_CRITERION <= set(crit), REQUIRED_CRITERION - set(crit)
        assert REQUIRED_LOG <= set(crit["execution_log"])
        opinions = [JudicialOpinion.model_validate(o) for o in crit["opinions"]]
        assert sorted(o.judge for o in opinions) == sorted(JUDGES)
        again = chief_justice.rule(crit["criterion_id"], crit["name"], opinions, pool, params)
        assert crit["final_score"] == again.final_score, crit["criterion_id"]
        log = crit["execution_log"]
        assert log["final_int"] == crit["final_score"]
        assert log["final_float"] == again.execution_log.final_float
        assert log["raw_scores"] == again.execution_log.raw_scores
        assert crit["security_override"] == again.security_override
        assert len(log["penalty_events"]) == len(again.execution_log.penalty_events)
        if crit.get("court", {}) and (crit.get("court") or {}).get("path") == "mistrial":
            assert crit["re_evaluation_required"]
        else:
            assert crit["re_evaluation_required"] == again.re_evaluation_required
        finals.append(crit["final_score"])
    if finals:
        mean = (Decimal(sum(finals)) / len(finals)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        assert Decimal(str(data["overall_score"])) == mean
    assert data["conclusion"] in ("success", "failure", "neutral")
    if any(c["security_override"] for c in data["criteria"]):
        assert data["conclusion"] == "failure"
