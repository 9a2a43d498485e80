"""What the render tests share: a verdict whose every untrusted field holds one text, and
every Markdown output rendered from a verdict."""

from __future__ import annotations

from verdict_builders import make_evidence, make_verdict

from courtroom.models import EvidenceGap, Verdict
from courtroom.render.markdown import (
    render_check_run,
    render_comment,
    render_report,
    render_summary,
)


def hostile_verdict(text: str) -> Verdict:
    """Every free-text field a submission or a model controls, set to ``text``.

    File names, evidence goals (commit subjects, PDF quotes), locations, judges' arguments,
    charges and fixes, court gaps, error lines, the rubric's and bench's names, the target:
    a cited fact located at ``text`` itself, and one in a file named by it.
    """
    verdict = make_verdict(errors=[f"detective x failed: {text}"])
    bad = make_evidence(f"goal {text}", location=f"src/{text}.py:3", content=text,
                        rationale=text)
    bare = make_evidence(text, location=text, content=text)
    verdict.evidences.update({bad.id: bad, bare.id: bare})
    verdict.target.repo = f"octo-org/{text}"
    verdict.target.pdf = f"{text}.pdf"
    verdict.rubric.name = verdict.rubric.version = verdict.bench = text
    verdict.target.commit = text
    verdict.settings = {"sources": {"config": text}}
    for criterion in verdict.criteria:
        criterion.name = f"{criterion.name} {text}"
        criterion.remediation = f"- {text}\n- second {text}"
        if criterion.dissent_summary:
            criterion.dissent_summary = text
        if criterion.security_override:
            criterion.execution_log.override_reason = text
        if criterion.court is not None:
            criterion.court.gaps = [EvidenceGap(missing=text, raised_by="x", stage="y")]
        for opinion in criterion.opinions:
            opinion.argument = text
            opinion.charges = [text]
            opinion.mitigations = [text]
            opinion.cited_evidence = [bad.id, bare.id, *opinion.cited_evidence]
    return verdict


def outputs(verdict: Verdict) -> dict[str, str]:
    """Every Markdown text an audit publishes, at full size and squeezed."""
    title, summary, text = render_check_run(verdict)
    _title, small_summary, small_text = render_check_run(verdict, limit=3000)
    return {
        "report.md": render_report(verdict),
        "job summary": render_summary(verdict),
        "job summary, shortened": render_summary(verdict, limit=6000),
        "comment": render_comment(verdict),
        "comment, shortened": render_comment(verdict, limit=5000),
        "check title": title,
        "check summary": summary,
        "check text": text,
        "check summary, shortened": small_summary,
        "check text, shortened": small_text,
    }
