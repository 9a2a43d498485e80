"""Committed secrets: located, shaped, and never repeated in a fact."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.generic.secrets import secrets
from detectives.conftest import OpenCase
from detectives.service_builders import flask_service

AWS = "AKIA" + "Q" * 16
KEY = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaA==\n"


def test_secrets_in_code_config_and_env_files(tmp_path: Path, open_case: OpenCase) -> None:
    repo = flask_service(tmp_path / "svc", secret=True)
    for rel, text in {"deploy/config.yml": f"aws_key: {AWS}\n", "keys/id_ed25519": KEY,
                      ".env": "DB_PASSWORD=hunter2hunter2\n",
                      ".env.example": "DB_PASSWORD=\n", ".env.samples": "X=\n"}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    facts = secrets(open_case(repo))
    assert sorted(e.location for e in facts) == [
        ".env", "deploy/config.yml:1", "keys/id_ed25519:1", "service/app.py:18"]
    assert all(e.direction == "adverse" and e.tags == ["github_repo", "secrets"] for e in facts)
    shown = " ".join(f"{e.content} {e.rationale}" for e in facts)
    assert AWS not in shown and "hunter2" not in shown and "b3BlbnNzaA" not in shown
    assert "ghp_abcdefghijkl" not in shown
    assert all(e.fix and "rotate" in e.fix and "Fix:" not in e.rationale for e in facts)


def test_a_clean_tree_supports(tmp_path: Path, open_case: OpenCase) -> None:
    [fact] = secrets(open_case(flask_service(tmp_path / "svc")))
    assert (fact.found, fact.direction) == (True, "supports")


def test_a_link_out_of_the_tree_is_not_read(tmp_path: Path, open_case: OpenCase) -> None:
    outside = tmp_path / "home.txt"
    outside.write_text(f"{AWS}\n", encoding="utf-8")
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\n"})
    (repo / "notes.txt").symlink_to(outside)
    assert [e.direction for e in secrets(open_case(repo))] == ["supports"]


def test_a_fake_key_in_test_code_is_context(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={
        "tests/test_client.py": 'API_KEY = "sk-test-0123456789abcdef"\n'})
    facts = secrets(open_case(repo))
    assert [(e.location, e.direction) for e in facts] == [
        ("tests/test_client.py:1", "context"), (".", "supports")]
