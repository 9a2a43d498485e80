"""The resume key: a stored verdict stands only when every input that decides it is the
same, a commit is known, and the lookup of that commit runs no program a URL names."""

from __future__ import annotations

import json
from pathlib import Path

from builders import Commit, head_sha, make_repo

from courtroom.cohort.keys import (
    KEY_FILE,
    batch_key,
    bench_label,
    can_resume,
    current_commit,
    stored_key,
    write_key,
)
from courtroom.judges.providers import default_model
from courtroom.rubric import default_rubric_path
from courtroom.settings.config import AuditConfig


def config(tmp_path: Path, **changes: object) -> AuditConfig:
    fields: dict[str, object] = {"target": str(tmp_path), "out_dir": tmp_path / "out",
                                 "rubric_path": default_rubric_path()}
    return AuditConfig.model_validate({**fields, **changes})


def test_a_local_commit_is_read_and_an_unknown_tree_has_none(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", [Commit("first", {"a.py": "x = 1\n"})])
    assert current_commit(str(repo)) == head_sha(repo)
    assert current_commit(str(tmp_path / "not-a-repo")) is None
    assert current_commit(f"file://{repo}") == head_sha(repo)


def test_a_url_with_a_helper_transport_is_never_looked_up(tmp_path: Path) -> None:
    planted = tmp_path / "ran"
    assert current_commit(f"ext::sh -c touch% {planted}%20://x") is None
    assert current_commit(f"fd::3://{planted}") is None
    assert not planted.exists()


def test_every_deciding_input_is_in_the_key(tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(b"%PDF-1.7 one")
    base = batch_key(config(tmp_path, pdf=pdf), "a" * 40, "prompts")
    pdf.write_bytes(b"%PDF-1.7 two")
    assert batch_key(config(tmp_path, pdf=pdf), "a" * 40, "prompts") != base
    pdf.write_bytes(b"%PDF-1.7 one")
    assert batch_key(config(tmp_path, pdf=pdf), "a" * 40, "prompts") == base
    changed = [config(tmp_path, pdf=pdf, fail_below=3.0), config(tmp_path, pdf=pdf, court=False),
               config(tmp_path, pdf=pdf, gate={"c": 3}), config(tmp_path, pdf=pdf, ignore=("x",)),
               config(tmp_path, pdf=pdf, judges="anthropic", model="claude-opus-5")]
    assert all(batch_key(c, "a" * 40, "prompts") != base for c in changed)
    assert batch_key(config(tmp_path, pdf=pdf), "b" * 40, "prompts") != base
    assert batch_key(config(tmp_path, pdf=pdf), "a" * 40, "other prompts") != base


def test_the_bench_label_names_the_model_even_by_default(tmp_path: Path) -> None:
    assert bench_label(config(tmp_path)) == "offline"
    assert bench_label(config(tmp_path, judges="anthropic", model="m")) == "anthropic:m"
    default = bench_label(config(tmp_path, judges="anthropic"))
    assert default.startswith("anthropic:") and default != "anthropic:"


def test_the_bench_label_tells_providers_apart_as_their_backends_do(tmp_path: Path) -> None:
    labels = {p: bench_label(config(tmp_path, judges="anthropic", provider=p))
              for p in ("anthropic", "bedrock", "vertex")}
    # As AnthropicBackend names itself: "<provider>:<the provider's model id>".
    assert labels == {"anthropic": f"anthropic:{default_model('anthropic')}",
                      "bedrock": f"bedrock:{default_model('bedrock')}",
                      "vertex": f"vertex:{default_model('vertex')}"}
    assert len(set(labels.values())) == 3


def test_resume_needs_a_commit_a_verdict_and_the_same_key(tmp_path: Path) -> None:
    key = batch_key(config(tmp_path), "a" * 40, "prompts")
    folder = tmp_path / "sub"
    write_key(folder, key)
    assert stored_key(folder) == json.loads(json.dumps(key))
    assert not can_resume(folder, key)  # no verdict yet
    (folder / "verdict.json").write_text("{}", encoding="utf-8")
    assert can_resume(folder, key)
    assert not can_resume(folder, {**key, "commit": "b" * 40})
    unknown = {**key, "commit": None}  # an unknown tree might have changed since
    write_key(folder, unknown)
    assert not can_resume(folder, unknown)


def test_a_damaged_stored_key_is_no_key(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("[1, 2]", encoding="utf-8")
    assert stored_key(tmp_path) is None
    (tmp_path / KEY_FILE).write_text("{broken", encoding="utf-8")
    assert stored_key(tmp_path) is None
    assert stored_key(tmp_path / "absent") is None
