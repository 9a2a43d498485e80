"""Shard, audit each shard apart, merge: the same cohort summary as one unsharded run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cohort.fakes import fake_audit, make_cohort, write_csv
from courtroom.cli import main
from courtroom.cohort.batch import run_batch
from courtroom.cohort.manifest import load_manifest, shard
from courtroom.cohort.merge import merge_shards
from courtroom.cohort.settings import BatchSettings
from courtroom.errors import UsageError
from courtroom.rubric import default_rubric_path


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    repos = [str(r) for r in make_cohort(tmp_path / "repos", 7)]
    repos.insert(4, str(tmp_path / "broken-one"))
    return write_csv(tmp_path / "cohort.csv", repos)


def test_merge_of_shards_equals_one_unsharded_run(
    tmp_path: Path, manifest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = load_manifest(manifest)
    settings = BatchSettings(rubric_path=default_rubric_path())
    run_batch(rows, tmp_path / "whole", settings, fake_audit, workers=2)
    # Each shard as a CI job would produce it: its own folder, downloaded side by side.
    for i in (1, 2, 3):
        part = shard(rows, f"{i}/3")
        run_batch(part, tmp_path / "artifacts" / f"shard-{i}", settings, fake_audit, workers=2)
    shard_dirs = sorted((tmp_path / "artifacts").iterdir())
    code = main(["merge", *map(str, shard_dirs), "--out", str(tmp_path / "merged")])
    assert code == 0
    assert "merged 8 submissions from 3 folder(s), 1 failed" in capsys.readouterr().err
    for name in ("cohort.csv", "cohort.md"):
        whole = (tmp_path / "whole" / name).read_text(encoding="utf-8")
        merged = (tmp_path / "merged" / name).read_text(encoding="utf-8")
        assert merged == whole, name
    # Every submission's folder is in the merged cohort, verdict and all.
    assert all((tmp_path / "merged" / r.name / "submission.json").is_file() for r in rows)
    assert (tmp_path / "merged" / "sub00" / "verdict.json").is_file()


def test_merge_accepts_a_folder_of_artifacts(tmp_path: Path, manifest: Path) -> None:
    rows = load_manifest(manifest)
    settings = BatchSettings(rubric_path=default_rubric_path())
    run_batch(rows, tmp_path / "whole", settings, fake_audit, workers=2)
    for i in (1, 2):
        run_batch(shard(rows, f"{i}/2"), tmp_path / "all" / f"s{i}", settings, fake_audit)
    results = merge_shards([tmp_path / "all"], tmp_path / "merged")
    assert [r.index for r in results] == list(range(8))
    assert (tmp_path / "merged" / "cohort.csv").read_text() == (
        tmp_path / "whole" / "cohort.csv"
    ).read_text()


def test_a_retried_shard_wins_over_its_failure(tmp_path: Path, manifest: Path) -> None:
    rows = load_manifest(manifest)
    settings = BatchSettings(rubric_path=default_rubric_path())
    run_batch(rows, tmp_path / "a", settings, fake_audit)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    record = tmp_path / "a" / "sub00" / "submission.json"
    record.write_text(record.read_text().replace('"status": "ok"', '"status": "failed"'))
    results = merge_shards([tmp_path / "a", tmp_path / "b"], tmp_path / "m")
    assert results[0].status == "ok"


def test_merge_of_an_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="no submission folders"):
        merge_shards([tmp_path / "empty"], tmp_path / "out")
    with pytest.raises(UsageError, match="not a folder"):
        merge_shards([tmp_path / "missing"], tmp_path / "out")


def test_real_offline_shards_merge_to_the_unsharded_summary(
    tmp_path: Path, manifest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["batch", str(manifest), "--judges", "offline", "--workers", "2"]
    assert main([*base, "--out", str(tmp_path / "whole")]) == 1  # the broken row
    for i in (1, 2):
        main([*base, "--shard", f"{i}/2", "--out", str(tmp_path / "shards" / f"s{i}")])
    assert main(["merge", str(tmp_path / "shards"), "--out", str(tmp_path / "merged")]) == 0
    capsys.readouterr()
    for name in ("cohort.csv", "cohort.md"):
        whole = (tmp_path / "whole" / name).read_text(encoding="utf-8")
        assert (tmp_path / "merged" / name).read_text(encoding="utf-8") == whole


def test_workers_must_be_positive(tmp_path: Path, manifest: Path) -> None:
    code = main(["batch", str(manifest), "--out", str(tmp_path / "o"), "--workers", "0"])
    assert code == 2
