"""Exception arguments: what a ``raise`` carries reaches ``except ... as e`` (in the same
function or from a callee); an exception built from constants carries nothing."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import app

FLASK = "from flask import Flask, request\nimport os\napp = Flask(__name__)\n\n" \
        "class Refused(Exception):\n    pass\n\n"


@pytest.mark.parametrize("raiser", ["ValueError", "Refused"])
@pytest.mark.parametrize("use", ["e.args[0]", "str(e)"])
def test_a_raised_value_reaches_the_handler(raiser: str, use: str) -> None:
    view = ("@app.route('/a')\ndef a():\n    x = request.args.get('x')\n    try:\n"
            f"        raise {raiser}({{}})\n    except Exception as e:\n"
            f"        os.system({use})\n    return 'ok'\n")
    assert [r for _p, _l, r in app({"app.py": FLASK + view.format("x")})] == [
        "shell-injection"]
    assert app({"app.py": FLASK + view.format("'no such command'")}) == []


def test_an_exception_a_callee_lets_escape_reaches_the_callers_handler() -> None:
    check = "def check(v):\n    if not v.isalpha():\n        raise Refused('bad: ' + {})\n\n"
    view = ("@app.route('/a')\ndef a():\n    try:\n        check(request.args['x'])\n"
            "    except Refused as e:\n        os.system('echo ' + str(e))\n    return 'ok'\n")
    assert [r for _p, _l, r in app({"app.py": FLASK + check.format("v") + view})] == [
        "shell-injection"]
    assert app({"app.py": FLASK + check.format("'a letter'") + view}) == []


def test_a_handler_sees_only_what_its_own_try_raised() -> None:
    view = ("@app.route('/a')\ndef a():\n    try:\n        raise ValueError(request.args['x'])\n"
            "    except ValueError:\n        pass\n    try:\n        pass\n"
            "    except ValueError as e:\n        os.system(str(e))\n    return 'ok'\n")
    assert app({"app.py": FLASK + view}) == []
