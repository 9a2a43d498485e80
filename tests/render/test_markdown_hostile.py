"""Hostile text from a submission or a model does not act in any rendered output."""

from __future__ import annotations

from markdown_oracle import headings, live_parts
from verdict_builders import make_evidence, make_verdict

from courtroom.models import EvidenceGap, Verdict
from courtroom.render.markdown import (
    render_check_run,
    render_comment,
    render_report,
    render_summary,
)

HOSTILE = (
    "@octocat @acme/team &#64;admin \\@esc [x](https://evil.example) ![p](https://evil.example/p.png)"
    " <img src=x> https://evil.example www.evil.example a@evil.example #12 \u202eevil\u202c"
    " \x1b[31m\n# PWNED heading\n` @after @/github/workspace/octocat"
)


def _hostile_verdict() -> Verdict:
    """Every free-text field a submission or a model controls, set to hostile text."""
    verdict = make_verdict(errors=[f"detective x failed: {HOSTILE}"])
    bad = make_evidence(f"goal {HOSTILE}", location=f"src/{HOSTILE}.py:3", content=HOSTILE)
    verdict.evidences[bad.id] = bad
    verdict.target.repo = f"octo-org/{HOSTILE}"
    verdict.target.pdf = f"{HOSTILE}.pdf"
    verdict.rubric.name = verdict.rubric.version = verdict.bench = HOSTILE
    verdict.target.commit = HOSTILE
    for criterion in verdict.criteria:
        criterion.name = f"{criterion.name} {HOSTILE}"
        criterion.remediation = f"- {HOSTILE}\n- second {HOSTILE}"
        if criterion.dissent_summary:
            criterion.dissent_summary = HOSTILE
        if criterion.security_override:
            criterion.execution_log.override_reason = HOSTILE
        if criterion.court is not None:
            criterion.court.gaps = [EvidenceGap(missing=HOSTILE, raised_by="x", stage="y")]
        for opinion in criterion.opinions:
            opinion.argument = HOSTILE
            opinion.charges = [HOSTILE]
            opinion.mitigations = [HOSTILE]
            opinion.cited_evidence = [*opinion.cited_evidence, bad.id]
    return verdict


def _outputs(verdict: Verdict) -> dict[str, str]:
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


def test_hostile_text_does_not_act_in_any_output() -> None:
    for name, text in _outputs(_hostile_verdict()).items():
        assert live_parts(text) == [], name
        assert not [h for h in headings(text) if h.startswith("PWNED")], name
        assert text.count("<details>") == text.count("</details>"), name
