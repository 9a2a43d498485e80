"""Making the audit incomplete never turns a failure into a pass (issue 12 item 3).

Whole offline audits of hostile trees: odd file names, padding, a scan that fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives import REGISTRY
from courtroom.detectives.base import Case
from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.repo import listing
from courtroom.errors import EXIT_FAILURE
from courtroom.models import Evidence, Verdict
from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

VULNERABLE = "import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"


def _verdict(root: Path, out: Path) -> Verdict:
    outcome = audit(AuditConfig(target=str(root), out_dir=out))
    assert outcome.verdict is not None
    # The exit status follows the conclusion: 1 for failure, never 0 for a hidden flaw.
    assert outcome.exit_code == (EXIT_FAILURE if outcome.verdict.conclusion == "failure" else 0)
    return outcome.verdict


def _confirmed_injection(verdict: Verdict) -> list[Evidence]:
    return [e for e in verdict.evidences.values()
            if "security" in e.tags and "shell injection" in e.goal]


def test_shell_injection_beside_a_non_utf8_name_fails_the_gate(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": VULNERABLE, "notes.md": "# notes\n"})
    with open(os.path.join(os.fsencode(repo), b"tool\xff\n.py"), "wb") as fh:
        fh.write(VULNERABLE.encode())
    verdict = _verdict(repo, tmp_path / "out")
    assert not any("failed" in e for e in verdict.errors), verdict.errors
    located = sorted(e.location for e in _confirmed_injection(verdict))
    assert located == ["app.py:4", "tool\\xff\\x0a.py:4"]
    assert verdict.conclusion == "failure"
    assert "\udcff" not in verdict.model_dump_json()


def test_twenty_thousand_padding_files_cannot_hide_a_vulnerable_file(tmp_path: Path) -> None:
    root = tmp_path / "r"
    (root / "aaa").mkdir(parents=True)
    for i in range(20_000):
        (root / "aaa" / f"pad{i:05d}").touch()
    (root / "zz_app.py").write_text(VULNERABLE)
    verdict = _verdict(root, tmp_path / "out")
    assert [e.location for e in _confirmed_injection(verdict)] == ["zz_app.py:4"]
    assert verdict.conclusion == "failure"


def test_source_files_beyond_the_cap_fail_closed(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_SOURCE_FILES", 20)
    root = tmp_path / "r"
    root.mkdir()
    for i in range(20):
        (root / f"a{i:02d}.py").write_text("x = 1\n")
    (root / "zz_app.py").write_text(VULNERABLE)
    verdict = _verdict(root, tmp_path / "out")
    assert _confirmed_injection(verdict) == []  # the scan never saw it ...
    incomplete = [e for e in verdict.evidences.values() if SCAN_INCOMPLETE in e.tags]
    assert len(incomplete) == 1 and "1 possible Python source file(s)" in incomplete[0].rationale
    assert verdict.conclusion == "failure"  # ... so the gate cannot pass
    assert any(e.startswith("conclusion failure: the security scan did not cover")
               for e in verdict.errors)


def test_a_failed_security_detective_fails_closed(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(case: Case) -> list[Evidence]:
        raise RecursionError("a file the scanner cannot handle")

    monkeypatch.setitem(REGISTRY, "security", broken)
    repo = make_repo(tmp_path / "r", files={"app.py": "x = 1\n"})
    verdict = _verdict(repo, tmp_path / "out")
    assert verdict.conclusion == "failure"
    assert any("detective security failed" in e for e in verdict.errors)
    assert any("the security scan did not cover" in e and "security detective" in e
               for e in verdict.errors)
