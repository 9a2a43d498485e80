"""Dependency pinning and lock files: a pinned and an unpinned twin differ, line by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.generic.dependencies import dependencies, pinned
from detectives.conftest import OpenCase
from detectives.service_builders import flask_service


@pytest.mark.parametrize(("spec", "exact"), [
    ("flask==3.0.3", True), ("flask===3.0.3", True), ("flask[async]==3.0.3 ; python_version>'3'",
                                                     True),
    ("flask", False), ("flask>=3", False), ("flask==3.*", False), ("flask~=3.0", False),
    ("flask>=3,==3.0.3", False),
    ("lib @ git+https://example.com/lib@0123456789abcdef0123456789abcdef01234567", True),
    ("lib @ git+https://example.com/lib@main", False),
])
def test_pinned_means_one_exact_version(spec: str, exact: bool) -> None:
    assert pinned(spec) is exact


def test_the_pinned_and_unpinned_twins_differ(tmp_path: Path, open_case: OpenCase) -> None:
    good = dependencies(open_case(flask_service(tmp_path / "good")))
    assert [(e.goal, e.location, e.direction) for e in good] == [
        ("Requirements pinned", "requirements.txt", "supports")]
    bad = dependencies(open_case(flask_service(tmp_path / "bad", pinned=False)))
    assert [(e.location, e.direction, e.content) for e in bad] == [
        ("requirements.txt:1", "adverse", "flask"),
        ("requirements.txt:2", "adverse", "requests>=2")]


def test_pyproject_ranges_are_adverse_only_without_a_lock_file(tmp_path: Path,
                                                               open_case: OpenCase) -> None:
    pyproject = ('[project]\nname = "x"\ndependencies = [\n  "httpx>=0.27",\n  "rich==13.7.1",\n'
                 ']\n\n[tool.poetry.dependencies]\npython = "^3.11"\nclick = "^8.1"\n')
    loose = dependencies(open_case(make_repo(tmp_path / "l", files={
        "pyproject.toml": pyproject})))
    assert [(e.location, e.content) for e in loose] == [
        ("pyproject.toml:4", "httpx>=0.27"), ("pyproject.toml:10", "click^8.1")]
    locked = dependencies(open_case(make_repo(tmp_path / "k", files={
        "pyproject.toml": pyproject, "uv.lock": "version = 1\n"})))
    assert [(e.goal, e.location, e.direction) for e in locked] == [
        ("Lock file present", "uv.lock", "supports")]


def test_options_comments_and_includes_are_not_requirements(tmp_path: Path,
                                                            open_case: OpenCase) -> None:
    text = ("# tools\n-r base.txt\n--index-url https://example.com\n"
            "attrs==23.2.0 \\\n    --hash=sha256:abc\nidna==3.7  # pinned\n")
    facts = dependencies(open_case(make_repo(tmp_path / "r", files={
        "requirements-dev.txt": text})))
    assert [(e.goal, e.location) for e in facts] == [
        ("Requirements pinned", "requirements-dev.txt")]
