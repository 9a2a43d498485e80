"""Statements: item assignment carries taint, reassignment replaces it."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route


@pytest.mark.parametrize("body", [
    "d = {}\nd['k'] = request.form['a']\nos.system(d['k'])",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "x = request.form['a']\ny = x\ny = 'constant'\nos.system(y)",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []
