"""Compound statements: branches joined, constant conditions and match cases followed, loop,
handler and ``with`` bodies kept.
"""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route


@pytest.mark.parametrize("body", [
    "x = request.form['a']\nif x:\n    y = x\nelse:\n    y = 'b'\nos.system(y)",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "x = request.form['a']\nnum = 86\nif 7 * 42 - num > 200:\n    y = 'k'\nelse:\n    y = x\n"
    "os.system(y)",
    "guess = 'ABC'[1]\nmatch guess:\n    case 'A':\n        y = request.form['a']\n"
    "    case _:\n        y = 'k'\nos.system(y)",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


@pytest.mark.parametrize(("body", "confirmed"), [
    ("y = 'k'\nwhile 0:\n    y = request.form['a']\nos.system(y)", False),
    ("y = 'k'\nwhile y:\n    y = request.form['a']\nos.system(y)", True),
    ("y = 'k'\nfor _ in range(2):\n    pass\nelse:\n    y = request.form['a']\nos.system(y)",
     True),
    ("try:\n    y = 'k'\nexcept ValueError:\n    y = request.form['a']\nos.system(y)", True),
    ("try:\n    y = 'k'\nexcept ValueError:\n    y = 'j'\nelse:\n    y = request.form['a']\n"
     "finally:\n    pass\nos.system(y)", True),
    ("with open('f') as fh:\n    y = request.form['a']\nos.system(y)", True),
])
def test_loops_handlers_and_with_blocks_keep_what_their_bodies_assign(
        body: str, confirmed: bool) -> None:
    assert route(body + "\nreturn 'ok'") == (["shell-injection"] if confirmed else [])


@pytest.mark.parametrize(("subject", "case", "confirmed"), [
    ("1", "True", True),  # ``case True`` matches by identity: 1 does not match it
    ("0", "None", True),
    ("True", "1", False),  # other literals match by equality: True == 1
    ("None", "None", False),
])
def test_match_on_none_true_and_false_compares_by_identity(
        subject: str, case: str, confirmed: bool) -> None:
    body = (f"match {subject}:\n    case {case}:\n        return 'no'\n    case _:\n"
            f"        os.system(request.args['c'])\nreturn 'ok'")
    assert route(body) == (["shell-injection"] if confirmed else [])
