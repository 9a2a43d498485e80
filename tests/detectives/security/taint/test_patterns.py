"""``match`` captures carry the part of the subject they match; a part that holds no
attacker data, or a case a constant subject cannot reach, confirms nothing."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route

X = 'x = request.args.get("x")\n'


def confirmed(body: str) -> list[str]:
    return route(X + body + "\nreturn 'ok'",
                 prelude="import os\nclass Job:\n    def __init__(self, cmd, name):\n"
                         "        self.cmd = cmd\n        self.name = name\n")


@pytest.mark.parametrize("body", [
    "match x:\n    case c:\n        os.system(c)",
    "match x:\n    case str() as c:\n        os.system(c)",
    "match x:\n    case str(c):\n        os.system(c)",
    'match {"cmd": x, "n": 1}:\n    case {"cmd": c}:\n        os.system(c)',
    'match {"cmd": x}:\n    case {"n": 1, **rest}:\n        os.system(rest["cmd"])',
    'match ["run", x]:\n    case [verb, c]:\n        os.system(c)',
    'match ["run", x]:\n    case ["run", *rest]:\n        os.system(rest[0])',
    'match Job(x, "ls"):\n    case Job(cmd=c):\n        os.system(c)',
    "match x:\n    case 1 | 2:\n        pass\n    case c if c.startswith('l'):\n"
    "        os.system(c)",
])
def test_a_capture_carries_the_subjects_taint(body: str) -> None:
    assert confirmed(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    'match {"cmd": x, "n": "ls"}:\n    case {"n": c}:\n        os.system(c)',
    'match ["run", x]:\n    case [c, arg]:\n        os.system(c)',
    'match Job(x, "ls"):\n    case Job(name=c):\n        os.system(c)',
    'match "ls":\n    case "pwd":\n        os.system(x)\n    case c:\n        os.system(c)',
    "match x:\n    case c if c.isdigit():\n        os.system(c)",
    "RED = 'ls'\nmatch x:\n    case Color.RED:\n        os.system(RED)",
])
def test_a_clean_part_or_an_unreachable_case_is_not_confirmed(body: str) -> None:
    assert confirmed(body) == []
