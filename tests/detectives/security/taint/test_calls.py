"""Calls: process calls, sanitisers, conversions and response builders."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import flows, route


@pytest.mark.parametrize("body", [
    "cmd = ['sh', '-c', 'echo ' + request.form['a']]\nsubprocess.run(cmd)",
    "subprocess.run(request.form['a'], shell=True)",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "import shlex\nos.system('echo ' + shlex.quote(request.form['a']))",
    "os.system('sleep ' + str(int(request.form['a'])))",
    "subprocess.run(['git', 'clone', request.form['a']])",
    "subprocess.run('ls', shell=True)",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


@pytest.mark.parametrize("body", [
    "import html\nreturn html.escape(request.args['q'])",
    "from flask import make_response\nreturn make_response(('ok', {'X-Q': request.args['q']}))",
    "import yaml\nyaml.safe_load(request.data)\nreturn 'ok'",
    "from flask import render_template\nreturn render_template('p.html', q=request.args['q'])",
])
def test_sanitised_responses_and_safe_apis(body: str) -> None:
    assert route(body, prelude="") == []


def test_a_command_list_spliced_from_a_known_list_keeps_its_program() -> None:
    code = ("import subprocess\nimport sys\n\n\ndef main():\n    base = ['git', '--no-pager']\n"
            "    base += ['-C', sys.argv[1]]\n    subprocess.run([*base, 'log'])\n"
            "    subprocess.run([*base, *sys.argv[2:]])\n")
    assert flows({"cli.py": code}) == []
