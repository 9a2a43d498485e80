"""A library's version as the repository's dependency files pin it."""

from __future__ import annotations

import pytest

from courtroom.detectives.security.taint.pins import below


@pytest.mark.parametrize(("path", "text", "old"), [
    ("requirements.txt", "lxml==4.9.3\n", True),
    ("requirements.txt", "lxml<5\n", True),
    ("requirements/base.in", "lxml>=4.6,<5.0\n", True),
    ("requirements.txt", "lxml~=4.9\n", True),
    ("requirements.txt", "lxml>=4.9\n", False),
    ("requirements.txt", "lxml==5.1.0\n", False),
    ("requirements.txt", "lxml<5.2\n", False),
    ("requirements.txt", "flask==2.0\nlxml\nrequests==2.0\n", False),
    ("requirements.txt", "lxml==5.2; python_version < '3.8'\n", False),
    ("requirements.txt", "lxml-stubs==0.4\n", False),
    ("requirements.txt", "# lxml==4.9\nlxml==5.1\n", False),
    ("pyproject.toml", 'dependencies = ["lxml>=4,<5", "flask"]\n', True),
    ("pyproject.toml", '[tool.poetry.dependencies]\nlxml = "^4.9"\n', True),
    ("pyproject.toml", 'lxml = {version = "^4.9", optional = true}\n', True),
    ("pyproject.toml", 'lxml = "^5.1"\n', False),
    ("poetry.lock", '[[package]]\nname = "lxml"\nversion = "4.9.3"\n', True),
    ("poetry.lock", '[[package]]\nname = "lxml"\nversion = "5.2.1"\n\n[[package]]\n'
                    'name = "x"\nversion = "1.0"\n', False),
    ("docs/notes.txt", "lxml==4.9\n", False),
])
def test_a_pin_below_a_major_version(path: str, text: str, old: bool) -> None:
    assert below({path: text}, "lxml", 5) is old
