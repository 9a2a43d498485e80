"""The code a fact is read from: comments and docstrings blanked, line numbers kept."""

from __future__ import annotations

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.repo.judge_code_facts import code_text

SOURCE = '''"""Module docstring: json.loads(reply) is only mentioned here."""
import json  # json.loads in a comment


def parse(reply):
    """Parses with json.loads."""
    "a lone string statement"
    "not", "alone"
    return json.loads(reply) + "json.loads as data"
'''


def test_comments_and_docstrings_are_blanked_and_lines_kept() -> None:
    text = code_text(parse_bytes("m.py", SOURCE.encode()))
    lines = text.splitlines()
    assert len(lines) == len(SOURCE.splitlines()) and len(text) == len(SOURCE)
    assert lines[0].strip() == "" and lines[1].rstrip() == "import json"
    assert lines[5].strip() == "" and lines[6].strip() == ""
    assert lines[7].strip() == '"not", "alone"'  # two values: a tuple, not a docstring
    assert lines[8].strip() == 'return json.loads(reply) + "json.loads as data"'


def test_without_strings_every_literal_is_blanked_too() -> None:
    text = code_text(parse_bytes("m.py", SOURCE.encode()), strings=False)
    assert text.count("json.loads") == 1 and "as data" not in text and "alone" not in text
    assert text.splitlines()[8].rstrip().endswith("return json.loads(reply) +")


def test_a_file_with_a_syntax_error_is_blanked_all_the_same() -> None:
    broken = 'def f(:\n    "doc"  # note\n    x = 1\n'
    text = code_text(parse_bytes("b.py", broken.encode()))
    assert "note" not in text and "doc" not in text and "x = 1" in text
