"""compare: our verdict against peers' Markdown reports in the common shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from verdict_builders import make_verdict

from courtroom.cli import main
from courtroom.cohort.compare import compare_lines
from courtroom.cohort.peer_report import parse_markdown
from courtroom.cohort.sides import load_audit, mentions
from courtroom.errors import UsageError
from courtroom.models import RubricRef, Target
from courtroom.render.markdown import render_report
from courtroom.settings.config import RECEIVED_DIR, SELF_DIR

PEER_HEADINGS = """# Peer audit of octo-org/auditor

## 1. Graph Orchestration Architecture — 2/5
The graph in `src/graph.py` fans out, but `src/nodes/aggregator.py` has no error edge
and the judges never run in parallel. Scores: Prosecutor 1/5, Defense 3/5.

## Safe Tool Engineering (2/5)
Cloning uses a temp dir.

### Git Forensic Analysis
Many small commits.
**Final score:** 4 / 5

## Theoretical Depth (Documentation)
Score: 7/10 — the report explains fan-in well.
"""

PEER_TABLE = """# Audit
| # | Criterion | Score | Notes |
|---|-----------|:-----:|-------|
| 1 | Graph orchestration architecture | 3/5 | see `builder.py` |
| 2 | **State Management Rigor** | 5 | typed state |
| 3 | Safe tool engineering | 2 | |
"""

PEER_BULLETS = """Summary of scores
- **State Management Rigor**: 1/5
- Git forensic analysis — 3/5
"""


def _write(tmp_path: Path, rel: str, text: str) -> Path:
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def ours(tmp_path: Path) -> Path:
    return _write(tmp_path, f"{SELF_DIR}/verdict.json", make_verdict().model_dump_json())


def test_headings_shapes_are_parsed() -> None:
    found = {c.name: c.score for c in parse_markdown(PEER_HEADINGS)}
    assert found["Graph Orchestration Architecture"] == 2
    assert found["Safe Tool Engineering"] == 2
    assert found["Git Forensic Analysis"] == 4  # the final score line
    assert found["Theoretical Depth (Documentation)"] == 3.5  # 7/10 on a 1..5 scale


def test_table_and_bullet_shapes_are_parsed() -> None:
    table = {c.name: c.score for c in parse_markdown(PEER_TABLE) if c.score}
    assert table == {
        "Graph orchestration architecture": 3,
        "State Management Rigor": 5,
        "Safe tool engineering": 2,
    }
    bullets = {c.name: c.score for c in parse_markdown(PEER_BULLETS) if c.score}
    assert bullets == {"State Management Rigor": 1, "Git forensic analysis": 3}


def test_compare_verdict_with_peer_headings(tmp_path: Path, ours: Path) -> None:
    peer = _write(tmp_path, f"{RECEIVED_DIR}/peer.md", PEER_HEADINGS)
    text = "\n".join(compare_lines(load_audit(ours), load_audit(peer)))
    assert (
        "Graph Orchestration Architecture [graph_orchestration]: A 4, B 2 — disagree by 2" in text
    )
    assert "A cited: src/graph.py, src/state.py" in text
    # The peer points at a file our evidence never looked at, and scored lower.
    assert (
        "FLAG: B scored lower and names what A's evidence does not cover: "
        "src/nodes/aggregator.py" in text
    )
    assert "Safe Tool Engineering [safe_tool_engineering]: A 2, B 2 — agree" in text
    assert "Git Forensic Analysis [git_forensic_analysis]: A 4, B 4 — agree" in text
    assert "Only in A: State Management Rigor (3)" in text
    # Biggest disagreement is listed first.
    assert text.index("graph_orchestration") < text.index("safe_tool_engineering")
    assert "4 criteria matched: 2 agree, 2 disagree" in text


def test_compare_command_prints_and_exits_0(
    tmp_path: Path, ours: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    peer = _write(tmp_path, "peer-table.md", PEER_TABLE)
    assert main(["compare", str(ours), str(peer)]) == 0
    out = capsys.readouterr().out
    assert (
        "State Management Rigor [state_management_rigor]: A 3, B 5 — disagree by 2 (B higher)"
        in out
    )
    assert "builder.py" in out  # named by the peer, absent from our evidence
    # Two verdicts compare too (no flags: the same evidence on both sides).
    assert main(["compare", str(ours), str(ours)]) == 0
    assert "0 flagged" in capsys.readouterr().out


def test_our_own_markdown_report_is_readable(tmp_path: Path) -> None:
    report = _write(tmp_path, "report.md", render_report(make_verdict()))
    audit = load_audit(report)
    scores = {v.name: v.score for v in audit.criteria if v.score is not None}
    assert scores.get("Graph Orchestration Architecture") == 4


def test_folders_stand_for_their_audit(tmp_path: Path, ours: Path) -> None:
    peer = _write(tmp_path, f"{RECEIVED_DIR}/from-bob.md", PEER_TABLE)
    assert load_audit(ours.parent).kind == "verdict"
    assert load_audit(peer.parent).source == str(peer)
    _write(tmp_path, f"{RECEIVED_DIR}/from-eve.md", PEER_TABLE)
    with pytest.raises(UsageError, match="not exactly one"):
        load_audit(peer.parent)


def test_unusable_inputs_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no per-criterion scores"):
        load_audit(_write(tmp_path, "x.md", "# Nothing here\nJust words.\n"))
    with pytest.raises(UsageError, match="not a verdict"):
        load_audit(_write(tmp_path, "x.json", '{"a": 1}'))
    with pytest.raises(UsageError, match="cannot read"):
        load_audit(tmp_path / "missing.md")
    with pytest.raises(UsageError, match="nested too deeply"):
        load_audit(_write(tmp_path, "deep.json", "[" * 30_000 + "]" * 30_000))


def test_mentions() -> None:
    text = "See src/a.py:12 and `run_detectives` in README.md, not www.example.com."
    assert mentions(text) == ["src/a.py", "README.md", "run_detectives"]


def test_coverage_is_by_path_not_by_file_name() -> None:
    from courtroom.cohort.compare import covered

    haystack = "courtroom/detectives/graph.py:12 stategraph found"
    assert covered("courtroom/detectives/graph.py", haystack)
    assert covered("detectives/graph.py", haystack)  # the same file from another root
    assert covered("src/graph.py", haystack) is False
    assert covered("graph.py", haystack) and covered("StateGraph", haystack)


def _verdict_of(tmp_path: Path, name: str, **change: object) -> Path:
    verdict = make_verdict().model_copy(update=change)
    return _write(tmp_path, f"{name}/verdict.json", verdict.model_dump_json())


def test_verdicts_of_different_repositories_say_so_first(
    tmp_path: Path, ours: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = _verdict_of(tmp_path, "other", target=Target(repo="octo-org/other\x1b[2J\nfake",
                                                         commit="c" * 40))
    assert main(["compare", str(ours), str(other)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("WARNING: A and B audited different targets (repo octo-org/auditor vs "
                     "octo-org/other[2J fake): their scores do not measure the same thing.")


def test_verdicts_with_different_rubrics_say_so_first(tmp_path: Path, ours: Path) -> None:
    other = _verdict_of(tmp_path, "other",
                        rubric=RubricRef(name="Lenient", version="9", sha256="d" * 64))
    first = compare_lines(load_audit(ours), load_audit(other))[0]
    assert first == ("WARNING: A and B audited different targets (rubric Automaton Auditor 2.0 "
                     "(bbbbbbbbbbbb) vs Lenient 9 (dddddddddddd)): their scores do not measure "
                     "the same thing.")


def test_one_target_spelt_two_ways_is_not_a_mismatch(tmp_path: Path, ours: Path) -> None:
    url = _verdict_of(tmp_path, "url", target=Target(
        repo="https://github.com/Octo-Org/auditor.git", commit="e" * 40))
    fork = _verdict_of(tmp_path, "fork", target=Target(repo="someone/fork", commit="a" * 40))
    peer = _write(tmp_path, "peer.md", PEER_TABLE)
    for other in (url, fork, peer, ours):
        assert compare_lines(load_audit(ours), load_audit(other))[0].startswith("A: ")
