"""Dynamic lookups with constant names, and callables built from callables, reach the
sink they denote; a constant or sanitised argument, or a name that is not constant, does not
confirm anything."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route

X = 'x = request.args.get("x")\n'
PRELUDE = "import functools\nimport importlib\nimport operator\nimport os\nimport shlex\n" \
          "import sqlite3\nimport subprocess\n"


def confirmed(body: str) -> list[str]:
    return route(X + body + "\nreturn 'ok'", prelude=PRELUDE)


@pytest.mark.parametrize("call", [
    '__import__("os").system({})',
    'getattr(os, "sys" + "tem")({})',
    'importlib.import_module("os").system({})',
    'getattr(importlib.import_module("o" + "s"), "system")({})',
    "functools.partial(os.system)({})",
    "functools.partial(subprocess.run, shell=True)({})",
    "functools.partial(subprocess.run, {})(shell=True)",
    "list(map(os.system, [{}]))",
    'operator.methodcaller("system", {})(os)',
    "(lambda c: os.system(c))({})",
    "run = lambda c, flags='-l': os.system(c + flags)\nrun({})",
    "list(map(lambda c: os.system(c), [{}]))",
])
def test_a_constant_folded_lookup_reaches_the_shell(call: str) -> None:
    assert confirmed(call.format("x")) == ["shell-injection"]
    assert confirmed(call.format('"ls"')) == []
    assert confirmed(call.format("shlex.quote(x)")) == []


def test_a_method_taken_by_name_from_an_unknown_object_is_still_its_sink() -> None:
    body = 'cur = sqlite3.connect("db").cursor()\ngetattr(cur, "exec" + "ute")({})'
    assert confirmed(body.format('"SELECT " + x')) == ["sql-injection"]
    assert confirmed(body.format('"SELECT 1"')) == []


def test_a_name_that_is_not_constant_is_not_guessed() -> None:
    assert confirmed('getattr(os, request.args["f"])("ls")') == []
    assert confirmed('__import__(request.args["m"]).system("ls")') == []


def test_setattr_with_a_constant_name_is_an_assignment() -> None:
    prelude = PRELUDE + "class Holder:\n    pass\n"
    body = 'h = Holder()\nsetattr(h, "cmd", {})\nsetattr(h, "safe", "ls")\nos.system(h.{})\n' \
           "return 'ok'"
    assert route(X + body.format("x", "cmd"), prelude=prelude) == ["shell-injection"]
    assert route(X + body.format("x", "safe"), prelude=prelude) == []
    assert route(X + body.format('"pwd"', "cmd"), prelude=prelude) == []


RUNNER = "class Runner:\n    def go(self, c):\n        os.system(c)\n\n"
RUN = "def run(flags, c):\n    os.system(c + flags)\n\n"


@pytest.mark.parametrize("code, body", [
    (RUN, "functools.partial(run, ' -l')({})"),
    (RUN, "list(map(functools.partial(run, ''), [{}]))"),
    (RUNNER, 'operator.methodcaller("go", {})(Runner())'),
    (RUNNER, 'getattr(Runner(), "go")({})'),
])
def test_a_wrapped_repository_function_is_interpreted(code: str, body: str) -> None:
    assert route(X + body.format("x") + "\nreturn 'ok'", prelude=PRELUDE + code) == [
        "shell-injection"]
    assert route(X + body.format('"ls"') + "\nreturn 'ok'", prelude=PRELUDE + code) == []
