"""The taint engine: sources, propagation, sanitisers, decoys, sinks, calls across modules."""

from __future__ import annotations

import pytest

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint import Flow, analyse

ROUTE = "from flask import Flask, request\napp = Flask(__name__)\n\n\n" \
        "@app.route('/x', methods=['POST'])\ndef handler():\n"


def flows(files: dict[str, str]) -> list[Flow]:
    return analyse([parse_bytes(path, text.encode()) for path, text in files.items()])


def route(body: str, prelude: str = "import os\nimport subprocess\n") -> list[str]:
    """Rules confirmed in one route handler whose body is ``body`` (indented by us)."""
    code = prelude + ROUTE + "".join(f"    {line}\n" for line in body.strip().splitlines())
    return [f.rule for f in flows({"app.py": code})]


@pytest.mark.parametrize("body", [
    "x = request.form.get('a')\nos.system(f'echo {x}')",
    "x = request.args['a']\nos.system('echo %s' % x)",
    "x = request.cookies.get('a')\nos.system('echo {}'.format(x))",
    "x = request.headers.get('a')\nos.system('echo ' + x)",
    "d = {}\nd['k'] = request.form['a']\nos.system(d['k'])",
    "xs = ['safe']\nxs.append(request.form['a'])\nos.system(xs[1])",
    "xs = [request.form['a'] for _ in range(2)]\nos.system(' '.join(xs))",
    "cmd = ['sh', '-c', 'echo ' + request.form['a']]\nsubprocess.run(cmd)",
    "subprocess.run(request.form['a'], shell=True)",
    "x = request.form['a']\nif x:\n    y = x\nelse:\n    y = 'b'\nos.system(y)",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "x = request.form['a']\nnum = 86\nif 7 * 42 - num > 200:\n    y = 'k'\nelse:\n    y = x\n"
    "os.system(y)",
    "x = request.form['a']\ny = x\ny = 'constant'\nos.system(y)",
    "d = {'a': 'safe', 'b': request.form['a']}\nos.system(d['a'])",
    "xs = ['safe', request.form['a'], 'more']\nxs.pop(0)\nos.system(xs[1])",
    "import configparser\nc = configparser.ConfigParser()\nc.add_section('s')\n"
    "c.set('s', 'a', 'safe')\nc.set('s', 'b', request.form['a'])\nos.system(c.get('s', 'a'))",
    "guess = 'ABC'[1]\nmatch guess:\n    case 'A':\n        y = request.form['a']\n"
    "    case _:\n        y = 'k'\nos.system(y)",
    "y = 'k' if 7 * 42 > 200 else request.form['a']\nos.system(y)",
    "import shlex\nos.system('echo ' + shlex.quote(request.form['a']))",
    "os.system('sleep ' + str(int(request.form['a'])))",
    "x = request.form['a']\nif x not in ('ls', 'pwd'):\n    return 'no'\nos.system(x)",
    "subprocess.run(['git', 'clone', request.form['a']])",
    "subprocess.run('ls', shell=True)",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


@pytest.mark.parametrize(("body", "rule"), [
    ("return f'<p>{request.args[\"q\"]}</p>'", "cross-site-scripting"),
    ("eval(request.form['a'])", "code-injection"),
    ("import pickle\npickle.loads(request.get_data())", "insecure-deserialization"),
    ("import yaml\nyaml.load(request.data, Loader=yaml.Loader)", "insecure-deserialization"),
    ("import sqlite3\nsqlite3.connect('d').execute(\"SELECT '%s'\" % request.form['a'])",
     "sql-injection"),
    ("open(f'/srv/files/{request.cookies[\"f\"]}').read()", "path-traversal"),
])
def test_every_sink_kind(body: str, rule: str) -> None:
    assert rule in route(body)


@pytest.mark.parametrize("body", [
    "import html\nreturn html.escape(request.args['q'])",
    "return {'q': request.args['q']}",
    "from flask import make_response\nreturn make_response(('ok', {'X-Q': request.args['q']}))",
    "import yaml\nyaml.safe_load(request.data)\nreturn 'ok'",
    "import sqlite3\nsqlite3.connect('d').execute('SELECT ?', (request.form['a'],))\nreturn 'ok'",
    "from pathlib import Path\nbase = Path('/srv')\np = (base / request.args['f']).resolve()\n"
    "if not str(p).startswith(str(base)):\n    return 'no'\nreturn p.read_text()",
    "x = request.args['f']\nif '..' in x:\n    return 'no'\nreturn open('/srv/' + x).read()",
    "return request.path.split('/')[1]",
    "from flask import render_template\nreturn render_template('p.html', q=request.args['q'])",
])
def test_sanitised_responses_and_safe_apis(body: str) -> None:
    assert route(body, prelude="") == []


def test_a_fastapi_route_returns_json_not_html() -> None:
    code = ("from fastapi import FastAPI\napp = FastAPI()\n\n\n@app.get('/items/{q}')\n"
            "def item(q: str):\n    return f'<p>{q}</p>'\n")
    assert flows({"api.py": code}) == []


def test_an_unresolved_prefix_check_does_not_sanitise_a_path() -> None:
    body = ("from pathlib import Path\nbase = Path('/srv')\np = base / request.args['f']\n"
            "if not str(p).startswith(str(base)):\n    return 'no'\nreturn p.read_text()")
    assert route(body, prelude="") == ["path-traversal"]


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


def test_cli_input_reaches_the_shell_but_is_no_path_traversal() -> None:
    code = ("import os\nimport sys\n\n\ndef main():\n    os.system('echo ' + sys.argv[1])\n"
            "    for root, _, names in os.walk(sys.argv[2]):\n"
            "        for name in names:\n            open(os.path.join(root, name)).read()\n")
    assert [f.rule for f in flows({"cli.py": code})] == ["shell-injection"]


def test_an_uncalled_api_is_injection_only_when_it_builds_the_command() -> None:
    code = ("import os\n\n\ndef run(cmd):\n    os.system(cmd)\n\n\n"
            "def clone(url):\n    os.system('git clone ' + url)\n")
    assert [(f.rule, f.line) for f in flows({"lib.py": code})] == [("shell-injection", 9)]


def test_hostile_constants_do_not_exhaust_memory() -> None:
    code = ("import os\nx = '%999999999999d' % 1\ny = '{:>999999999999}'.format(1)\n"
            "z = 'a' * 10 ** 12\nw = '1'.zfill(10 ** 12)\nos.system(x + y + z + w)\n")
    assert flows({"boom.py": code}) == []


def test_a_file_with_syntax_errors_is_still_examined() -> None:
    code = "import os\nimport sys\n\ndef broken(:\n    pass\n\nos.system(sys.argv[1])\n"
    assert [f.line for f in flows({"bad.py": code})] == [7]


def test_a_command_list_spliced_from_a_known_list_keeps_its_program() -> None:
    code = ("import subprocess\nimport sys\n\n\ndef main():\n    base = ['git', '--no-pager']\n"
            "    base += ['-C', sys.argv[1]]\n    subprocess.run([*base, 'log'])\n"
            "    subprocess.run([*base, *sys.argv[2:]])\n")
    assert flows({"cli.py": code}) == []


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


def test_a_test_function_is_no_api_whose_arguments_are_input() -> None:
    test = ("import os\n\n\ndef test_run(tmp_path):\n"
            "    os.system('ls ' + str(tmp_path))\n")
    assert flows({"tests/test_lib.py": test}) == []
