"""One audit, stage by stage: detect -> judge -> hear -> synthesise -> render -> write.

Files are written before anything is published, and a critical failure still writes the
partial state and the trace, so nothing already computed is lost.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from courtroom import chief_justice, diff, integrity
from courtroom.base_scan import against_base, base_findings
from courtroom.baseline import mark_diff
from courtroom.court.rules import limits_for
from courtroom.court.session import CourtOutcome, hold_court
from courtroom.detectives import open_workspace, run_detectives
from courtroom.detectives.base import Case
from courtroom.detectives.contract import detectives_for, load_checked
from courtroom.detectives.docket import evidence_for, is_covered
from courtroom.detectives.runner import Detection
from courtroom.errors import EXIT_CRITICAL, EXIT_FAILURE, EXIT_OK, SynthesisError
from courtroom.findings import SecurityReport
from courtroom.judges.backends import make_backend
from courtroom.judges.base import Backend, JudgeRequest, left_out
from courtroom.judges.bench import Answer, JudgeBench
from courtroom.judges.cache import OpinionCache
from courtroom.judges.vision import ClaudeVision, for_audit
from courtroom.judgment import SYNTHESIS, conclude_verdict, uncovered, unscanned
from courtroom.models import (
    JUDGES,
    CriterionResult,
    Evidence,
    JudicialOpinion,
    RubricRef,
    Target,
    Usage,
    Verdict,
)
from courtroom.problems import Problem, error_lines
from courtroom.render.files import write_outputs, write_partial
from courtroom.rubric import Rubric
from courtroom.settings.config import AuditConfig
from courtroom.trace import Trace

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


@dataclass(frozen=True)
class _Audit:
    """What every stage of one audit reads: the settings, the rubric, the case, the target,
    and where progress is told. Built once, before the first stage; no stage changes it."""

    config: AuditConfig
    rubric: Rubric
    case: Case
    target: Target
    trace: Trace
    progress: Progress


def audit(
    config: AuditConfig,
    *,
    trace: Trace | None = None,
    backend: Backend | None = None,
    progress: Progress = _noop,
) -> AuditOutcome:
    """Run one whole audit and write its files; a UsageError comes before any file is written."""
    trace = trace or Trace()
    rubric = load_checked(config.rubric_path)  # bad tags: exit 2 before any work
    trace.event("rubric", "loaded", name=rubric.rubric_metadata.rubric_name, sha256=rubric.sha256)
    # Importing the SDK and building a Claude client takes about a second: it happens on
    # its own thread while the workspace opens and the detectives run.
    judges = _ready(backend) if backend is not None else _build_backend(config)
    key = integrity.signing_key()  # read once, before anything runs
    with open_workspace(config.target, timeout=config.clone_timeout,
                        ignore=config.skips()) as workspace:
        pdf_display = _pdf_display(config.pdf, workspace.root)
        # Images go to Claude only with the Claude judges this audit builds itself (not
        # with a caller's backend: a batch collector, a test's).
        vision = for_audit(config, judges) if backend is None else None
        change = diff.load(workspace.root, config.base, workspace.commit) if config.base else None
        case = Case(workspace=workspace, pdf=config.pdf, pdf_display=pdf_display,
                    criteria=tuple(rubric.criteria), transcriber=vision, diff=change)
        target = Target(
            repo=config.display_name or workspace.display,
            commit=config.commit or workspace.commit,
            pdf=pdf_display,
        )
        return _run(_Audit(config, rubric, case, target, trace, progress), judges, key)


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


def _run(run: _Audit, judges: Future[Backend], key: bytes | None) -> AuditOutcome:
    config, case, trace = run.config, run.case, run.trace
    base = base_findings(config, case)  # first: its trees go before the head's are parsed
    detection = _detect(run)
    pool, security = against_base(config, case, {e.id: e for e in detection.evidence},
                                  detection.security, base)
    judged = _judge(run, pool, judges.result())
    # What the court's remands found joins a new pool; the one the judges read stays as it was.
    pool = {**pool, **mark_diff(judged.court.new_evidence, case.diff)}
    try:
        results = _synthesise(run.rubric, pool, judged, trace)
    except SynthesisError as exc:
        trace.event("synthesise", "critical_failure", error=str(exc))
        paths = write_partial(config.out_dir, run.target, pool, judged.court.opinions,
                               [*error_lines(detection.problems), str(exc)], trace)
        return AuditOutcome(None, EXIT_CRITICAL, paths, f"critical failure: {exc}")
    verdict = _conclude(run, security, pool, results, judged, detection)
    trace.event("verdict", "concluded", overall_score=verdict.overall_score,
                conclusion=verdict.conclusion)
    verdict = integrity.seal(verdict, key)
    paths = write_outputs(config.out_dir, verdict, trace)
    return AuditOutcome(verdict, EXIT_FAILURE if verdict.conclusion == "failure" else EXIT_OK,
                        paths)


@dataclass(frozen=True)
class _Judged:
    """What the judge and hear stages hand on: the court's outcome, what each criterion's
    prompt left out, and the bench's name, usage and notes (the cost cap's choices)."""

    court: CourtOutcome
    left_out: dict[str, dict[str, int]]
    bench_name: str
    usage: Usage
    notes: list[Problem]


def _detect(run: _Audit) -> Detection:
    run.progress("detect", 0, 1)
    with run.trace.span("detect", "detectives"):
        detection = run_detectives(run.case, trace=run.trace,
                                   only=detectives_for(run.rubric.rubric_metadata.profile))
    run.progress("detect", 1, 1)
    return detection


def _judge(run: _Audit, pool: dict[str, Evidence], backend: Backend) -> _Judged:
    config, rubric, case, trace = run.config, run.rubric, run.case, run.trace
    shown = {d.id: evidence_for(d, pool.values()) for d in rubric.criteria}
    cut = {d.id: left_out(d, pool.values(), shown[d.id]) for d in rubric.criteria}
    requests = [
        JudgeRequest(persona=judge, criterion=d, evidence=shown[d.id], omitted=cut[d.id])
        for d in rubric.criteria
        for judge in JUDGES
    ]
    cache = OpinionCache(config.resolved_cache_dir, read=config.use_cache)
    # Claude's image calls came first, out of the same cap: the judges get what is left.
    vision = case.transcriber if isinstance(case.transcriber, ClaudeVision) else None
    bench = JudgeBench(backend, max_workers=config.max_concurrency, cache=cache, trace=trace,
                       max_cost_usd=vision.remaining() if vision else config.max_cost_usd)
    run.progress("judge", 0, len(requests))
    with trace.span("judge", "bench", calls=len(requests), bench=backend.name):
        try:
            court = _judge_and_hear(run, pool, shown, requests, bench)
        finally:
            bench.close()
    usage = vision.add_to(bench.usage) if vision else bench.usage
    return _Judged(court, cut, backend.name, usage, bench.notes)


def _synthesise(
    rubric: Rubric, pool: dict[str, Evidence], judged: _Judged, trace: Trace
) -> list[CriterionResult]:
    results: list[CriterionResult] = []
    with trace.span("synthesise", "chief_justice"):
        for criterion in rubric.criteria:
            result = judged.court.settle(chief_justice.rule(
                criterion.id, criterion.name, judged.court.opinions[criterion.id], pool,
                rubric.parameters
            ))
            result = result.model_copy(update={"evidence_left_out": judged.left_out[criterion.id],
                                               "artifact": criterion.target_artifact,
                                               "covered": is_covered(criterion)})
            trace.event("synthesise", "rule", criterion_id=criterion.id,
                        log=result.execution_log.model_dump(mode="json"))
            results.append(result)
    return results


def _conclude(
    run: _Audit,
    security: SecurityReport | None,
    pool: dict[str, Evidence],
    results: list[CriterionResult],
    judged: _Judged,
    detection: Detection,
) -> Verdict:
    config, rubric = run.config, run.rubric
    # The cost cap's notes name the criteria it sent to the offline bench; a scan that
    # could not see every source file must not pass the gate (it fails closed); a
    # criterion nothing covers is reported (neutral; failure with fail-on-uncovered).
    problems = [*detection.problems, *judged.court.fallbacks(), *judged.notes,
                *unscanned(pool), *uncovered(results)]
    ruling = conclude_verdict(results, pool, fail_below=config.fail_below, gate=config.gate,
                              incomplete=bool(problems), fail_closed=config.fail_closed,
                              fail_on_uncovered=config.fail_on_uncovered)
    return Verdict(
        target=run.target,
        rubric=RubricRef(name=rubric.rubric_metadata.rubric_name,
                         version=rubric.rubric_metadata.version, sha256=rubric.sha256),
        bench=judged.bench_name,
        overall_score=ruling.overall,
        conclusion=ruling.conclusion,
        evidences=dict(sorted(pool.items())),
        criteria=results,
        problems=[*problems, *ruling.failures],
        usage=judged.usage,
        settings={**config.settings_record(),
                  SYNTHESIS: rubric.parameters.model_dump(mode="json")},
        settings_source=config.settings_source,
        security=security,
    )


def _judge_and_hear(
    run: _Audit,
    pool: dict[str, Evidence],
    shown: dict[str, list[Evidence]],
    requests: list[JudgeRequest],
    bench: JudgeBench,
) -> CourtOutcome:
    """First round and court on one bounded bench: a criterion's hearing starts as soon as
    its own three opinions are in."""
    answers = bench.submit(requests)
    done = itertools.count(1)
    for future in answers:
        future.add_done_callback(lambda _f: run.progress("judge", next(done), len(requests)))
    opening = {d.id: _opening(d.id, requests, answers) for d in run.rubric.criteria}
    limits = limits_for(run.rubric, run.config.court_limits)
    if not (run.config.court and limits.enabled):
        return CourtOutcome(opinions={cid: wait() for cid, wait in opening.items()})
    with run.trace.span("hear", "court"):
        return hold_court(run.rubric, run.case, pool, shown, opening, bench=bench,
                          trace=run.trace, limits=limits)


def _opening(
    cid: str, requests: list[JudgeRequest], answers: list[Future[Answer]]
) -> Callable[[], list[JudicialOpinion]]:
    mine = [f for r, f in zip(requests, answers, strict=True) if r.criterion.id == cid]
    return lambda: [f.result()[0] for f in mine]
