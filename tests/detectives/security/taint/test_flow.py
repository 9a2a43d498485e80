"""Compound statements: branches joined, constant conditions and match cases followed."""

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
