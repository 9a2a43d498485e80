"""Locations: only a trailing line number is cut, so a file name holding ``:`` stays whole."""

from __future__ import annotations

import pytest

from courtroom.judges.facts import place
from courtroom.models import location_path


@pytest.mark.parametrize(("location", "path"), [
    ("src/app.py:12", "src/app.py"),
    ("src/app.py:3-9", "src/app.py"),
    ("src/app.py", "src/app.py"),
    ("odd:name/app.py:4", "odd:name/app.py"),
    ("weird:7.py", "weird:7.py"),
    ("C:12:5", "C:12"),
    (".", "."),
    ("pdf page 3", "pdf page 3"),
    (" spaced.py:1 ", "spaced.py"),
])
def test_only_a_trailing_line_is_cut(location: str, path: str) -> None:
    assert location_path(location) == path


def test_judges_name_a_colon_path_whole() -> None:
    assert place("odd:name/app.py:4") == "odd:name/app.py"
    assert place("src/app.py:3-9") == "src/app.py"
