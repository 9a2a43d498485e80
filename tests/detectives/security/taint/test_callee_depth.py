"""Call chains: followed to their sink however deep an attacker hides it, or failed closed.

Each attack is a generated repository audited by the security detective; the gate is the
one the pipeline applies (``judgment.conclude_verdict`` over the evidence).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.detective import security
from courtroom.detectives.security.taint import Engine, callee, engine
from courtroom.detectives.security.taint.callee import MAX_DEPTH
from courtroom.judgment import conclude_verdict, unscanned
from courtroom.models import SECURITY_TAG, Evidence
from detectives.conftest import OpenCase
from detectives.security.taint.programs import flows

ROUTES = {
    "flask": ("from flask import Flask, request\n\napp = Flask(__name__)\n\n\n"
              "@app.route('/run')\ndef run():\n    value = request.args['cmd']\n"),
    "fastapi": ("from fastapi import FastAPI\n\napp = FastAPI()\n\n\n"
                "@app.get('/run')\ndef run(value: str):\n"),
}
SINKS = {"subprocess": "subprocess.run(cmd, shell=True)", "os.system": "os.system(cmd)"}


def chain(length: int, sink: str) -> dict[str, str]:
    """Helpers ``step0`` .. ``step<length-1>`` over two modules, the last running ``sink``."""
    steps = []
    for i in range(length):
        call = sink if i == length - 1 else f"step{i + 1}(cmd)"
        steps.append(f"def step{i}(cmd):\n    cmd = 'echo ' + cmd\n    {call}\n")
    half = length // 2
    head = f"import os\nimport subprocess\n\nfrom app.tail import step{half}\n\n\n"
    tail = "import os\nimport subprocess\n\n\n"
    return {"app/__init__.py": "", "app/head.py": head + "\n\n".join(steps[:half]),
            "app/tail.py": tail + "\n\n".join(steps[half:])}


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def audit(root: Path, open_case: OpenCase, files: dict[str, str]) -> list[Evidence]:
    return security(open_case(make_repo(root, files=files))).evidence


def gate(evidence: list[Evidence]) -> str:
    pool = {e.id: e for e in evidence}
    return conclude_verdict([], pool, fail_below=None, gate={}, incomplete=False).conclusion


def repository(framework: str, length: int, sink: str,
               argument: str = "value") -> dict[str, str]:
    web = ROUTES[framework] + f"    step0({argument})\n    return 'ok'\n"
    return {**chain(length, sink), "web.py": "from app.head import step0\n" + web}


@pytest.mark.parametrize("length", [4, 6])
@pytest.mark.parametrize("framework", sorted(ROUTES))
@pytest.mark.parametrize("sink", sorted(SINKS))
def test_a_sink_deep_in_a_chain_of_helpers_is_confirmed_and_fails_the_gate(
        tmp_path: Path, open_case: OpenCase, length: int, framework: str, sink: str) -> None:
    files = repository(framework, length, SINKS[sink])
    evidence = audit(tmp_path / "r", open_case, files)
    confirmed = [e for e in evidence if SECURITY_TAG in e.tags]
    sink_line = line_of(files["app/tail.py"], SINKS[sink])
    assert [e.location for e in confirmed] == [f"app/tail.py:{sink_line}"]
    assert "shell injection" in confirmed[0].goal
    assert not [e for e in evidence if SCAN_INCOMPLETE in e.tags]
    assert gate(evidence) == "failure"


def test_a_chain_past_the_bound_fails_closed_as_incomplete(
        tmp_path: Path, open_case: OpenCase) -> None:
    evidence = audit(tmp_path / "r", open_case,
                     repository("flask", MAX_DEPTH + 4, SINKS["os.system"]))
    assert not [e for e in evidence if SECURITY_TAG in e.tags]
    bound = [e for e in evidence if "analysis bound reached" in e.goal]
    assert len(bound) == 1 and "unconfirmed" in bound[0].rationale
    incomplete = [e for e in evidence if SCAN_INCOMPLETE in e.tags]
    assert len(incomplete) == 1 and "analysis bound reached" in incomplete[0].rationale
    pool = {e.id: e for e in evidence}
    assert gate(evidence) == "failure" and unscanned(pool)


def test_a_chain_past_the_bound_carrying_only_constants_is_no_finding(
        tmp_path: Path, open_case: OpenCase) -> None:
    evidence = audit(tmp_path / "r", open_case,
                     repository("flask", MAX_DEPTH + 4, SINKS["os.system"], "'ls'"))
    assert not [e for e in evidence if SCAN_INCOMPLETE in e.tags or SECURITY_TAG in e.tags]
    assert gate(evidence) == "success"


def _rules(length: int) -> list[tuple[str, str]]:
    web = ROUTES["flask"] + "    step0(value)\n    return 'ok'\n"
    found = flows({**chain(length, SINKS["os.system"]),
                   "web.py": "from app.head import step0\n" + web})
    return [(f.rule, f.sink) for f in found]


def test_the_bound_is_exact_the_deepest_chain_it_allows_is_followed_to_its_sink() -> None:
    assert _rules(MAX_DEPTH) == [("shell-injection", "os.system")]
    assert _rules(MAX_DEPTH + 1) == [("analysis-bound", f"step{MAX_DEPTH}")]


PING_PONG = '''import os
from flask import Flask, request

app = Flask(__name__)


def ping(cmd, n):
    if n:
        return pong(cmd + " -v", n - 1)
    os.system(cmd)
    return cmd


def pong(cmd, n):
    return ping(cmd, n)


@app.route("/x")
def handler():
    ping(request.args["cmd"], 3)
    return "ok"
'''
#: The sink reads what the recursive call returns, attacker data only from the second level
#: down: only a result raised to a fixed point shows it (the call's first guess is clean).
COLLECT = '''import os
from flask import Flask, request

app = Flask(__name__)


@app.route("/x")
def handler():
    return collect(3)


def collect(n):
    if n == 0:
        return ""
    previous = collect(n - 1)
    os.system("echo " + previous)
    return previous + request.args["x"]
'''


@pytest.mark.parametrize(("code", "sinks"), [
    (PING_PONG, [("shell-injection", 10)]),
    (COLLECT, [("cross-site-scripting", 9), ("shell-injection", 16)]),
])
def test_recursion_carrying_taint_terminates_and_keeps_its_sink(
        code: str, sinks: list[tuple[str, int]]) -> None:
    assert [(f.rule, f.line) for f in flows({"app.py": code})] == sinks


CAUSES = '''import sys


def chain(error, seen):
    if error is None:
        return seen
    chain(error.__cause__, seen)
    chain(error.__context__, seen)
    return seen


def report():
    return chain(sys.exc_info()[1], [])
'''


def test_a_recursion_that_builds_a_longer_name_at_each_level_is_still_one_recursion() -> None:
    # Each level names a new object (error.__cause__.__context__...); told apart by those
    # names, two calls a level would be 2**MAX_DEPTH interpretations.
    engine = Engine([parse_bytes("errors.py", CAUSES.encode())])
    assert engine.run() == []
    assert len(engine.callees.memo) < 2 ** 8


def test_a_call_past_the_work_budget_is_cut_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callee, "WORK_BASE", 0)
    monkeypatch.setattr(engine, "WORK_PER_FUNCTION", 0)
    found = flows({**chain(3, SINKS["os.system"]), "web.py": "from app.head import step0\n" +
                   ROUTES["flask"] + "    step0(value)\n    return 'ok'\n"})
    assert [(f.rule, f.sink) for f in found] == [("analysis-bound", "step0")]
    assert "work budget" in found[0].steps[-1].note
