"""Text a submission or a model controls, made inert: no control or bidi character
survives, nothing grows past its limit, one_line is one line, and nothing printed through
log_line or an InertWriter opens a workflow command for GitHub's runner."""

from __future__ import annotations

import io
import sys

from hypothesis import given
from hypothesis import strategies as st
from log_checks import commands_in

from courtroom.untrusted import (
    CONTROL,
    HOLD_LIMIT,
    SAFE_COLON,
    SAFE_LEGACY,
    InertWriter,
    clip,
    inert_output,
    log_line,
    one_line,
)


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


def test_log_line_keeps_a_forged_command_on_our_line_and_visible() -> None:
    forged = "key\n::error file=a.py::forged\r::add-mask::x ##[set-output name=a]b"
    line = log_line(forged)
    assert line == ("key\\n::error file=a.py::forged\\r::add-mask::x ##\uff3bset-output "
                    "name=a]b")
    assert commands_in(line) == [] and log_line(" ::stop-commands::t") == " \uff1a:stop-commands::t"
    assert log_line("a\u2028b\x85c") == "a\\u2028b\\x85c"


def test_a_command_split_across_writes_is_still_defused() -> None:
    sink = io.StringIO()
    writer = InertWriter(sink)
    for chunk in ("  ", ":", ":add-mask::x", "\n", "ok #", "#", "[error]y\r::set-output", "\n"):
        writer.write(chunk)
    writer.write("::")
    writer.close_line()
    assert sink.getvalue() == (f"  {SAFE_COLON}:add-mask::x\nok {SAFE_LEGACY}error]y\r"
                               f"{SAFE_COLON}:set-output\n{SAFE_COLON}:")


def test_a_long_blank_run_is_written_out_and_still_defuses_what_follows() -> None:
    sink = io.StringIO()
    writer = InertWriter(sink)
    for _ in range(5000):  # a byte at a time: what is held back stays bounded
        writer.write(" ")
    assert len(writer._held) <= HOLD_LIMIT
    writer.write(":")
    writer.write(":add-mask::x\n")
    assert sink.getvalue() == " " * 5000 + f"{SAFE_COLON}:add-mask::x\n"


def test_inert_output_wraps_both_streams_and_gives_them_back() -> None:
    before = sys.stdout, sys.stderr
    with inert_output(stdout=False):
        assert sys.stdout is before[0] and isinstance(sys.stderr, InertWriter)
        assert sys.stderr.isatty() == before[1].isatty()
    with inert_output():
        assert isinstance(sys.stdout, InertWriter) and isinstance(sys.stderr, InertWriter)
    assert (sys.stdout, sys.stderr) == before


@given(st.lists(st.text(alphabet=": #[\r\na\t\u200b", max_size=12), max_size=12))
def test_no_chunking_of_any_text_opens_a_command_and_nothing_is_lost(chunks: list[str]) -> None:
    sink = io.StringIO()
    writer = InertWriter(sink)
    for chunk in chunks:
        assert writer.write(chunk) == len(chunk)
    writer.close_line()
    out = sink.getvalue()
    assert commands_in(out) == []
    assert out.replace(SAFE_LEGACY, "##[").replace(SAFE_COLON, ":") == "".join(chunks)
