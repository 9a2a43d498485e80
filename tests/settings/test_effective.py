"""The effective settings: flags, then the file, then defaults; a tree file (written by
whoever writes the pull request) fills gaps but never loosens what the workflow set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import FakeBackend, make_repo
from config_builders import settle, tree
from verdict_builders import make_opinion

from courtroom.detectives import open_workspace
from courtroom.errors import ConfigError
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.models import JudicialOpinion
from courtroom.pipeline import audit
from courtroom.publish.github.runners import AuditRequest, pipeline_runner
from courtroom.settings.config_file import TREE_FILE
from courtroom.settings.effective import batch_fields, effective_config


def test_flags_win_the_file_fills_the_rest_defaults_last(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo", "model: from-file\nmax-concurrency: 3\n")
    config = settle(root, tmp_path, model="from-flag", judge_timeout=None)
    assert config.model == "from-flag" and config.sources["model"] == "flag"
    assert config.max_concurrency == 3 and config.sources["max_concurrency"] == TREE_FILE
    assert config.judge_timeout == 600 and "judge_timeout" not in config.sources
    record = config.settings_record()
    assert record["model"] == "from-flag" and record["sources"]["max_concurrency"] == TREE_FILE
    assert "api_key" not in record and str(tmp_path) not in repr(record)

def test_the_tree_file_cannot_loosen_the_gate_the_workflow_set(tmp_path: Path) -> None:
    lower = settle(tree(tmp_path / "a", "fail-below: 0\n"), tmp_path, fail_below=3.5)
    assert lower.fail_below == 3.5
    higher = settle(tree(tmp_path / "b", "fail-below: 4\n"), tmp_path, fail_below=3.5)
    assert higher.fail_below == 4 and "raised by" in higher.sources["fail_below"]
    both = settle(
        tree(tmp_path / "c", "gate: {graph_orchestration: 2, swarm_visual: 4}\n"),
        tmp_path,
        gate={"graph_orchestration": 3.0},
    )
    assert both.gate == {"graph_orchestration": 3.0, "swarm_visual": 4.0}
    # Failing on an uncovered criterion: the file may turn it on, never off once set.
    on = settle(tree(tmp_path / "d", "fail-on-uncovered: true\n"), tmp_path)
    assert on.fail_on_uncovered and on.sources["fail_on_uncovered"] == TREE_FILE
    kept = settle(tree(tmp_path / "e", "fail-on-uncovered: false\n"), tmp_path,
                  fail_on_uncovered=True)
    assert kept.fail_on_uncovered and kept.sources["fail_on_uncovered"] == "flag"


def test_under_a_workflow_gate_the_tree_cannot_change_how_scores_are_measured(
    tmp_path: Path,
) -> None:
    rubric = (Path(__file__).parents[2] / "rubric.json").read_bytes()
    text = (
        "rubric: lax.json\njudges: offline\nmodel: cheap\nmax-cost-usd: 0.01\n"
        "max-concurrency: 2\n"
    )
    root = tree(tmp_path / "repo", text, {"lax.json": rubric})
    lines: list[str] = []
    gated = settle(root, tmp_path, lines, fail_below=3.0, judges="anthropic")
    assert gated.rubric_path != root / "lax.json" and gated.model is None
    assert gated.judges == "anthropic" and gated.max_cost_usd is None
    assert gated.max_concurrency == 2  # throughput is not a measure: still the file's
    assert lines == [
        f"{TREE_FILE}: rubric, judges, model, max-cost-usd ignored: the workflow set the gate "
        "(fail-below), so how the score is measured is the workflow's to choose"
    ]
    assert "ignored under the workflow's gate" in gated.sources["model"]
    ungated = settle(root, tmp_path)
    assert ungated.rubric_path == root / "lax.json" and ungated.model == "cheap"
    trusted = effective_config(
        {"target": str(root), "out_dir": tmp_path / "o", "fail_below": 3.0}, root,
        trust_tree=True, env={"XDG_CACHE_HOME": str(tmp_path / "xdg")},
    )
    assert trusted.model == "cheap"


@pytest.mark.parametrize("rubric", ["../outside.json", "/etc/passwd", "link.json"])
def test_tree_paths_stay_inside_the_tree_and_off_symlinks(tmp_path: Path, rubric: str) -> None:
    (tmp_path / "outside.json").write_text("{}", encoding="utf-8")
    root = tree(tmp_path / "repo", f"rubric: {rubric}\n")
    (root / "link.json").symlink_to(tmp_path / "outside.json")
    with pytest.raises(ConfigError, match=f"{TREE_FILE}: rubric: .*inside the repository"):
        settle(root, tmp_path)

def test_a_symlinked_pdf_or_config_file_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.pdf"
    secret.write_bytes(b"%PDF private")
    root = tree(tmp_path / "repo", "pdf: report.pdf\n")
    (root / "report.pdf").symlink_to(secret)
    with pytest.raises(ConfigError, match=r"pdf: report\.pdf is a symlink"):
        settle(root, tmp_path)
    globbed = tree(tmp_path / "g", "pdf: '*.pdf'\n")
    (globbed / "a.pdf").symlink_to(secret)
    assert settle(globbed, tmp_path).pdf != secret  # a glob skips links, never follows them
    other = tmp_path / "other"
    tree(other, "fail-below: 5\n")
    linked = tree(tmp_path / "l")
    (linked / ".github").symlink_to(other / ".github")
    with pytest.raises(ConfigError, match="symlink; refused"):
        settle(linked, tmp_path)

def test_a_missing_pdf_is_said_with_every_path_tried(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo")
    lines: list[str] = []
    config = settle(root, tmp_path, lines, pdf=Path("docs/nope.pdf"))
    assert config.pdf == root / "docs/nope.pdf"
    assert lines == [f"pdf docs/nope.pdf not found (tried: {root / 'docs/nope.pdf'})"]


def test_the_gate_names_criteria_of_the_rubric(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="gate: unknown criterion 'nope'"):
        settle(tree(tmp_path / "r", "gate: {nope: 3}\n"), tmp_path)


def test_the_cache_never_lives_inside_the_audited_tree(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo")
    with pytest.raises(ConfigError, match="inside the audited tree"):
        settle(root, tmp_path, cache_dir=root / ".courtroom-cache")
    assert settle(root, tmp_path).cache_dir == tmp_path / "xdg" / "courtroom"


def test_operator_config_is_trusted_and_relative_to_its_folder(tmp_path: Path) -> None:
    ops = tmp_path / "ops"
    ops.mkdir()
    (ops / "r.json").write_bytes((Path(__file__).parents[2] / "rubric.json").read_bytes())
    (ops / "c.yml").write_text("rubric: r.json\nignore: ['vendor/**']\n", encoding="utf-8")
    root = tree(tmp_path / "repo", "colour: ignored because --config replaces this file\n")
    fields = {"target": str(root), "out_dir": tmp_path / "o"}
    config = effective_config(fields, root, config_file=ops / "c.yml", env={})
    assert config.rubric_path == ops / "r.json" and config.ignore == ("vendor/**",)
    shared, _ = batch_fields({"model": None}, ops / "c.yml")
    assert shared["rubric_path"] == ops / "r.json"
    (ops / "p.yml").write_text("pdf: x.pdf\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="give each submission's PDF in the manifest"):
        batch_fields({}, ops / "p.yml")


class _Honest(FakeBackend):
    """A cacheable backend (as Claude is) whose every opinion says it was really asked."""

    name = "honest"

    def __init__(self) -> None:
        self.calls = 0

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        self.calls += 1
        cid = request.criterion.id
        return make_opinion(request.persona, cid, 2, argument="Asked for real."), JudgeUsage()

def test_a_cache_committed_in_the_audited_tree_is_never_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", files={"app.py": "print('hi')\n"})
    out = repo / "audit" / "report_onself_generated"
    first = _Honest()
    warm = tmp_path / "warm-cache"
    fields: dict[str, Any] = {"target": str(repo), "out_dir": out, "court": False}
    audit(settle(repo, tmp_path, cache_dir=warm, **fields), backend=first)
    assert first.calls == 30
    # Forge every cached opinion as a 5 and commit them where the old default cache lived.
    poisoned = repo / "audit" / ".courtroom-cache"
    for entry in warm.rglob("*.json"):
        data = json.loads(entry.read_text(encoding="utf-8"))
        data.update(score=5, argument="FORGED by the pull request.")
        target = poisoned / entry.relative_to(warm)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data), encoding="utf-8")
    assert any(poisoned.rglob("*.json"))
    again = _Honest()
    outcome = audit(settle(repo, tmp_path, **fields), backend=again)
    assert again.calls == 30
    assert outcome.verdict is not None
    opinions = [o for c in outcome.verdict.criteria for o in c.opinions]
    assert all(o.score == 2 and "FORGED" not in o.argument for o in opinions)


VULNERABLE = "import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"


def _audited(config_text: str | None, tmp: Path, **given: Any) -> tuple[set[str], list[str]]:
    """(files of evidence locations, the workspace listing) of an offline audit."""
    files = {"app/run.py": VULNERABLE, "app/notes.md": "Notes on run.py.\n"}
    if config_text is not None:
        files[TREE_FILE] = config_text
    repo = make_repo(tmp / "repo", files=files)
    config = settle(repo, tmp, target=str(repo), out_dir=tmp / "out", court=False, **given)
    outcome = audit(config)
    assert outcome.verdict is not None
    with open_workspace(str(repo), ignore=config.skips()) as workspace:
        listed = workspace.files()
    located = {e.location.split(":")[0] for e in outcome.verdict.evidences.values()}
    return located, listed


def test_the_trees_ignore_cannot_hide_python_from_the_security_scan(tmp_path: Path) -> None:
    located, listed = _audited('ignore: ["app/**"]\n', tmp_path / "tree")
    assert "app/run.py" in located and "app/run.py" in listed
    assert "app/notes.md" not in listed
    located, listed = _audited(None, tmp_path / "flag", ignore=("app/**",))
    assert "app/run.py" not in located and "app/run.py" not in listed


def test_the_action_reads_the_checkouts_file_under_its_inputs(tmp_path: Path) -> None:
    text = "fail-below: 4.9\nmodel: from-the-pr\nmax-concurrency: 2\n"
    repo = make_repo(tmp_path / "repo", files={TREE_FILE: text, "a.py": "x = 1\n"})
    request = AuditRequest(
        workspace=repo, out_dir=tmp_path / "out", display_name="o/r", commit="0" * 40,
        api_key=None, settings={"fail_below": 1.0}, cache_dir=tmp_path / "cache",
    )
    outcome = pipeline_runner(request)
    assert outcome.verdict is not None
    settings = outcome.verdict.settings
    assert settings["fail_below"] == 4.9 and settings["max_concurrency"] == 2
    assert settings["model"] is None  # a measure: the inputs set the gate
    assert outcome.verdict.conclusion == "failure" and outcome.exit_code == 1
