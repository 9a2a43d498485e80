"""The neutraliser: untrusted text becomes one inert line of Markdown."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from markdown_oracle import headings, live_parts

from courtroom.render.text import BREAK, anchor, code, neutralise, scrub

HOSTILE = [
    "ping @octocat and @acme/security-team",
    "escaped \\@octocat, entity &#64;octocat, hex &#x40;octocat",
    "[click me](https://evil.example/x) and [rel](src/app.py)",
    "![tracker](https://evil.example/pixel.png)",
    "[ref]: https://evil.example/def",
    "see https://evil.example/a, www.evil.example and mail root@evil.example",
    "escaped scheme https\\://evil.example and https:\\/\\/evil.example",
    "fixes #12, acme/other#34 and GH-56",
    "math $\\href{https://evil.example}{x}$ and $$y$$",
    "<img src=x onerror=alert(1)> <a href='https://evil.example'>x</a> <!-- hidden -->",
    "\u202eevil\u202c \u2066isolated\u2069 zero\u200bwidth \ufeffbom \x1b[31mred\x1b[0m bell\x07",
    "line one\n# PWNED heading\n> PWNED quote\r\n- PWNED item",
    "` @octocat after an unmatched backtick",
    "in code `ping @octocat` and a file `src/@acme/x.py`",
    "\\`not code @octocat`",
    "trailing backslash \\",
    "lone surrogate \udcff here",
    "`a` then https://evil.example `b`",
    "&#x202E;entity bidi",
    "a runner path joins @/github/workspace/octocat",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_inert_in_prose_and_cells(text: str) -> None:
    for cell in (False, True):
        out = neutralise(text, cell=cell)
        assert "\n" not in out
        assert live_parts(out) == [], out
        # Embedded in our own structure, it stays inside it.
        page = f"## Ours\n\n- **Judge**: {out}\n\n| a | b |\n|---|---|\n| {out} | x |\n"
        assert live_parts(page) == [], page
        assert headings(page) == ["Ours"]


def test_two_hostile_texts_on_one_line_cannot_pair_their_backticks() -> None:
    # An unmatched backtick in the first text must not open a span closed by the second,
    # which would pull the second text's mention out of its code span.
    line = neutralise("x `") + " · " + neutralise("`@octocat` and `y`")
    assert live_parts(line) == []
    assert "`\uff20octocat`" in line


def test_code_spans_keep_their_text() -> None:
    assert neutralise("use `@dataclass` on `State`") == "use `\uff20dataclass` on `State`"
    assert neutralise("a ``x ` y`` b") == "a ``x ` y`` b"
    assert neutralise("`a|b`", cell=True) == "`a\\|b`"


def test_readable_text_stays_readable() -> None:
    assert neutralise("x < 3 and a -> b; 2.5 of 5") == "x < 3 and a -> b; 2.5 of 5"
    fix = "Add **tests** in `src/graph.py:77`."
    assert neutralise(fix) == fix
    assert neutralise("@octocat") == f"@{BREAK}octocat"
    assert neutralise("user@example.com").replace(BREAK, "") == "user@example.com"


def test_math_delimiters_are_escaped() -> None:
    # The parser cannot tell an escaped dollar from a delimiter; GitHub's math can.
    assert neutralise("a $x$ and $$y$$") == "a \\$x\\$ and \\$\\$y\\$\\$"
    assert neutralise("cost `$5` here") == "cost `$5` here"


def test_block_markers_at_the_start_are_escaped() -> None:
    assert neutralise("# title") == "\\# title"
    assert neutralise("> quote") == "\\> quote"
    assert neutralise("- item") == "\\- item"
    assert neutralise("1. first") == "1\\. first"
    assert neutralise("---") == "\\---"
    assert neutralise("2.0 is a version") == "2.0 is a version"


def test_limit_clips_before_neutralising() -> None:
    # Clipping after would cut a code span in half and leave a backtick to pair with ours.
    out = neutralise("see `" + "x" * 50 + "` and @octocat", limit=20)
    assert out == "see \\`xxxxxxxxxxxxxx…"  # the cut span's backtick is escaped
    assert live_parts(out + " `ours`") == []


def test_every_invisible_character_is_removed() -> None:
    invisible = [
        chr(cp)
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) in ("Cc", "Cf", "Cs")
    ]
    out = neutralise("a" + "".join(invisible) + "b")
    assert out in ("a b", "ab")


def test_code_values_are_one_safe_span() -> None:
    assert code("src/a.py:3") == "`src/a.py:3`"
    assert code("a" * 40) == "`aaaaaaaaaaaa`"  # a commit is shortened
    assert code("evil\nname\u202e.py") == "`evil name.py`"
    assert code("has ` tick") == "``has ` tick``"
    assert live_parts(code("`@octocat`") + " text") == []


def test_scratch_paths_are_found_even_behind_invisible_characters() -> None:
    for value in ("see /tmp\u200b/clone-x/src/a.py:3", "see /tmp/clone\u202e-x/src/a.py:3"):
        assert "/tmp" not in neutralise(value) and "/tmp" not in code(value)
    assert neutralise("see /tmp\u200b/clone-x/src/a.py:3") == "see …/a.py:3"


def test_anchor_keeps_only_safe_characters() -> None:
    assert anchor("graph_orchestration") == "graph_orchestration"
    assert anchor('x"><img src=//evil>') == "ximgsrcevil"
    assert anchor("") == "x"


def test_runner_paths_become_repo_relative() -> None:
    assert scrub("see /github/workspace/src/a.py:3") == "see src/a.py:3"
    assert scrub("at /home/runner/work/repo/repo/pkg/b.py") == "at pkg/b.py"
    assert scrub("tmp /tmp/tmpab12/clone/c.py here") == "tmp …/c.py here"
