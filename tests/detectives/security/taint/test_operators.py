"""Operators: string building, comprehensions, conditional expressions, hostile constants."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import flows, route


@pytest.mark.parametrize("body", [
    "x = request.args['a']\nos.system('echo %s' % x)",
    "x = request.headers.get('a')\nos.system('echo ' + x)",
    "xs = [request.form['a'] for _ in range(2)]\nos.system(' '.join(xs))",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "y = 'k' if 7 * 42 > 200 else request.form['a']\nos.system(y)",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


def test_hostile_constants_do_not_exhaust_memory() -> None:
    code = ("import os\nx = '%999999999999d' % 1\ny = '{:>999999999999}'.format(1)\n"
            "z = 'a' * 10 ** 12\nw = '1'.zfill(10 ** 12)\nos.system(x + y + z + w)\n")
    assert flows({"boom.py": code}) == []


@pytest.mark.parametrize(("body", "confirmed"), [
    ("y = 'k' or request.form['a']\nos.system(y)", False),
    ("y = '' or request.form['a']\nos.system(y)", True),
    ("y = request.form['a'] if not 0 else 'k'\nos.system(y)", True),
    ("y = 'k' if -1 < 0 else request.form['a']\nos.system(y)", False),
])
def test_boolean_and_unary_operators_on_constants_pick_one_side(
        body: str, confirmed: bool) -> None:
    assert route(body + "\nreturn 'ok'") == (["shell-injection"] if confirmed else [])
