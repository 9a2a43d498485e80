"""Rendering: golden Markdown for report, comment and check run, and GitHub's size limits.

Regenerate the golden files after an intended change with ``UPDATE_GOLDEN=1 pytest``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from verdict_builders import GHOST_ID, make_evidence, make_opinion, make_verdict

from courtroom.render import markdown as render
from courtroom.render.markdown import render_check_run, render_comment, render_report, size
from courtroom.render.state import COMMENT_MARKER, PreviousAudit, decode_state

GOLDEN = Path(__file__).parents[1] / "golden"


def check_golden(name: str, text: str, folder: Path = GOLDEN) -> None:
    """Compare with the golden file; only ``UPDATE_GOLDEN=1`` may write one, even a missing one."""
    path = folder / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden file {name} is missing; run with UPDATE_GOLDEN=1 to write it")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; UPDATE_GOLDEN=1 to accept"


def test_missing_golden_fails_unless_asked_to_write_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    with pytest.raises(pytest.fail.Exception, match="missing"):
        check_golden("absent.md", "text", folder=tmp_path)
    assert not (tmp_path / "absent.md").exists()
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    check_golden("absent.md", "text", folder=tmp_path)
    assert (tmp_path / "absent.md").read_text(encoding="utf-8") == "text"


def _strip_state(comment: str) -> str:
    return comment.split("<!-- courtroom:state", 1)[0]


def test_report_golden() -> None:
    check_golden("report.md", render_report(make_verdict()))


def test_comment_golden_shows_changes_since_previous_audit() -> None:
    before = PreviousAudit(
        overall_score=2.6, scores={"graph_orchestration": 3, "safe_tool_engineering": 2}
    )
    comment = render_comment(make_verdict(), previous=before)
    check_golden("comment.md", _strip_state(comment))
    assert "(+0.40 since last audit)" in comment
    row = next(line for line in comment.splitlines() if line.startswith("| Graph Orchestration"))
    assert "| +1 |" in row


def test_check_run_golden() -> None:
    title, summary, text = render_check_run(make_verdict())
    check_golden("check_run.md", f"# {title}\n\n{summary}\n---\n\n{text}")
    assert title == "3.00/5 · failure · 2 criteria need work"


def test_report_reads_like_a_report() -> None:
    report = render_report(make_verdict())
    headings = ["## Executive summary", "## Scores", "## Findings", "## Evidence appendix"]
    assert [h for h in headings if h in report] == headings
    assert sorted(headings, key=report.index) == headings
    assert report.count("\n|---") == 1  # one table: the scores
    # The verdict line explains itself, right under the title.
    assert report.splitlines()[2].startswith(
        "**3.00 / 5 · ❌ failure** — The merge gate fails: a confirmed security problem capped"
    )
    # The hallucinated citation is marked where it is cited, and the penalty explained.
    assert f"`{GHOST_ID[:8]}` 👻 **hallucinated**" in report
    assert "counted as 2 after the fact-supremacy penalty" in report
    assert "⚖️ **Dissent.**" in report and "🔒 **Security cap.**" in report
    assert "**Court:** decided after a hearing" in report
    assert "`src/tools/repo.py`" in report  # remediation keeps its file paths
    assert "*(looked for, not found; cited by Prosecutor)*" in report


def test_each_fact_is_listed_once_and_each_citation_once_per_criterion() -> None:
    verdict = make_verdict()
    report = render_report(verdict)
    for evidence in verdict.evidences.values():
        assert report.count(f'<a id="ev-{evidence.id[:8]}">') == 1
    # Safe Tool Engineering: three judges cite the shell fact; it is listed once there.
    section = report.split("### Safe Tool Engineering", 1)[1].split("\n### ", 1)[0]
    shell = next(e for e in verdict.evidences.values() if "shell command" in e.goal)
    assert section.count(f"`{shell.id[:8]}`") == 1


def test_comment_and_check_run_follow_the_report_structure() -> None:
    verdict = make_verdict()
    line = "The merge gate fails: a confirmed security problem capped Safe Tool Engineering"
    comment = render_comment(verdict)
    _title, summary, text = render_check_run(verdict)
    for body in (comment, summary):
        order = [line, "**Fix first**", "| Criterion | Score |"]
        assert [body.index(part) for part in order] == sorted(body.index(p) for p in order)
        assert body.count("\n|---") == 1
    for body in (comment, text):
        assert "**Evidence:** `425cf783` `src/tools/repo.py:27`" in body
        findings = body.split("### Evidence")[0]
        assert findings.count("`425cf783` `src/tools/repo.py:27`") == 1  # cited by three judges
    assert "### Evidence" in text  # the check run's appendix


def test_a_cited_adverse_fact_is_marked_as_such() -> None:
    verdict = make_verdict()
    adverse = make_evidence(
        "Chief justice delegates the verdict to an LLM call",
        location="src/justice.py:12",
        detective="source",
    ).model_copy(update={"direction": "adverse"})
    verdict.evidences[adverse.id] = adverse
    for opinion in verdict.criteria[0].opinions:
        opinion.cited_evidence.append(adverse.id)
    report = render_report(verdict)
    assert "`src/justice.py:12` *(adverse)*" in report
    # A fact about the whole tree is located at "."; the reader is told so in words.
    tree = make_evidence("Security scan of Python sources", location=".", detective="security")
    verdict.evidences[tree.id] = tree
    verdict.criteria[0].opinions[0].cited_evidence.append(tree.id)
    assert f"`{tree.id[:8]}`](#ev-{tree.id[:8]}) *whole repository*" in render_report(verdict)
    appendix = report.split("## Evidence appendix", 1)[1]
    assert "Chief justice delegates the verdict to an LLM call *(found, adverse, 0.90)*" in appendix


def test_executive_summary_leads_with_the_three_fixes_that_matter_most() -> None:
    report = render_report(make_verdict())
    summary = report.split("## Executive summary", 1)[1].split("## Scores", 1)[0]
    fixes = [line for line in summary.splitlines() if line[:3] in ("1. ", "2. ", "3. ")]
    assert fixes == [
        "1. Use `subprocess.run([...])` with a list in `src/tools/repo.py`. "
        "— *Safe Tool Engineering (2/5)*",
        "2. Explain fan-in in the report's architecture section. "
        "— *Theoretical Depth (Documentation) (2/5)*",
        "3. Annotate `evidences` with `operator.ior` in `src/state.py`. "
        "— *State Management Rigor (3/5)*",
    ]


def test_no_absolute_temp_paths_leak() -> None:
    verdict = make_verdict()
    leaked = "/tmp/pytest-of-ci/clone-x1/src/tools/repo.py"
    verdict.criteria[0].opinions[0].argument = f"See {leaked}:27 for the call."
    for text in (render_report(verdict), render_comment(verdict), *render_check_run(verdict)):
        assert "/tmp/" not in text
    assert "…/repo.py:27" in render_report(verdict)


def test_free_text_cannot_break_the_comment() -> None:
    verdict = make_verdict()
    verdict.criteria[0].opinions[0].argument = f"</details> {COMMENT_MARKER} <script>x</script>"
    comment = render_comment(verdict)
    assert comment.count(COMMENT_MARKER) == 1
    assert comment.count("<details>") == comment.count("</details>")
    assert "<script>" not in comment


def test_huge_verdict_fits_every_github_limit() -> None:
    verdict = make_verdict(huge=True, findings=120)
    assert size(render_report(verdict)) > 200_000  # the report itself is not cut
    comment = render_comment(verdict)
    assert size(comment) <= 65536
    assert comment.startswith(COMMENT_MARKER)
    assert render.TRUNCATION_NOTE in comment
    assert comment.count("<details>") == comment.count("</details>")
    assert decode_state(comment) is not None
    title, summary, text = render_check_run(verdict)
    assert size(summary) <= 65535 and size(text) <= 65535 and len(title) < 100
    # The weakest criteria survive the cut.
    assert "Safe Tool Engineering" in summary


@pytest.mark.parametrize("limit", [2000, 6000, 20000])
def test_comment_fits_small_limits(limit: int) -> None:
    comment = render_comment(make_verdict(huge=True), limit=limit)
    assert size(comment) <= limit
    assert comment.startswith(COMMENT_MARKER)
    assert comment.count("<details>") == comment.count("</details>")


def test_fallback_opinion_is_shown_but_flagged() -> None:
    verdict = make_verdict()
    verdict.criteria[0].opinions[2] = make_opinion(
        "TechLead", "graph_orchestration", 3, fallback=True
    )
    report = render_report(verdict)
    assert "did not answer; shown but not counted" in report


def test_templates_folder_can_be_overridden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "templates"
    shutil.copytree(render.templates_dir(), folder)
    (folder / "report.md.j2").write_text("custom {{ view.verdict.target.repo }}\n")
    monkeypatch.setenv("COURTROOM_TEMPLATES", str(folder))
    assert render_report(make_verdict()) == "custom octo-org/auditor\n"


def test_sealed_verdict_prints_its_digest_in_report_and_check_run() -> None:
    from courtroom.integrity import seal

    verdict = seal(make_verdict())
    digest = str((verdict.integrity or {})["digest"])
    assert f"`sha256:{digest}`" in render_report(verdict)
    _title, summary, _text = render_check_run(verdict)
    assert f"sha256:{digest}" in summary
    assert "sha256:" not in render_report(make_verdict())
