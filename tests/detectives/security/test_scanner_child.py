"""The bandit child is held to a deadline and a byte cap: one that hangs or floods is
killed with its group, and the files are scanned in this process instead."""

from __future__ import annotations

import sys
import time

import pytest

from courtroom.detectives.security import scanner

SHELL = b"import subprocess\nsubprocess.call('ls ' + input(), shell=True)\n"


@pytest.mark.parametrize("program", ["import time; time.sleep(60)",
                                     "import sys; sys.stdout.write('x' * 4096)"],
                         ids=["hangs", "floods"])
def test_a_child_past_its_limits_is_killed_and_the_scan_still_done(
        monkeypatch: pytest.MonkeyPatch, program: str) -> None:
    monkeypatch.setattr(scanner, "PARALLEL_BYTES", 1)
    monkeypatch.setattr(scanner, "CHILD_SECONDS", 1.0)
    monkeypatch.setattr(scanner, "MAX_ANSWER_BYTES", 1024)
    monkeypatch.setattr(scanner, "python_module",
                        lambda _module: [sys.executable, "-I", "-c", program])
    started = time.monotonic()
    result = scanner.start_scan([("app.py", SHELL)])()
    assert time.monotonic() - started < 30
    assert result.scanned == 1 and any(f.test_id == "B602" for f in result.findings)
