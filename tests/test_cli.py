"""The command line's contract: usage errors are one line and exit 2, never a traceback."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from builders import make_pdf, make_repo

from courtroom import __version__
from courtroom.cli import build_parser, main
from courtroom.cli.audit import given_from_args
from courtroom.cohort import command as cohort_command
from courtroom.cohort.manifest import Row
from courtroom.settings.config import choose_judges, default_out_dir, target_name


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    return code, err


def assert_one_line(err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) >= 1
    assert "Traceback" not in err
    assert lines[-1].startswith("courtroom")


def test_missing_target_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, err = run(capsys, "audit", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o"))
    assert code == 2
    assert "target not found" in err
    assert_one_line(err)
    assert not (tmp_path / "o").exists()


def test_unknown_flag_and_bad_score_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "audit", ".", "--frobnicate")
    assert code == 2 and "unrecognized arguments" in err
    code, err = run(capsys, "audit", ".", "--fail-below", "7")
    assert code == 2 and "between 0 and 5" in err
    code, err = run(capsys)
    assert code == 2
    assert "Traceback" not in err


def test_invalid_rubric_stops_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rubric = tmp_path / "bad.json"
    rubric.write_text(json.dumps({"rubric_metadata": {"rubric_name": "x"}, "dimensions": [{}]}))
    out = tmp_path / "out"
    code, err = run(capsys, "audit", str(tmp_path), "--rubric", str(rubric), "--out", str(out))
    assert code == 2
    assert f"{rubric}: dimensions[0].id: required field is missing" in err
    assert_one_line(err)
    assert not out.exists()


def test_choose_judges_defaults_on_the_key() -> None:
    assert choose_judges(None, {}) == "offline"
    assert choose_judges(None, {"ANTHROPIC_API_KEY": "sk-test"}) == "anthropic"
    assert choose_judges("offline", {"ANTHROPIC_API_KEY": "sk-test"}) == "offline"


def test_default_out_dirs_separate_self_and_peer(tmp_path: Path) -> None:
    here = Path.cwd()
    assert default_out_dir(str(here)).as_posix().endswith("audit/report_onself_generated")
    peer = default_out_dir("https://github.com/acme/auditor.git", cwd=tmp_path)
    assert peer == tmp_path.resolve() / "audit/report_onpeer_generated/auditor"
    assert target_name("git@github.com:acme/My Auditor.git") == "My-Auditor"


def test_every_option_of_every_sub_command_has_help() -> None:
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.option_strings or action.dest}"
        for name, sub in subs.choices.items()
        for action in sub._actions
        if not action.help
    ]
    assert missing == []
    assert all(a.help for a in parser._actions)


def test_version_and_errors_without_a_doubled_prefix(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"courtroom {__version__}"
    code, err = run(capsys, "batch", "m.csv", "--out", "o", "--workers", "x")
    assert code == 2 and err.startswith("courtroom: batch: argument --workers")
    assert "courtroom: courtroom" not in err


def test_every_setting_has_a_flag(tmp_path: Path) -> None:
    args = build_parser().parse_args(
        ["audit", str(tmp_path), "--provider", "vertex", "--max-cost-usd", "1.5",
         "--region", "us-east5", "--project-id", "proj",
         "--max-concurrency", "3", "--judge-timeout", "90", "--clone-timeout", "5",
         "--ignore", "vendor/**", "--ignore", "*.min.js", "--cache-dir", str(tmp_path / "c")]
    )
    given = given_from_args(args, {})
    assert given["provider"] == "vertex" and given["max_cost_usd"] == 1.5
    assert (given["region"], given["project_id"]) == ("us-east5", "proj")
    assert (given["max_concurrency"], given["judge_timeout"], given["clone_timeout"]) == (3, 90, 5)
    assert given["ignore"] == ("vendor/**", "*.min.js")
    batch = build_parser().parse_args(["batch", "m.csv", "--out", "o", "--clone-timeout", "5"])
    assert batch.clone_timeout == 5 and batch.config is None


def test_a_bad_config_file_stops_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "repo", files={".github/courtroom.yml": "fail_below: 3\n"})
    code, err = run(capsys, "audit", str(repo), "--out", str(tmp_path / "o"), "--quiet")
    assert code == 2
    assert err.strip().splitlines()[-1].startswith(
        "courtroom: .github/courtroom.yml: fail_below: unknown key"
    )
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_repo_relative_pdf_is_found_inside_the_target_and_a_miss_is_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo", files={"app.py": "print('hi')\n"})
    make_pdf(repo / "docs" / "report.pdf", ["Dialectical synthesis and fan-in."])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = tmp_path / "o"
    code, err = run(capsys, "audit", str(repo), "--pdf", "docs/report.pdf", "--out", str(out),
                    "--quiet", "--no-court")
    assert code in (0, 1), err
    data = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert data["target"]["pdf"] == "docs/report.pdf"
    assert not any("not found" in e for e in data["errors"])
    code, err = run(capsys, "audit", str(repo), "--pdf", "nope.pdf", "--out", str(out),
                    "--quiet", "--no-court")
    tried = f"tried: {elsewhere.resolve() / 'nope.pdf'}, {repo.resolve() / 'nope.pdf'}"
    assert f"courtroom: pdf nope.pdf not found ({tried})" in err
    data = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert any("not found" in e for e in data["errors"])


def test_a_cloned_target_is_judged_by_its_own_config_and_per_criterion_gate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = "gate: {git_forensic_analysis: 5}\nmodel: from-the-tree\n"
    repo = make_repo(tmp_path / "repo", files={".github/courtroom.yml": config, "a.py": "x = 1\n"})
    out = tmp_path / "o"
    code, err = run(capsys, "audit", f"file://{repo}", "--out", str(out), "--quiet",
                    "--no-court", "--judges", "offline", "--clone-timeout", "60")
    assert code == 1, err
    data = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert data["conclusion"] == "failure"
    assert any(e.startswith("gate: git_forensic_analysis scored") for e in data["errors"])
    settings = data["settings"]
    assert settings["gate"] == {"git_forensic_analysis": 5.0}
    assert settings["sources"]["gate"] == ".github/courtroom.yml"
    assert settings["sources"]["judges"] == "flag" and settings["clone_timeout"] == 60
    assert "api_key" not in json.dumps(settings) and str(tmp_path) not in json.dumps(settings)


def test_an_interrupted_batch_exits_3_and_says_how_to_resume(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_text(f"repo\n{tmp_path}\n", encoding="utf-8")

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cohort_command, "run_batch", interrupted)
    code, err = run(capsys, "batch", str(manifest), "--out", str(tmp_path / "o"), "--workers", "1")
    assert code == 3
    assert "batch interrupted" in err and "run the same command again to resume" in err


def test_batch_flags_then_its_config_file_apply_to_every_submission(tmp_path: Path) -> None:
    config = tmp_path / "cohort.yml"
    config.write_text(
        "fail-below: 2\nmodel: from-file\nignore: ['vendor/**']\njudge-timeout: 120\n",
        encoding="utf-8",
    )
    args = build_parser().parse_args(
        ["batch", "m.csv", "--out", str(tmp_path / "o"), "--config", str(config),
         "--model", "from-flag", "--max-concurrency", "3", "--cache-dir", str(tmp_path / "c")]
    )
    settings = cohort_command.settings_from_args(args, {})
    one = settings(Row(0, str(tmp_path), "a", "docs/r.pdf", True), tmp_path / "o" / "a")
    assert (one.model, one.fail_below, one.judge_timeout) == ("from-flag", 2, 120)
    assert one.ignore == ("vendor/**",) and one.max_concurrency == 3
    assert one.cache_dir == tmp_path / "c" and one.pdf == Path("docs/r.pdf")
    assert one.sources["model"] == "flag" and one.sources["fail_below"] == str(config)


def test_an_unwritable_out_folder_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    repo = make_repo(tmp_path / "repo", files={"a.py": "x = 1\n"})
    assert main(["audit", str(repo), "--out", str(blocker / "x"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write the report to" in err[0] and "Traceback" not in err[0]


@pytest.mark.parametrize(("value", "accepted"),
                         [("0", False), ("1", True), ("64", True), ("65", False), ("256", False)])
def test_the_max_concurrency_flag_takes_the_config_files_range(
    capsys: pytest.CaptureFixture[str], value: str, accepted: bool
) -> None:
    if accepted:
        args = build_parser().parse_args(["audit", ".", "--max-concurrency", value])
        assert args.max_concurrency == int(value)
    else:
        code, err = run(capsys, "audit", ".", "--max-concurrency", value)
        assert code == 2 and "--max-concurrency: must be between 1 and 64" in err
