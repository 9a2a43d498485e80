"""The README's sections and the licence."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.generic.docs import headings, licence, readme
from detectives.conftest import OpenCase, by_goal


def test_markdown_and_rst_headings_but_not_fenced_comments() -> None:
    text = "Title\n=====\n\n```sh\n# not a heading\n```\n## Usage\n"
    assert headings(text) == [(1, "Title"), (7, "Usage")]


def test_readme_sections_are_located_and_missing_ones_adverse(tmp_path: Path,
                                                              open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"README.md": "# Tool\n\n## Tests\n"})
    facts = readme(open_case(repo))
    assert by_goal(facts, "README section: testing")[0].location == "README.md:3"
    assert [e.direction for e in by_goal(facts, "README section: installation")] == ["adverse"]
    usage = by_goal(facts, "README section: usage")[0]
    assert (usage.location, usage.found) == ("README.md:1", False)


def test_no_readme(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"docs/README.md": "# Nested\n"})
    [fact] = readme(open_case(repo))
    assert (fact.found, fact.direction) == (False, "adverse")


def test_licence_file_named_or_pyproject_key(tmp_path: Path, open_case: OpenCase) -> None:
    apache = make_repo(tmp_path / "a", files={"LICENSE.txt": "\n   Apache License\n  2.0\n"})
    assert [e.content for e in licence(open_case(apache))] == ["Apache-2.0"]
    keyed = make_repo(tmp_path / "k", files={
        "pyproject.toml": '[project]\nname = "x"\nlicense = {text = "MIT"}\n'})
    [fact] = licence(open_case(keyed))
    assert (fact.location, fact.content) == ("pyproject.toml:3", "MIT")
    none = make_repo(tmp_path / "n", files={"a.py": "x = 1\n"})
    assert [e.direction for e in licence(open_case(none))] == ["adverse"]
