"""Calls into the repository: helpers in other modules, class attributes, depth cut."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import ROUTE, flows

HELPERS = '''import flask


class Wrapper:
    def __init__(self, request: flask.Request):
        self.request = request

    def form(self, name):
        return self.request.form.get(name)

    def safe(self, name):
        return "constant"


def get_parameter(request, name):
    value = request.args.get(name)
    if not value:
        value = request.form.get(name)
    return value
'''


@pytest.mark.parametrize(("line", "confirmed"), [
    ("x = helpers.web.Wrapper(request).form('a')", True),
    ("x = helpers.web.Wrapper(request).safe('a')", False),
    ("x = get_parameter(request, 'a')", True),
])
def test_helpers_in_other_modules_and_class_attributes(line: str, confirmed: bool) -> None:
    app = ("import os\nimport helpers.web\nfrom helpers.web import get_parameter\n" + ROUTE +
           f"    {line}\n    os.system('echo ' + x)\n    return 'ok'\n")
    found = flows({"helpers/web.py": HELPERS, "helpers/__init__.py": "", "app.py": app})
    assert bool(found) is confirmed
    if confirmed:
        assert found[0].steps[0].path in ("app.py", "helpers/web.py")


def test_a_command_list_returned_by_a_helper_is_still_a_list() -> None:
    code = ("import subprocess\nimport sys\n\n\ndef command(extra):\n"
            "    if not extra:\n        return None\n    cmd = ['git']\n"
            "    for part in extra:\n        cmd += ['-c', part]\n"
            "    return [*cmd, 'log']\n\n\ndef main():\n"
            "    subprocess.run(command(sys.argv[1:]))\n")
    assert flows({"cli.py": code}) == []


LIB = ("import subprocess\n\n\ndef a(x):\n    return b(x)\n\n\ndef b(x):\n"
       "    return c(x)\n\n\ndef c(x):\n    return d(x)\n\n\ndef d(x):\n"
       "    return ['git', '-C', x]\n\n\ndef run(path):\n    subprocess.run(a(path))\n")


def test_a_result_from_calls_too_deep_to_follow_is_no_program_name() -> None:
    main = "import sys\nfrom lib import run\n\n\ndef main():\n    run(sys.argv[1])\n"
    assert flows({"lib.py": LIB, "main.py": main}) == []


SPLATS = ("import os\n\n\ndef run(prefix, *parts):\n    os.system(prefix + ' '.join(parts))\n\n\n"
          "def named(**kw):\n    os.system(kw['cmd'])\n")


@pytest.mark.parametrize(("lines", "sink_lines"), [
    ("helpers.run('echo', request.form['a'])\n    helpers.named(cmd='ls')", [5]),
    ("helpers.run('echo', 'a', 'b')\n    helpers.named(cmd=request.form['a'])", [9]),
    ("helpers.run('echo', 'a', 'b')\n    helpers.named(cmd='ls')", []),
])
def test_starred_parameters_collect_the_arguments_passed_to_them(
        lines: str, sink_lines: list[int]) -> None:
    app = "import helpers\n" + ROUTE + f"    {lines}\n    return 'ok'\n"
    found = flows({"helpers.py": SPLATS, "app.py": app})
    assert [(f.path, f.line) for f in found] == [("helpers.py", n) for n in sink_lines]
