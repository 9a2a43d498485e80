"""The bundled rubric and templates are the top-level files, reached through the package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from courtroom import resources
from courtroom.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent


def test_bundled_files_are_the_top_level_ones() -> None:
    assert resources.default_rubric_path().resolve() == (ROOT / "rubric.json").resolve()
    folder = resources.templates_dir()
    assert folder.resolve() == (ROOT / "templates").resolve()
    assert (folder / "report.md.j2").is_file() and (folder / "prompts" / "system.j2").is_file()


def test_rubrics_are_found_by_name_and_a_file_wins() -> None:
    assert resources.bundled_rubrics()["automaton-auditor"].resolve() == (
        ROOT / "rubric.json").resolve()
    assert resources.named_rubric("automaton-auditor") is not None
    for not_a_name in ("../rubric", "rubrics/automaton-auditor", "nope", "Automaton Auditor"):
        assert resources.named_rubric(not_a_name) is None, not_a_name
    assert resources.resolve_rubric(Path("automaton-auditor")) == resources.named_rubric(
        "automaton-auditor")
    assert resources.resolve_rubric(ROOT / "rubric.json") == ROOT / "rubric.json"
    assert resources.resolve_rubric(Path("nope.json")) == Path("nope.json")


def test_templates_override_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COURTROOM_TEMPLATES", str(tmp_path))
    assert resources.templates_dir() == tmp_path


def test_a_missing_bundle_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An installation whose package folder lacks _bundled/ (a broken or partial install).
    monkeypatch.delenv("COURTROOM_TEMPLATES", raising=False)
    monkeypatch.setattr(resources.resources, "files", lambda package: tmp_path)
    with pytest.raises(ConfigError, match=r"rubric\.json is missing"):
        resources.default_rubric_path()
    with pytest.raises(ConfigError, match="templates is missing"):
        resources.templates_dir()


def test_package_data_lists_every_bundled_template() -> None:
    # A template added under templates/ must ship in the wheel: the globs must cover it.
    pyproject = (ROOT / "pyproject.toml").read_text()
    globs = re.findall(r'"(_bundled/[^"]+)"', pyproject)
    shipped = {p for g in globs for p in (ROOT / "courtroom").glob(g)}
    on_disk = {p for p in (ROOT / "courtroom" / "_bundled").rglob("*") if p.is_file()}
    assert on_disk and on_disk <= shipped


def test_docker_image_caches_dependencies_before_the_source() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    deps = dockerfile.index("COPY pyproject.toml")
    install = dockerfile.index("-r /tmp/requirements.txt")
    source = dockerfile.index("COPY . /opt/courtroom")
    assert deps < install < source
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"tests/", "bench/", ".git/", ".venv/"} <= set(ignored)
