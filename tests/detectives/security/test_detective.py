"""The security detective: taint-confirmed findings, full coverage, tags that gate the cap."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.common import SCAN_INCOMPLETE
from courtroom.detectives.security import scanner
from courtroom.detectives.security.detective import MAX_HINTS, scan, security
from courtroom.detectives.security.scanner import scan_all
from courtroom.models import SECURITY_TAG, Evidence
from detectives.conftest import OpenCase
from detectives.submissions import exemplary_submission, flawed_submission

APP = '''import os
import pickle
import sqlite3
import subprocess
import sys
import tempfile

import requests
import yaml
from flask import Flask, request

app = Flask(__name__)


@app.route("/run", methods=["POST"])
def run():
    cmd = request.form.get("cmd")
    subprocess.run(cmd, shell=True)
    subprocess.run("ls -la", shell=True)
    return "ok"


@app.route("/calc")
def calc():
    expr = request.args["expr"]
    return str(eval(expr)) + str(eval("1 + 1"))


@app.route("/load", methods=["POST"])
def load():
    return str(pickle.loads(request.get_data())) + str(yaml.load(request.data))


@app.route("/user")
def user():
    name = request.args.get("name", "")
    conn = sqlite3.connect("db.sqlite")
    conn.execute("SELECT * FROM users WHERE name = '%s'" % name)
    conn.execute("SELECT * FROM users WHERE name = ?", (name,))
    return "done"


@app.route("/file")
def read_file():
    name = request.cookies.get("f", "")
    return open(os.path.join("/srv/files", name)).read()


def fetch(url):
    return requests.get(url, verify=False, timeout=5)


def scratch():
    return tempfile.mktemp()


GITHUB_TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
password = "changeme"
os.system(sys.argv[1])
'''


@pytest.fixture
def findings(tmp_path: Path, open_case: OpenCase) -> dict[int, Evidence]:
    ev = security(open_case(make_repo(tmp_path / "r", files={"app/web.py": APP}))).evidence
    return {int(e.location.split(":")[1]): e for e in ev if e.location.startswith("app/")}


def _line(fragment: str) -> int:
    return next(i for i, text in enumerate(APP.splitlines(), 1) if fragment in text)


CONFIRMED = [
    ("subprocess.run(cmd, shell=True)", "shell injection", "CWE-78"),
    ("return str(eval(expr))", "RCE", "CWE-94"),
    ("pickle.loads(request.get_data())", "insecure deserialization", "CWE-502"),
    ("SELECT * FROM users WHERE name = '%s'", "sql injection", "CWE-89"),
    ("open(os.path.join(", "path traversal", "CWE-22"),
    ("verify=False", "verify=False", "CWE-295"),
    ("tempfile.mktemp()", "mktemp", "CWE-377"),
    ("GITHUB_TOKEN", "hardcoded credentials", "CWE-"),
    ("os.system(sys.argv[1])", "shell injection", "CWE-78"),
]


@pytest.mark.parametrize(("fragment", "kind", "cwe"), CONFIRMED)
def test_confirmed_findings_carry_the_security_tag(
    findings: dict[int, Evidence], fragment: str, kind: str, cwe: str
) -> None:
    item = findings[_line(fragment)]
    assert kind in item.goal and cwe in (item.content or "")
    assert "security" in item.tags and "security_unconfirmed" not in item.tags
    assert item.content and item.content.startswith("[confirmed]")
    assert item.direction == "adverse"


@pytest.mark.parametrize("fragment", ['subprocess.run("ls -la", shell=True)', 'password = '])
def test_constant_or_placeholder_findings_are_unconfirmed(
    findings: dict[int, Evidence], fragment: str
) -> None:
    item = findings[_line(fragment)]
    assert "security" not in item.tags and "security_unconfirmed" in item.tags


def test_parameterised_query_is_not_flagged(findings: dict[int, Evidence]) -> None:
    assert _line('name = ?", (name,))') not in findings


def test_secret_is_redacted(findings: dict[int, Evidence]) -> None:
    item = findings[_line("GITHUB_TOKEN")]
    assert "abcdefghijklmnop" not in (item.content or "") + item.rationale


def test_findings_in_tests_are_reported_but_never_confirmed(
    tmp_path: Path, open_case: OpenCase
) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"tests/test_web.py": APP}))
    ev = security(case).evidence
    assert not [e for e in ev if "security" in e.tags]
    report = scan(case.workspace)
    assert report is not None and report.confirmed == 0
    flagged = [f for f in report.findings if f.rule_id == "courtroom/shell-injection"]
    assert flagged and all(f.in_test and not f.confirmed for f in flagged)


def test_a_file_this_python_cannot_parse_is_still_examined(
    tmp_path: Path, open_case: OpenCase
) -> None:
    # PEP 701 (Python 3.12): the same quotes nested inside an f-string.
    source = ('import subprocess\nimport sys\n\nitems = {"a": 1}\n'
              'print(f"{items["a"]}")\nsubprocess.run(sys.argv[1], shell=True)\n')
    case = open_case(make_repo(tmp_path / "r", files={"tool.py": source}))
    ev = security(case).evidence
    assert "security" in next(e for e in ev if e.location == "tool.py:6").tags
    report = scan(case.workspace)
    assert report is not None and report.files_examined == 1
    try:
        compile(source, "tool.py", "exec")
    except SyntaxError:  # an interpreter before 3.12: bandit could not parse it, and says so
        assert report.tree_sitter_only and report.tree_sitter_only[0].startswith("tool.py")
        summary = next(e for e in ev if e.goal == "Security scan of Python sources")
        assert "tool.py" in summary.rationale


def test_every_finding_is_kept_and_counted(tmp_path: Path, open_case: OpenCase) -> None:
    body = "".join(f"def f{i}(x):\n    return eval(x)\n\n\n" for i in range(MAX_HINTS + 10))
    case = open_case(make_repo(tmp_path / "r", files={"lib.py": body}))
    ev = security(case).evidence
    report = scan(case.workspace)
    assert report is not None and report.unconfirmed == MAX_HINTS + 10
    assert len(report.findings) == MAX_HINTS + 10
    assert len([e for e in ev if "security_unconfirmed" in e.tags]) == MAX_HINTS
    summary = next(e for e in ev if e.goal == "Security scan of Python sources")
    assert f"{MAX_HINTS + 10} are unconfirmed" in summary.rationale


def test_a_file_left_unexamined_fails_closed(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"ok.py": "x = 1\n", "huge.py": "x = 1\n" * 120_000,
             # NUL bytes: this interpreter refuses to run it, older ones ran what came before
             "blob.py": "x = 1\n\x00\x00binary\n"}
    case = open_case(make_repo(tmp_path / "r", files=files))
    ev = security(case).evidence
    incomplete = [e for e in ev if SCAN_INCOMPLETE in e.tags]
    assert len(incomplete) == 1 and "huge.py: over the 600,000-byte limit" in \
        incomplete[0].rationale and "blob.py: holds a NUL byte" in incomplete[0].rationale


def test_code_too_deep_to_follow_is_reported_and_the_rest_still_scanned(
    tmp_path: Path, open_case: OpenCase
) -> None:
    deep = "x = " + "(" * 3000 + "1" + ")" * 3000 + "\n"
    files = {"deep.py": deep, "cli.py": "import os\nimport sys\n\nos.system(sys.argv[1])\n"}
    ev = security(open_case(make_repo(tmp_path / "r", files=files))).evidence
    incomplete = [e for e in ev if SCAN_INCOMPLETE in e.tags]
    assert len(incomplete) == 1 and "deep.py: nested too deeply" in incomplete[0].rationale
    assert "security" in next(e for e in ev if e.location == "cli.py:4").tags


def test_clean_repo_has_summary_and_no_security_tag(tmp_path: Path,
                                                    open_case: OpenCase) -> None:
    ev = security(open_case(exemplary_submission(tmp_path / "r"))).evidence
    assert ev[0].goal == "Security scan of Python sources"
    assert not [e for e in ev if "security" in e.tags or SCAN_INCOMPLETE in e.tags]


def test_flawed_submission(tmp_path: Path, open_case: OpenCase) -> None:
    ev = security(open_case(flawed_submission(tmp_path / "r"))).evidence
    confirmed = {e.location: e.goal for e in ev if "security" in e.tags}
    # An uncalled API that builds a shell command from its argument is injection; one that
    # runs the command or unpickles the blob it is given does what it says (a hint only).
    assert confirmed == {"main.py:24": "Security finding: shell injection",
                         "main.py:27": "Security finding: hardcoded credentials"}
    hints = {e.location for e in ev if "security_unconfirmed" in e.tags}
    assert {"main.py:12", "main.py:16", "main.py:20"} <= hints


def test_scanner_lists_what_bandit_cannot_parse() -> None:
    result = scan_all([("bad.py", b"def x(:\n"), ("big.py", b"x = 1\n" * 100_000),
                       ("ok.py", b"import os\nos.system(input())\n")])
    assert result.scanned == 2
    assert "SyntaxError" in dict(result.skipped)["bad.py"]
    assert [f.test_id for f in result.findings] == ["B605"]


FALSE_ALARMS = '''import glob
import os
import jinja2
import urllib.request

KEY_FILE = "key.json"


def env():
    return jinja2.Environment(loader=jinja2.BaseLoader())


def read_key(folder):
    return (folder / KEY_FILE).read_text()


def fetch(request):
    return urllib.request.urlopen(request, timeout=5)


def read_clone(root):
    for dirpath, _, names in os.walk(root):
        for name in names:
            open(os.path.join(dirpath, name)).read()
    for path in glob.glob(os.path.join(root, "**/*.py"), recursive=True):
        open(path).read()
'''


def test_audit_hints_never_carry_the_security_tag(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"app/misc.py": FALSE_ALARMS}))
    ev = security(case).evidence
    assert not [e for e in ev if "security" in e.tags]


def test_a_helper_in_another_module_is_followed(tmp_path: Path, open_case: OpenCase) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "import os\n\n\ndef run_helper(cmd):\n    os.system(cmd)\n\n\n"
        "def fixed():\n    run_helper('ls')\n",
        "main.py": "import pkg.mod\n\n\ndef go():\n    pkg.mod.run_helper(input())\n",
    }
    case = open_case(make_repo(tmp_path / "r", files=files))
    ev = security(case).evidence
    assert "security" in next(e for e in ev if e.location == "pkg/mod.py:5").tags
    report = scan(case.workspace)
    assert report is not None
    flow = next(f for f in report.findings if f.path == "pkg/mod.py").flow
    assert flow[0].path == "main.py" and flow[-1].line == 5


def test_a_helper_only_ever_given_constants_is_unconfirmed(
    tmp_path: Path, open_case: OpenCase
) -> None:
    files = {"mod.py": "import os\n\n\ndef run_helper(cmd):\n    os.system(cmd)\n\n\n"
                       "def fixed():\n    run_helper('ls')\n"}
    ev = security(open_case(make_repo(tmp_path / "r", files=files))).evidence
    item = next(e for e in ev if e.location == "mod.py:5")
    assert "security" not in item.tags and "security_unconfirmed" in item.tags


def test_no_literal_on_a_flagged_line_reaches_the_verdict(
    tmp_path: Path, open_case: OpenCase
) -> None:
    source = ("import os\nimport sys\n\nos.system('curl -H \"token: ghp_S3cretS3cretS3cret\" ' "
              "+ sys.argv[1])\n")
    case = open_case(make_repo(tmp_path / "r", files={"cli.py": source}))
    ev = security(case).evidence
    report = scan(case.workspace)
    assert report is not None and report.confirmed == 1
    dumped = report.model_dump_json() + "".join(e.model_dump_json() for e in ev)
    assert "S3cretS3cret" not in dumped


FILES = [("a.py", b"import os\nos.system(input())\n"), ("b.py", b"eval(input())\n"),
         ("c.py", b"def x(:\n")]


def test_the_second_process_scans_what_this_one_would(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scanner, "PARALLEL_BYTES", 0)
    child = scanner.start_scan(FILES)()
    here = scanner.scan_all(FILES)
    assert child.findings == here.findings and child.skipped == here.skipped
    assert child.scanned == 2


def test_a_failed_child_is_replaced_by_an_in_process_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scanner, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(scanner.sys, "executable", "/bin/false")
    result = scanner.start_scan(FILES)()
    assert result.scanned == 2 and [f.test_id for f in result.findings] == ["B605", "B307"]


def test_the_detective_returns_its_report_with_its_facts(
    tmp_path: Path, open_case: OpenCase
) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"app/web.py": APP}))
    found = security(case)
    assert found.security is not None and found.security is scan(case.workspace)
    assert found.security.confirmed == sum(1 for e in found.evidence if SECURITY_TAG in e.tags)
