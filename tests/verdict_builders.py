"""Verdict builders for rendering and publishing tests: valid models, no pipeline needed.

Criteria are ruled by the real chief justice, so every number is true; the point of the
builders is realistic *shapes*: a dissent, a hallucinated citation, a security override,
a hearing record, a fallback judge, many findings.
"""

from __future__ import annotations

from collections.abc import Sequence

from courtroom import chief_justice
from courtroom.models import (
    JUDGES,
    CourtRecord,
    CriterionResult,
    Direction,
    Evidence,
    EvidenceRequest,
    HearingRound,
    JudgeName,
    JudicialOpinion,
    RubricRef,
    Target,
    TargetArtifact,
    Usage,
    Verdict,
    opinion_id,
)
from courtroom.rubric import SynthesisParameters

WEIGHTS = {"Prosecutor": 1.0, "Defense": 1.0, "TechLead": 2.0}
GHOST_ID = "00000000-dead-4bee-8000-000000000000"


def make_evidence(
    goal: str,
    *,
    location: str,
    found: bool = True,
    tags: Sequence[str] = ("github_repo",),
    confidence: float = 0.9,
    content: str | None = None,
    detective: str = "source",
    rationale: str | None = None,
    direction: Direction | None = None,
    fix: str | None = None,
) -> Evidence:
    """One located fact with its derived id (a "context" fact unless a direction is given)."""
    return Evidence.make(
        detective=detective,
        goal=goal,
        found=found,
        location=location,
        rationale=rationale or f"Checked {location} directly.",
        confidence=confidence,
        content=content,
        tags=tags,
        direction=direction or "context",
        fix=fix,
    )


def make_opinion(
    judge: JudgeName,
    criterion_id: str,
    score: int,
    *,
    cites: Sequence[str] = (),
    argument: str | None = None,
    remediation: str | None = None,
    charges: Sequence[str] | None = None,
    mitigations: Sequence[str] | None = None,
    requests: Sequence[EvidenceRequest] | None = None,
    fallback: bool = False,
    salt: str = "",
) -> JudicialOpinion:
    """One judge's opinion with a stable id (``salt`` tells apart revisions that would
    otherwise share one); the fixed fallback opinion when ``fallback`` is set."""
    if fallback:
        return JudicialOpinion.fallback_for(judge, criterion_id)
    return JudicialOpinion(
        opinion_id=opinion_id(judge, criterion_id, f"{salt}{score}:{','.join(cites)}"),
        judge=judge,
        criterion_id=criterion_id,
        score=score,
        argument=argument or f"{judge} weighed the cited facts and scores {score}.",
        cited_evidence=list(cites),
        charges=list(charges) if charges is not None else None,
        mitigations=list(mitigations) if mitigations is not None else None,
        remediation=remediation,
        evidence_requests=list(requests) if requests else None,
    )


def make_criterion(
    criterion_id: str,
    name: str,
    opinions: Sequence[JudicialOpinion],
    pool: dict[str, Evidence],
    *,
    cap: bool = False,
    court: CourtRecord | None = None,
    artifact: TargetArtifact | None = None,
) -> CriterionResult:
    """Synthesize a criterion with the real chief justice; ``cap`` states the expected override."""
    result = chief_justice.rule(criterion_id, name, list(opinions), pool, SynthesisParameters())
    assert result.security_override is cap, "the opinions do not trigger the expected cap"
    return result.model_copy(update={"court": court, "artifact": artifact})


