"""One audit, stage by stage: detect -> judge -> hear -> synthesise -> render -> write.

Files are written before anything is published, and a critical failure still writes the
partial state and the trace, so nothing already computed is lost.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from courtroom import chief_justice, integrity
from courtroom.config import AuditConfig, gate_failures
from courtroom.court import session as court
from courtroom.detectives import open_workspace, run_detectives
from courtroom.detectives.base import Case
from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.docket import evidence_for
from courtroom.detectives.security.detective import security_report
from courtroom.errors import EXIT_CRITICAL, EXIT_FAILURE, EXIT_OK, SynthesisError
from courtroom.judges import JudgeBench, OpinionCache, make_backend
from courtroom.judges.base import Backend, JudgeRequest, left_out
from courtroom.judges.bench import Answer
from courtroom.models import (
    JUDGES,
    CourtRecord,
    CriterionResult,
    Evidence,
    JudicialOpinion,
    RubricRef,
    Target,
    Verdict,
)
from courtroom.render import sarif
from courtroom.render.markdown import render_report
from courtroom.rubric import Rubric, load_rubric
from courtroom.trace import Trace
from courtroom.untrusted import one_line

#: progress(stage, done, total): a display hook; the CLI draws it, tests ignore it.
Progress = Callable[[str, int, int], None]


@dataclass
class AuditOutcome:
    """What an audit produced: the verdict (None on critical failure), exit code, files."""

    verdict: Verdict | None
    exit_code: int
    paths: dict[str, Path] = field(default_factory=dict)
    error: str | None = None


def _noop(stage: str, done: int, total: int) -> None:
    return None


def audit(
    config: AuditConfig,
    *,
    trace: Trace | None = None,
    backend: Backend | None = None,
    progress: Progress = _noop,
) -> AuditOutcome:
    """Run one whole audit and write its files; a UsageError comes before any file is written."""
    trace = trace or Trace()
    rubric = load_rubric(config.rubric_path)
    trace.event("rubric", "loaded", name=rubric.rubric_metadata.rubric_name, sha256=rubric.sha256)
    # Importing the SDK and building a Claude client takes about a second: it happens on
    # its own thread while the workspace opens and the detectives run.
    judges = _ready(backend) if backend is not None else _build_backend(config)
    with open_workspace(config.target, timeout=config.clone_timeout,
                        ignore=config.skips()) as workspace:
        pdf_display = _pdf_display(config.pdf, workspace.root)
        case = Case(workspace=workspace, pdf=config.pdf, pdf_display=pdf_display,
                    dimensions=tuple(rubric.dimensions))
        target = Target(
            repo=config.display_name or workspace.display,
            commit=config.commit or workspace.commit,
            pdf=pdf_display,
        )
        return _run(config, rubric, case, target, judges, trace, progress)


def _ready(backend: Backend) -> Future[Backend]:
    done: Future[Backend] = Future()
    done.set_result(backend)
    return done


def _build_backend(config: AuditConfig) -> Future[Backend]:
    builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="backend")
    built = builder.submit(
        make_backend,
        config.judges,
        model=config.model,
        api_key=config.api_key.get_secret_value() if config.api_key else None,
        base_url=config.base_url,
        timeout=config.judge_timeout,
        provider=config.provider,
        region=config.region,
        project_id=config.project_id,
    )
    builder.shutdown(wait=False)
    return built


def _pdf_display(pdf: Path | None, root: Path) -> str | None:
    if pdf is None:
        return None
    try:
        return pdf.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return pdf.name


def _run(
    config: AuditConfig,
    rubric: Rubric,
    case: Case,
    target: Target,
    judges: Future[Backend],
    trace: Trace,
    progress: Progress,
) -> AuditOutcome:
    out = config.out_dir
    progress("detect", 0, 1)
    with trace.span("detect", "detectives"):
        evidence, errors = run_detectives(case, trace=trace)
    pool: dict[str, Evidence] = {e.id: e for e in evidence}
    progress("detect", 1, 1)

    backend = judges.result()  # a ConfigError from building it surfaces here
    shown = {d.id: evidence_for(d, pool.values()) for d in rubric.dimensions}
    cut = {d.id: left_out(d, pool.values(), shown[d.id]) for d in rubric.dimensions}
    requests = [
        JudgeRequest(persona=judge, dimension=d, evidence=shown[d.id], omitted=cut[d.id])
        for d in rubric.dimensions
        for judge in JUDGES
    ]
    cache = OpinionCache(config.resolved_cache_dir, read=config.use_cache)
    bench = JudgeBench(backend, max_workers=config.max_concurrency, cache=cache, trace=trace,
                       max_cost_usd=config.max_cost_usd)
    progress("judge", 0, len(requests))
    with trace.span("judge", "bench", calls=len(requests), bench=backend.name):
        try:
            opinions, court_records = _judge_and_hear(
                config, rubric, case, pool, shown, requests, bench, trace, progress
            )
        finally:
            bench.close()

    results: list[CriterionResult] = []
    try:
        with trace.span("synthesise", "chief_justice"):
            for dim in rubric.dimensions:
                result = chief_justice.rule(
                    dim.id, dim.name, opinions[dim.id], pool, rubric.parameters
                )
                result = court.apply_record(result, court_records.get(dim.id))
                result = result.model_copy(update={"evidence_left_out": cut[dim.id]})
                trace.event(
                    "synthesise",
                    "rule",
                    criterion_id=dim.id,
                    log=result.execution_log.model_dump(mode="json"),
                )
                results.append(result)
    except SynthesisError as exc:
        trace.event("synthesise", "critical_failure", error=str(exc))
        paths = _write_partial(out, target, pool, opinions, [*errors, str(exc)], trace)
        return AuditOutcome(None, EXIT_CRITICAL, paths, f"critical failure: {exc}")

    errors.extend(
        f"judge {o.judge} fell back on {o.criterion_id}"
        for ops in opinions.values()
        for o in ops
        if o.fallback
    )
    errors.extend(bench.notes)  # criteria the cost cap sent to the offline bench
    # Fail closed: a scan that could not see every source file must not pass the gate.
    unscanned = sorted((e for e in pool.values() if SCAN_INCOMPLETE in e.tags),
                       key=lambda e: (e.location, e.id))
    errors.extend(f"conclusion failure: the security scan did not cover the whole repository "
                  f"({e.location}: {one_line(e.rationale, 240)})" for e in unscanned)
    overall = chief_justice.overall_score(results)
    conclusion = chief_justice.conclude(
        results, overall, fail_below=config.fail_below, incomplete=bool(errors),
        scan_incomplete=bool(unscanned),
    )

    # Per-criterion minimums of the gate (config `gate`): any one under its own fails.
    below = gate_failures(results, config.gate)
    if below:
        conclusion = "failure"
        errors.extend(below)

    verdict = Verdict(
        target=target,
        rubric=RubricRef(
            name=rubric.rubric_metadata.rubric_name,
            version=rubric.rubric_metadata.version,
            sha256=rubric.sha256,
        ),
        bench=backend.name,
        overall_score=overall,
        conclusion=conclusion,
        evidences=dict(sorted(pool.items())),
        criteria=results,
        errors=errors,
        usage=bench.usage,
        settings=config.settings_record(),
        security=security_report(case.workspace),
    )
    trace.event("verdict", "concluded", overall_score=overall, conclusion=conclusion)
    verdict = integrity.seal(verdict, integrity.signing_key())
    paths = write_outputs(out, verdict, trace)
    code = EXIT_FAILURE if conclusion == "failure" else EXIT_OK
    return AuditOutcome(verdict, code, paths)


def _judge_and_hear(
    config: AuditConfig,
    rubric: Rubric,
    case: Case,
    pool: dict[str, Evidence],
    shown: dict[str, list[Evidence]],
    requests: list[JudgeRequest],
    bench: JudgeBench,
    trace: Trace,
    progress: Progress,
) -> tuple[dict[str, list[JudicialOpinion]], dict[str, CourtRecord]]:
    """First round and court on one bounded bench: a criterion's hearing starts as soon as
    its own three opinions are in. Updates ``pool`` and ``shown`` with remanded evidence."""
    answers = bench.submit(requests)
    done = itertools.count(1)
    for future in answers:
        future.add_done_callback(lambda _f: progress("judge", next(done), len(requests)))
    opening = {d.id: _opening(d.id, requests, answers) for d in rubric.dimensions}
    limits = court.limits_for(rubric, config.court_limits)
    if not (config.court and limits.enabled):
        return {cid: wait() for cid, wait in opening.items()}, {}
    with trace.span("hear", "court"):
        hearing = court.hold_court(rubric, case, pool, shown, opening, bench=bench,
                                   trace=trace, limits=limits)
    # The final opinions replace the first round's; remanded evidence joins the pool.
    pool.update(hearing.new_evidence)
    shown.update(hearing.shown)
    return {d.id: hearing.opinions[d.id] for d in rubric.dimensions}, hearing.records


def _opening(
    cid: str, requests: list[JudgeRequest], answers: list[Future[Answer]]
) -> Callable[[], list[JudicialOpinion]]:
    mine = [f for r, f in zip(requests, answers, strict=True) if r.dimension.id == cid]
    return lambda: [f.result()[0] for f in mine]


def write_outputs(out: Path, verdict: Verdict, trace: Trace) -> dict[str, Path]:
    """Write verdict.json, findings.sarif, report.md and trace.jsonl into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "verdict": out / "verdict.json",
        "sarif": out / "findings.sarif",
        "report": out / "report.md",
        "trace": out / "trace.jsonl",
    }
    paths["verdict"].write_text(verdict.model_dump_json(indent=2) + "\n", encoding="utf-8")
    paths["sarif"].write_text(sarif.dumps(verdict.security), encoding="utf-8")
    with trace.span("render", "report"):
        paths["report"].write_text(render_report(verdict), encoding="utf-8")
    trace.write(paths["trace"])
    return paths


def _write_partial(
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
    partial = out / "partial_state.json"
    partial.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
    trace_path = out / "trace.jsonl"
    trace.write(trace_path)
    return {"partial": partial, "trace": trace_path}
