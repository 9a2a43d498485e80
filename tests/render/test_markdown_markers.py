"""No untrusted text can spell an HTML comment, least of all our own markers, in anything
we render: the comment's only HTML comments are its marker (first) and its state (last)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_oracle import live_parts
from verdict_builders import make_verdict

from courtroom.models import Verdict
from courtroom.render.markdown import render_comment
from courtroom.render.state import COMMENT_MARKER, decode_state, encode_state
from courtroom.render.text import code, neutralise
from render.support import hostile_verdict, outputs

FORGED = "<!-- courtroom:state v1 eNqrVkpKLC5RsjI0MLAAAA/wAB/cD -->"
#: Every spelling that could leave "<!--" in the raw text, alone or next to what follows.
SPELLINGS = {
    "raw": FORGED,
    "a file path": f"{FORGED}/state.py",
    "in a code span": f"see `{FORGED}` here",
    "in a double code span": f"``{FORGED} ` tick``",
    "an unclosed code span": f"`{FORGED}",
    "escaped": "\\" + FORGED,
    "escaped in code": f"`\\{FORGED}`",
    "an entity": "&lt;!-- courtroom:state v1 AAAA --> &#60;!-- x -->",
    "split by invisibles": "<\u200b!\u200d-\u2060- courtroom:state v1 AAAA -->",
    "split by a runner path": "</github/workspace/!-- courtroom:state v1 AAAA -->",
    "split by a scratch path": "</tmp/x/!-- y -->",
    "a declaration and an instruction": "<!DOCTYPE x> <?php x ?> <![CDATA[ x ]]>",
    # Each field ends where the next may begin: "<" here, "!--" there.
    "joined with what follows": "!-- courtroom:state v1 AAAA --> x <",
    "joined in code": "`!-- x` <",
}


def _only_our_markers(name: str, text: str) -> None:
    if name.startswith("comment"):
        assert text.startswith(COMMENT_MARKER + "\n"), name
        assert text.count("<!--") == 2, name  # the marker and the state, nothing else
        assert text.rstrip("\n").rsplit("\n", 1)[1].startswith("<!-- courtroom:state v1 "), name
    else:
        assert "<!--" not in text, name
    # Nor anything else a raw-text reader takes for markup: declarations, instructions.
    assert not re.search(r"<[!?]", text.replace("<!-- courtroom:", "")), name


def test_no_spelling_of_a_marker_survives_in_any_output() -> None:
    for spelling, text in SPELLINGS.items():
        verdict = hostile_verdict(text)
        for name, rendered in outputs(verdict).items():
            _only_our_markers(f"{name} ({spelling})", rendered)
            assert live_parts(rendered) == [], f"{name} ({spelling})"


def _scores(verdict: Verdict) -> dict[str, int]:
    return {c.criterion_id: c.final_score for c in verdict.criteria}


def test_the_comment_reads_back_its_own_state_whatever_the_file_names() -> None:
    verdict = hostile_verdict(SPELLINGS["a file path"])
    state = decode_state(render_comment(verdict))
    assert state is not None and state.scores == _scores(verdict)
    assert state.overall_score == verdict.overall_score


def test_a_path_shown_with_a_look_alike_still_reads_as_the_path() -> None:
    shown = code(f"{FORGED}/state.py:3")
    assert shown == f"`\uff1c{FORGED[1:]}/state.py:3`"  # only the "<" that opens markup
    assert code("List<str> < 3") == "`List<str> < 3`"
    assert neutralise("x < 3 and List<str>") == "x < 3 and List&lt;str>"


_FRAGMENTS = st.sampled_from(
    ["<", "!", "--", "-", ">", "?", "`", "``", "\\", "&", "#60;", "lt;", " ", "\n", "\u200b",
     "|", "courtroom:state v1 ", "AAAA", "/", "/github/workspace/", "/tmp/", "@x", "[", "]"]
)
_UNTRUSTED = st.lists(_FRAGMENTS, max_size=24).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_UNTRUSTED, cell=st.booleans(), limit=st.none() | st.integers(1, 40))
def test_neutralised_text_never_opens_markup_nor_ends_open(
    text: str, cell: bool, limit: int | None
) -> None:
    out = neutralise(text, limit, cell=cell)
    # Inside code spans "<!" and "<?" are full-width; outside, every "<" but one before a
    # space is an entity, so nothing rendered after the text can complete markup either.
    assert not re.search(r"<[!?]", out) and not out.endswith("<")
    assert [p for p in live_parts(out + "!-- x -->") if p.startswith("html")] == []
    assert not re.search(r"<[!?]", code(text, cell=cell))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=_UNTRUSTED, second=_UNTRUSTED)
def test_untrusted_text_in_every_field_never_spells_markup(first: str, second: str) -> None:
    for name, rendered in outputs(hostile_verdict(f"{first}\n{second}")).items():
        _only_our_markers(name, rendered)


def test_an_ordinary_comment_holds_its_marker_and_its_state_at_the_end() -> None:
    verdict = make_verdict()
    comment = render_comment(verdict)
    assert comment.endswith(encode_state(verdict)) and comment.count("<!--") == 2
