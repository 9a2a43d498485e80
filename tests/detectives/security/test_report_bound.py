"""A flow the taint engine stopped following: an unconfirmed finding, never a confirmed one."""

from __future__ import annotations

import pytest

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.report import combine, from_flow, nonproduction_paths
from courtroom.detectives.security.taint import Flow, Step
from courtroom.detectives.security.taint.program import BOUND_RULE

SOURCE = "def step(cmd):\n    return deeper(cmd)\n"


def cut(path: str) -> Flow:
    steps = (Step(path, 1, 10, "reads request data (request.args)"),
             Step(path, 2, 12, "passed to deeper(), 16 calls deep: analysis bound reached"))
    return Flow(BOUND_RULE, "shell", 0, path, 2, 12, "deeper", steps)


@pytest.mark.parametrize(("path", "in_test"), [("app/steps.py", False),
                                               ("tests/test_steps.py", True)])
def test_a_cut_flow_is_an_unconfirmed_finding_that_says_the_bound_was_reached(
        path: str, in_test: bool) -> None:
    finding = from_flow(cut(path), parse_bytes(path, SOURCE.encode()),
                        {path} if in_test else set())
    assert not finding.confirmed and finding.in_test is in_test
    assert finding.name == "analysis bound reached"
    assert finding.rule_id == f"courtroom/{BOUND_RULE}"
    assert (finding.precision, finding.severity) == ("low", "MEDIUM")
    assert finding.message == "return deeper(cmd)"
    assert [s.line for s in finding.flow] == [1, 2]
    assert finding.reason.startswith("analysis bound reached: attacker data (reads request")
    assert "deeper()" in finding.reason and "incomplete" in finding.reason


def test_a_cut_flow_is_kept_beside_the_confirmed_flows() -> None:
    sink = Flow("shell-injection", "shell", 78, "app/run.py", 1, 1, "os.system",
                (Step("app/run.py", 1, 1, "reaches os.system()"),))
    files = {p: parse_bytes(p, SOURCE.encode()) for p in ("app/steps.py", "app/run.py")}
    found = combine([cut("app/steps.py"), sink], [], [], files, nonproduction_paths(files))
    assert [(f.rule_id, f.confirmed) for f in found] == [
        ("courtroom/shell-injection", True), (f"courtroom/{BOUND_RULE}", False)]
