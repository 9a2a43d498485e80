"""Expressions: f-strings, container literals and subscripts, request attributes."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route


@pytest.mark.parametrize("body", [
    "x = request.form.get('a')\nos.system(f'echo {x}')",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "d = {'a': 'safe', 'b': request.form['a']}\nos.system(d['a'])",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


@pytest.mark.parametrize("body", [
    "return request.path.split('/')[1]",
])
def test_sanitised_responses_and_safe_apis(body: str) -> None:
    assert route(body, prelude="") == []
