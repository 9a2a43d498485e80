"""The audit's files: verdict.json, findings.sarif, report.md and the trace, or, after a
critical failure, the partial state, so nothing already computed is lost."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from courtroom.models import Evidence, JudicialOpinion, Target, Verdict
from courtroom.render import sarif
from courtroom.render.markdown import render_report
from courtroom.trace import Trace

#: The files an audit writes, by kind; the Action finds them again by these names.
FILE_NAMES = {
    "verdict": "verdict.json",
    "sarif": "findings.sarif",
    "report": "report.md",
    "trace": "trace.jsonl",
    "partial": "partial_state.json",
}


def write_outputs(out: Path, verdict: Verdict, trace: Trace) -> dict[str, Path]:
    """Write verdict.json, findings.sarif, report.md and trace.jsonl into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {kind: out / FILE_NAMES[kind] for kind in ("verdict", "sarif", "report", "trace")}
    paths["verdict"].write_text(verdict.model_dump_json(indent=2) + "\n", encoding="utf-8")
    paths["sarif"].write_text(sarif.dumps(verdict.security), encoding="utf-8")
    with trace.span("render", "report"):
        paths["report"].write_text(render_report(verdict), encoding="utf-8")
    trace.write(paths["trace"])
    return paths


def write_partial(
    out: Path,
    target: Target,
    pool: Mapping[str, Evidence],
    opinions: Mapping[str, list[JudicialOpinion]],
    errors: list[str],
    trace: Trace,
) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    state = {
        "status": "critical_failure",
        "target": target.model_dump(mode="json"),
        "evidences": {k: v.model_dump(mode="json") for k, v in sorted(pool.items())},
        "opinions": {k: [o.model_dump(mode="json") for o in v] for k, v in opinions.items()},
        "errors": errors,
    }
    partial = out / FILE_NAMES["partial"]
    partial.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
    trace_path = out / FILE_NAMES["trace"]
    trace.write(trace_path)
    return {"partial": partial, "trace": trace_path}
