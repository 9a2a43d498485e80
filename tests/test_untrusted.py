"""Text a submission or a model controls, made inert: no control or bidi character
survives, nothing grows past its limit, and one_line is one line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from courtroom.untrusted import CONTROL, clip, one_line


def test_control_and_bidi_characters_go_newlines_and_tabs_stay() -> None:
    assert clip("a\x00b\x1bc\u202ed\u2066e\u2069f\x7f") == "abcdef"
    assert clip("line one\n\tline two") == "line one\n\tline two"


def test_a_cut_is_marked_and_fits_the_limit() -> None:
    assert clip("abcdef", 6) == "abcdef"
    assert clip("abc   defghij", 7) == "abc…"  # no dangling space before the mark
    assert clip("abcdef", 1) == "…"


def test_one_line_squeezes_whitespace() -> None:
    assert one_line("  a\n\n b\t\tc  ") == "a b c"
    assert one_line("word " * 50, 20) == "word word word word…"


@given(st.text(), st.integers(min_value=1, max_value=400))
def test_nothing_hostile_survives_and_nothing_grows(text: str, limit: int) -> None:
    for out in (clip(text, limit), one_line(text, limit)):
        assert len(out) <= limit and not CONTROL.search(out)
    assert "\n" not in one_line(text, limit)