def _standard_case() -> tuple[dict[str, Evidence], list[CriterionResult]]:
    """Five criteria covering the interesting shapes of a real verdict."""
    # fmt: off
    graph = make_evidence("StateGraph wires detectives in parallel", location="src/graph.py:42",
                          tags=("github_repo", "graph", "parallelism"), content="fan-out: 3")
    reducer = make_evidence("State uses reducers for parallel writes", location="src/state.py:10",
                            tags=("github_repo", "state"), confidence=0.8)
    shell = make_evidence("Clone tool builds a shell command from the URL",
                          location="src/tools/repo.py:27", tags=("github_repo", "security"),
                          confidence=0.95, content="os.system(f'git clone {url}')")
    sandbox = make_evidence("Clone runs in a temporary directory", location="src/tools/repo.py:20",
                            found=False, tags=("github_repo", "sandbox"), confidence=0.7)
    commits = make_evidence("Commit history shows iterative progress", location="3f9c2ab",
                            tags=("github_repo", "git"), detective="history", content="14 commits")
    concepts = make_evidence("Report explains fan-in synchronisation", location="pdf:page 3",
                             tags=("pdf_report", "concepts"), detective="report", confidence=0.6)
    # fmt: on
    pool = {e.id: e for e in (graph, reducer, shell, sandbox, commits, concepts)}

    criteria = [
        make_criterion(
            "graph_orchestration",
            "Graph Orchestration Architecture",
            [
                make_opinion(
                    "Prosecutor",
                    "graph_orchestration",
                    4,
                    cites=[graph.id],
                    argument="Parallel fan-out exists, but no error edge handles a failed node.",
                    remediation="Add a conditional edge for failures in `src/graph.py`.",
                ),
                make_opinion(
                    "Defense",
                    "graph_orchestration",
                    5,
                    cites=[graph.id, reducer.id],
                    argument="Detectives really run in parallel and the state merges safely.",
                ),
                make_opinion(
                    "TechLead",
                    "graph_orchestration",
                    4,
                    cites=[graph.id],
                    argument="Sound and maintainable; error paths are the one gap.",
                ),
            ],
            pool,
        ),
        make_criterion(
            "safe_tool_engineering",
            "Safe Tool Engineering",
            [
                make_opinion(
                    "Prosecutor",
                    "safe_tool_engineering",
                    1,
                    cites=[shell.id, sandbox.id],
                    argument="Shell injection: the URL is interpolated into os.system.",
                    charges=["shell injection in src/tools/repo.py:27"],
                    remediation="Use `subprocess.run([...])` with a list in `src/tools/repo.py`.",
                ),
                make_opinion(
                    "Defense",
                    "safe_tool_engineering",
                    4,
                    cites=[shell.id, GHOST_ID],
                    argument="The tool clones and reports errors; intent is clearly there.",
                ),
                make_opinion(
                    "TechLead",
                    "safe_tool_engineering",
                    2,
                    cites=[shell.id],
                    argument="Works, but unsafe to run on untrusted URLs.",
                    remediation="Clone into `tempfile.TemporaryDirectory()`.",
                ),
            ],
            pool,
            cap=True,
        ),
        make_criterion(
            "state_management_rigor",
            "State Management Rigor",
            [
                make_opinion(
                    "Prosecutor",
                    "state_management_rigor",
                    2,
                    cites=[reducer.id],
                    argument="Only one reducer; parallel nodes overwrite the evidence dict.",
                ),
                make_opinion(
                    "Defense",
                    "state_management_rigor",
                    5,
                    cites=[reducer.id],
                    argument="Typed state with reducers is the right design.",
                ),
                make_opinion(
                    "TechLead",
                    "state_management_rigor",
                    3,
                    cites=[reducer.id],
                    argument="Half of the state is safe under parallel writes.",
                    remediation="Annotate `evidences` with `operator.ior` in `src/state.py`.",
                ),
            ],
            pool,
            court=CourtRecord(
                path="hearing",
                rounds=[HearingRound(round=1, stage="hearing", opinions=[])],
                handoffs=2,
                extra_calls=3,
            ),
        ),
        make_criterion(
            "git_forensic_analysis",
            "Git Forensic Analysis",
            [
                make_opinion("Prosecutor", "git_forensic_analysis", 3, cites=[commits.id]),
                make_opinion("Defense", "git_forensic_analysis", 4, cites=[commits.id]),
                make_opinion("TechLead", "git_forensic_analysis", 3, fallback=True),
            ],
            pool,
        ),
        make_criterion(
            "theoretical_depth",
            "Theoretical Depth (Documentation)",
            [
                make_opinion("Prosecutor", "theoretical_depth", 2, cites=[concepts.id]),
                make_opinion("Defense", "theoretical_depth", 3, cites=[concepts.id]),
                make_opinion(
                    "TechLead",
                    "theoretical_depth",
                    2,
                    cites=["NO_EVIDENCE"],
                    remediation="Explain fan-in in the report's architecture section.",
                ),
            ],
            pool,
        ),
    ]
    return pool, criteria


def make_findings(count: int) -> list[Evidence]:
    """``count`` located security findings in distinct files (for annotation batching)."""
    return [
        make_evidence(
            f"Finding {i}: subprocess call with shell=True",
            location=f"pkg/mod{i:03d}.py:{i + 1}",
            tags=("github_repo", "security"),
            detective="security",
        )
        for i in range(count)
    ]


def make_verdict(
    *,
    findings: int = 0,
    huge: bool = False,
    conclusion: str | None = None,
    errors: Sequence[str] = (),
    overall: float | None = None,
) -> Verdict:
    """A realistic verdict; ``findings`` adds located findings, ``huge`` makes it enormous."""
    pool, criteria = _standard_case()
    extra = make_findings(findings)
    pool.update({e.id: e for e in extra})
    if extra:
        # A judge cites every finding, as a real security criterion would.
        criteria[1].opinions[0].cited_evidence.extend(e.id for e in extra)
    if huge:
        long_text = " ".join(["The judge elaborates on every file it read."] * 60)
        for n in range(40):
            cid = f"bulk_criterion_{n:02d}"
            facts = [
                make_evidence(
                    f"Bulk fact {n}-{k} " + "x" * 200, location=f"bulk/{n}/f{k}.py:{k + 1}"
                )
                for k in range(25)
            ]
            pool.update({e.id: e for e in facts})
            ids = [e.id for e in facts]
            criteria.append(
                make_criterion(
                    cid,
                    f"Bulk criterion {n}",
                    [
                        make_opinion(
                            j,
                            cid,
                            1 + (n + i) % 5,
                            cites=ids,
                            argument=long_text,
                            remediation=f"Refactor `bulk/{n}/f0.py` ({j}).",
                        )
                        for i, j in enumerate(JUDGES)
                    ],
                    pool,
                )
            )
    score = (
        overall
        if overall is not None
        else round(sum(c.final_score for c in criteria) / len(criteria), 2)
    )
    return Verdict(
        target=Target(repo="octo-org/auditor", commit="a" * 40, pdf="reports/final.pdf"),
        rubric=RubricRef(name="Automaton Auditor", version="2.0", sha256="b" * 64),
        bench="offline",
        overall_score=score,
        conclusion=conclusion or "failure",  # the security override fired above
        evidences=pool,
        criteria=criteria,
        errors=list(errors),
        usage=Usage(calls=15),
    )
