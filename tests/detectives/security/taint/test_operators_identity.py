"""``is`` folds only what the language guarantees, never the analyser's own object identity.

Two equal strings or numbers may or may not be one object at run time (interning, constant
folding): a branch on their identity is a branch both ways, never dead code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.security.detective import security
from courtroom.judgment import conclude_verdict
from courtroom.models import SECURITY_TAG
from detectives.conftest import OpenCase
from detectives.security.taint.programs import route

MODES = '''import subprocess

from flask import Flask, request

MODE = "shell"
SHELL_MODE = "shell"
app = Flask(__name__)


@app.route("/run")
def run():
    if MODE is not SHELL_MODE:
        return "disabled"
    subprocess.run(request.args["cmd"], shell=True)
    return "ok"
'''


def test_a_branch_on_the_identity_of_two_equal_strings_is_not_dead_code(
        tmp_path: Path, open_case: OpenCase) -> None:
    evidence = security(open_case(make_repo(tmp_path / "r", files={"app.py": MODES}))).evidence
    confirmed = [e for e in evidence if SECURITY_TAG in e.tags]
    assert [e.location for e in confirmed] == ["app.py:14"]
    ruling = conclude_verdict([], {e.id: e for e in evidence}, fail_below=None, gate={},
                              incomplete=False)
    assert ruling.conclusion == "failure"


@pytest.mark.parametrize("test", [
    "'shell' is 'shell'", "'shell' is not 'shell'", "1000 is 1000", "1.5 is 1.5",
    "(1,) is (1,)", "x is 'shell'",
])
def test_identity_of_equal_values_is_unknown_so_both_branches_run(test: str) -> None:
    body = f"x = 'shell'\nif {test}:\n    return 'no'\nos.system(request.args['c'])\nreturn 'ok'"
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("test", [
    "None is not None", "'a' is None", "None is 0", "True is 1", "'a' is 'b'",
    "not (False is False)", "2 is 3",
])
def test_identity_the_language_guarantees_still_folds(test: str) -> None:
    body = f"if {test}:\n    os.system(request.args['c'])\nreturn 'ok'"
    assert route(body) == []
