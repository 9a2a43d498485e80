"""A small Flask service built by the tests: the twin of a team's pull request.

``flask_service`` writes a service with its tests, CI, linter configuration and README;
its flags make the twins the tests compare (unpinned requirements, a reflected XSS, a
committed secret, a swallowed exception, no tests).
"""

from __future__ import annotations

from pathlib import Path

from builders import Commit, make_repo

APP = '''import logging

from flask import Flask, request

app = Flask(__name__)
log = logging.getLogger(__name__)


def total(values):
    return sum(int(v) for v in values)


@app.route("/sum")
def add():
    log.info("sum asked")
    return {"total": total(request.args.getlist("v"))}
'''
XSS_ROUTE = '''

@app.route("/hello")
def hello():
    name = request.args.get("name", "")
    return "<h1>Hello " + name + "</h1>"
'''
SWALLOWED = '''

def quiet(path):
    try:
        return open(path).read()
    except:
        pass
'''
TESTS = '''from service.app import total


def test_total_adds() -> None:
    assert total(["1", "2"]) == 3


def test_total_of_nothing() -> None:
    assert total([]) == 0
'''
CI = '''name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install -r requirements.txt && pytest
'''
PYPROJECT = '''[project]
name = "service"
version = "0.1.0"

[tool.ruff]
line-length = 100

[tool.mypy]
strict = true
'''
README = '''# Service

## Installation

pip install -r requirements.txt

## Usage

flask --app service.app run
'''


def flask_service(root: Path, *, pinned: bool = True, xss: bool = False,
                  secret: bool = False, swallowed: bool = False, tests: bool = True) -> Path:
    """Build the service as a git repository (two commits) and return its root."""
    app = APP + (XSS_ROUTE if xss else "") + (SWALLOWED if swallowed else "")
    if secret:
        app += '\nAPI_TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"\n'
    files: dict[str, str | None] = {
        "service/__init__.py": "",
        "service/app.py": app,
        "requirements.txt": "flask==3.0.3\nrequests==2.32.3\n" if pinned
        else "flask\nrequests>=2\n",
        "pyproject.toml": PYPROJECT,
        ".github/workflows/ci.yml": CI,
        "README.md": README,
        "LICENSE": "MIT License\n\nCopyright (c) 2026 Team\n",
    }
    if tests:
        files["tests/test_app.py"] = TESTS
    return make_repo(root, [Commit("Start the service", {"README.md": "# Service\n"}),
                            Commit("Add the service", files)])
