"""Generators and comprehensions: what a generator yields is what its consumer iterates
over; yielding a constant, or a sanitised value, confirms nothing."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import app

FLASK = "from flask import Flask, request\nimport os\nimport shlex\napp = Flask(__name__)\n\n"
GENERATOR = "def commands(v):\n    yield 'echo start'\n    yield {}\n\n"


@pytest.mark.parametrize("use", [
    "for c in commands(request.args.get('x')):\n        os.system(c)",
    "os.system(next(commands(request.args.get('x'))))",
    "os.system(' && '.join(commands(request.args.get('x'))))",
    "[os.system(c) for c in commands(request.args.get('x'))]",
    "cmds = {{c: c for c in commands(request.args.get('x'))}}\n"
    "    os.system(list(cmds)[0])",
])
def test_a_yielded_value_reaches_the_consumer(use: str) -> None:
    view = "@app.route('/a')\ndef a():\n    " + use + "\n    return 'ok'\n"
    assert [r for _p, _l, r in app({"app.py": FLASK + GENERATOR.format("v") + view})] == [
        "shell-injection"]
    assert app({"app.py": FLASK + GENERATOR.format("'ls'") + view}) == []
    assert app({"app.py": FLASK + GENERATOR.format("shlex.quote(v)") + view}) == []


def test_yield_from_passes_on_the_inner_generators_elements() -> None:
    inner = "def inner(v):\n    yield from ['ls', v]\n\ndef outer(v):\n    yield from inner(v)\n\n"
    view = "@app.route('/a')\ndef a():\n    for c in outer({}):\n        os.system(c)\n" \
           "    return 'ok'\n"
    assert [r for _p, _l, r in app({"app.py": FLASK + inner + view.format(
        "request.args['x']")})] == ["shell-injection"]
    assert app({"app.py": FLASK + inner + view.format("'pwd'")}) == []
