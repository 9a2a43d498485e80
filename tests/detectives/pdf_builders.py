"""Builders for PDF-analysis tests: rubric dimensions, cases and report texts (generated)."""

from __future__ import annotations

from courtroom.detectives import Case
from courtroom.rubric import Dimension


def concept_dimension(instruction: str, success: str | None = None) -> Dimension:
    """A pdf_report dimension whose instruction enumerates the concepts to look for."""
    return Dimension(id="depth", name="Depth", target_artifact="pdf_report",
                     forensic_instruction=instruction, success_pattern=success)


def with_rubric(case: Case, *dimensions: Dimension) -> Case:
    """The same case, carrying the rubric's dimensions."""
    return Case(workspace=case.workspace, pdf=case.pdf, pdf_display=case.pdf_display,
                dimensions=dimensions)


FOUR = concept_dimension("Search the report for Dialectical Synthesis, Fan-In/Fan-Out, "
                         "Metacognition and State Synchronization. For each, decide.")


def paraphrase_pages() -> list[str]:
    """Explains every mechanism in its own words, never with the rubric's exact phrases."""
    return [
        "How the auditor works\n\n"
        "The START node fans out to three detective nodes, which run in parallel; each\n"
        "writes its evidence and the evidence_aggregator node waits for every branch\n"
        "before the judges run, so no judge sees partial evidence.",
        "The three judges argue dialectically: the prosecutor node charges every gap, the\n"
        "defense node credits effort, and the chief justice resolves the conflict with\n"
        "deterministic rules in src/justice.py instead of averaging their scores.",
        "The graph state is synchronised by reducers: AgentState annotates opinions with\n"
        "operator.add so parallel writes are merged when the branches join, and evidences\n"
        "with operator.ior, which prevents one detective overwriting another.",
        "Its meta-cognitive loop: when judges disagree, the chief justice in src/justice.py\n"
        "checks each\n"
        "cited evidence id against the state and routes the criterion back through a\n"
        "conditional edge for re-evaluation, so the system evaluates its own evaluation.",
    ]


def name_drop_pages() -> list[str]:
    """Names each concept in full, next to code names, but never says how anything works."""
    return [
        "Highlights\n\nDialectical Synthesis. Fan-In/Fan-Out. Metacognition. State "
        "Synchronization.\nThese are in src/graph.py and src/state.py and AgentState.\n"
        "We are proud of this project and of our team. It was a lot of fun to build.",
    ]


def path_pages() -> list[str]:
    """A claimed ghost path, a proposed one, a peer's quoted one and a local one."""
    return [
        "The graph is wired in src/graph.py and the retries live in src/retry_helpers.py.",
        "Next steps: we plan to add docs/deferrals.md describing each deferral.",
        "Our peer's audit reported \"hallucinated file src/nodes/router.py\" in our report,\n"
        "but that file was renamed long ago.",
        "During development the state file lived at /Users/dev/.../state.py on my laptop.",
    ]
