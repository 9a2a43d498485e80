"""Compound statements: branches joined, constant conditions and match cases followed, loop,
handler and ``with`` bodies kept.
"""

from __future__ import annotations

import pytest

from courtroom.detectives.security.taint.flow import join_envs
from courtroom.detectives.security.taint.values import CLEAN, const, join
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


@pytest.mark.parametrize(("body", "confirmed"), [
    # A variable only one branch binds is joined with nothing: still whatever it holds.
    ("if request.args.get('q'):\n    y = request.form['a']\nos.system(y)", True),
    ("if request.args.get('q'):\n    pass\nelse:\n    y = request.form['a']\nos.system(y)",
     True),
    # A constant no branch touches keeps its value through the join: the test still folds.
    ("mode = 'safe'\nif request.args.get('q'):\n    z = 1\nelse:\n    z = 2\n"
     "if mode == 'safe':\n    y = 'k'\nelse:\n    y = request.form['a']\nos.system(y)", False),
])
def test_a_join_keeps_every_variable_either_branch_left(body: str, confirmed: bool) -> None:
    assert route(body + "\nreturn 'ok'") == (["shell-injection"] if confirmed else [])


def test_join_envs_joins_names_bound_on_one_side_only_with_nothing() -> None:
    shared = const("kept")
    out = join_envs([{"a": shared, "b": const(1)}, {"a": shared, "c": const(2)}])
    assert out is not None
    assert out["a"] is shared
    assert out["b"] == join(const(1), CLEAN) and out["c"] == join(CLEAN, const(2))
    assert not out["b"].known() and not out["c"].known()
