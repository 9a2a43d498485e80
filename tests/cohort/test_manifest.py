"""Manifests: CSV and JSON, one-line validation errors, unique names, exact sharding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courtroom.cohort.manifest import Row, load_manifest, parse_shard, shard
from courtroom.errors import UsageError


def test_csv_with_relative_paths_and_names(tmp_path: Path) -> None:
    repo = tmp_path / "repos" / "alice"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "report.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "bob.pdf").write_bytes(b"%PDF-1.4")
    manifest = tmp_path / "cohort.csv"
    manifest.write_text(
        "repo,pdf,name\n"
        "repos/alice,docs/report.pdf,Alice Smith\n"
        "https://github.com/bob/week2.git,bob.pdf,\n"
        "https://github.com/carol/week2,reports/final.pdf,\n"
        "\n",
        encoding="utf-8",
    )
    rows = load_manifest(manifest)
    assert [r.name for r in rows] == ["Alice-Smith", "bob-week2", "carol-week2"]
    assert rows[0].repo == str(repo.resolve())
    # Not beside the manifest: looked up inside the checkout at audit time, like audit --pdf.
    assert rows[0].pdf == "docs/report.pdf" and rows[0].pdf_in_repo
    assert rows[1].pdf == str((tmp_path / "bob.pdf").resolve()) and not rows[1].pdf_in_repo
    assert rows[2].pdf == "reports/final.pdf" and rows[2].pdf_in_repo
    assert [r.index for r in rows] == [0, 1, 2]


def test_json_list_and_derived_name_collisions(tmp_path: Path) -> None:
    manifest = tmp_path / "m.json"
    manifest.write_text(
        json.dumps(
            [
                "https://github.com/a/week2",
                {"repo": "https://gitlab.com/a/week2"},
                {"repo": "https://github.com/x/y", "name": "a-week2-2"},
            ]
        ),
        encoding="utf-8",
    )
    names = [r.name for r in load_manifest(manifest)]
    assert names == ["a-week2", "a-week2-3", "a-week2-2"]
    assert len(set(names)) == 3


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("repo,pdf,name\n,x.pdf,a\n", "row 2: repo is empty"),
        ("url,pdf\nhttps://x/y,\n", "row 1: header must name a 'repo' column"),
        ("repo,pdf,colour\nhttps://x/y,,red\n", "unknown column(s) colour"),
        ("repo,name\nhttps://x/a,same\nhttps://x/b,same\n", "row 3: name 'same' already used"),
        ("repo\n--upload-pack=evil\n", "row 2: repo must not start with '-'"),
        ("repo,pdf,name\nhttps://x/y,a,b,extra\n", "row 2: more fields than the header"),
        ("repo,pdf,name\n", "lists no submissions"),
    ],
)
def test_csv_problems_are_one_line(tmp_path: Path, text: str, problem: str) -> None:
    manifest = tmp_path / "bad.csv"
    manifest.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_manifest(manifest)
    message = str(caught.value)
    assert problem in message and str(manifest) in message and "\n" not in message


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ('{"repo": "x"}', "must be a list"),
        ("[1]", "item 1: expected an object"),
        ('[{"repo": "x", "pdf": 3}]', "item 1: pdf must be a string"),
        ('[{"repo": "x", "branch": "main"}]', "item 1: unknown field(s) branch"),
        ("[{", "not valid JSON"),
    ],
)
def test_json_problems(tmp_path: Path, data: str, problem: str) -> None:
    manifest = tmp_path / "bad.json"
    manifest.write_text(data, encoding="utf-8")
    with pytest.raises(UsageError, match=r"bad\.json") as caught:
        load_manifest(manifest)
    assert problem in str(caught.value)


def test_missing_manifest(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="manifest not found"):
        load_manifest(tmp_path / "nope.csv")


@pytest.mark.parametrize("spec", ["0/3", "4/3", "1/0", "a/b", "2", "-1/2"])
def test_bad_shard_specs(spec: str) -> None:
    with pytest.raises(UsageError, match="--shard"):
        parse_shard(spec)


@given(count=st.integers(0, 60), n=st.integers(1, 9))
def test_shards_cover_every_row_exactly_once(count: int, n: int) -> None:
    rows = [Row(i, f"https://x/r{i}", f"r{i}") for i in range(count)]
    seen = [row.index for i in range(1, n + 1) for row in shard(rows, f"{i}/{n}")]
    assert sorted(seen) == list(range(count))
    sizes = [len(shard(rows, f"{i}/{n}")) for i in range(1, n + 1)]
    assert max(sizes) - min(sizes) <= 1  # balanced, whatever the cohort size
    assert shard(rows, f"1/{n}") == shard(rows, f"1/{n}")  # deterministic


def test_pdf_as_given_beside_the_manifest_wins_over_the_one_in_the_repo(tmp_path: Path) -> None:
    repo = tmp_path / "alice"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "report.pdf").write_bytes(b"%PDF-1.4 in repo")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "report.pdf").write_bytes(b"%PDF-1.4 beside")
    manifest = tmp_path / "m.csv"
    manifest.write_text("repo,pdf\nalice,docs/report.pdf\n", encoding="utf-8")
    (row,) = load_manifest(manifest)
    assert row.pdf == str((tmp_path / "docs" / "report.pdf").resolve())
    assert not row.pdf_in_repo
