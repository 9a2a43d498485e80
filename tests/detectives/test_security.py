"""The security detective: bandit breadth, tree-sitter confirmation, tags that gate the cap."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.scanner import scan
from courtroom.detectives.security import security
from courtroom.models import Evidence
from detectives.conftest import OpenCase
from detectives.submissions import exemplary_submission, flawed_submission

SINKS = '''import os
import pickle
import marshal
import sqlite3
import subprocess
import sys
import tempfile

import requests
import yaml


def run(cmd):
    subprocess.run(cmd, shell=True)


def run_fixed():
    subprocess.run("ls -la", shell=True)


def evaluate(expr):
    return eval(expr)


def evaluate_const():
    return eval("1 + 1")


def popen(user):
    return os.popen("cat " + user).read()


def load(path):
    with open(path, "rb") as fh:
        return pickle.load(fh)


def load_marshal(blob):
    return marshal.loads(blob)


def load_yaml(text):
    return yaml.load(text)


def query(conn, name):
    return conn.execute("SELECT * FROM users WHERE name = '%s'" % name)


def fetch(url):
    return requests.get(url, verify=False, timeout=5)


def scratch():
    return tempfile.mktemp()


def read_upload(base, name):
    return open(os.path.join(base, name)).read()


def read_upload_safely(base, name):
    target = os.path.realpath(os.path.join(base, name))
    if not target.startswith(base):
        raise ValueError(name)
    return open(os.path.join(base, name)).read()


def clone(url):
    subprocess.run(["git", "clone", url])


def clone_safely(url, dest):
    subprocess.run(["git", "clone", "--", url, dest], check=True)


GITHUB_TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
password = "changeme"
argv_cmd = sys.argv[1]
os.system(argv_cmd)
'''


@pytest.fixture
def findings(tmp_path: Path, open_case: OpenCase) -> dict[int, Evidence]:
    ev = security(open_case(make_repo(tmp_path / "r", files={"app/sinks.py": SINKS})))
    return {int(e.location.split(":")[1]): e for e in ev if e.location.startswith("app/")}


def _line(fragment: str) -> int:
    return next(i for i, text in enumerate(SINKS.splitlines(), 1) if fragment in text)


CONFIRMED = [
    ("subprocess.run(cmd, shell=True)", "shell injection", "CWE-78"),
    ("return eval(expr)", "eval", "CWE-78"),
    ('os.popen("cat " + user)', "shell injection", "CWE-78"),
    ("pickle.load(fh)", "insecure deserialization", "CWE-502"),
    ("marshal.loads(blob)", "insecure deserialization", "CWE-502"),
    ("yaml.load(text)", "insecure deserialization", "CWE-20"),
    ("SELECT * FROM users", "sql injection", "CWE-89"),
    ("verify=False", "verify=False", "CWE-295"),
    ("tempfile.mktemp()", "mktemp", "CWE-377"),
    ("open(os.path.join(base, name)).read()\n\n\ndef read_upload_safely", "path traversal",
     "CWE-22"),
    ('subprocess.run(["git", "clone", url])', "clone into the working directory", "CWE-668"),
    ("GITHUB_TOKEN", "hardcoded credentials", "CWE-259"),
    ("os.system(argv_cmd)", "shell injection", "CWE-78"),
]


@pytest.mark.parametrize(("fragment", "kind", "cwe"), CONFIRMED)
def test_confirmed_findings_carry_the_security_tag(
    findings: dict[int, Evidence], fragment: str, kind: str, cwe: str
) -> None:
    line = _line(fragment.split("\n")[0])
    item = findings[line]
    assert kind in item.goal or kind in (item.content or "")
    assert cwe in (item.content or "") and "severity" in (item.content or "")
    assert "security" in item.tags and "security_unconfirmed" not in item.tags
    assert item.content and item.content.startswith("[confirmed]")
    assert item.location == f"app/sinks.py:{line}"


@pytest.mark.parametrize("fragment", ['subprocess.run("ls -la", shell=True)', 'eval("1 + 1")',
                                      'password = "changeme"'])
def test_constant_arguments_are_unconfirmed(findings: dict[int, Evidence], fragment: str) -> None:
    item = findings[_line(fragment)]
    assert "security" not in item.tags and "security_unconfirmed" in item.tags
    assert item.content and item.content.startswith("[unconfirmed]")


def test_safe_code_is_not_flagged(findings: dict[int, Evidence]) -> None:
    safe_path = _line("def read_upload_safely") + 4
    assert safe_path not in findings
    assert _line('"--", url, dest]') not in findings


def test_secret_is_redacted(findings: dict[int, Evidence]) -> None:
    item = findings[_line("GITHUB_TOKEN")]
    text = (item.content or "") + item.rationale
    assert "abcdefghijklmnop" not in text


def test_findings_in_tests_are_unconfirmed(tmp_path: Path, open_case: OpenCase) -> None:
    code = "import os\n\ndef helper(cmd):\n    os.system(cmd)\n"
    ev = security(open_case(make_repo(tmp_path / "r", files={"tests/test_x.py": code})))
    finding = next(e for e in ev if e.location == "tests/test_x.py:4")
    assert "security" not in finding.tags and "test code" in finding.rationale


def test_clean_repo_has_summary_and_no_security_tag(tmp_path: Path,
                                                    open_case: OpenCase) -> None:
    ev = security(open_case(exemplary_submission(tmp_path / "r")))
    assert not any("security" in e.tags for e in ev)
    assert ev[0].goal == "Security scan of Python sources" and ev[0].found
    assert "0 confirmed" in (ev[0].content or "")


def test_flawed_submission(tmp_path: Path, open_case: OpenCase) -> None:
    ev = security(open_case(flawed_submission(tmp_path / "r")))
    confirmed = [e for e in ev if "security" in e.tags]
    assert {e.location for e in confirmed} >= {"main.py:12", "main.py:16", "main.py:24"}
    assert next(e for e in ev if e.location == "main.py:20").tags == [
        "github_repo", "security_unconfirmed", "tools"]


def test_scanner_skips_broken_and_huge_files() -> None:
    result = scan([("bad.py", b"def x(:\n"), ("big.py", b"x = 1\n" * 100_000),
                   ("ok.py", b"import os\nos.system(input())\n")])
    assert result.scanned == 1
    reasons = dict(result.skipped)
    assert "SyntaxError" in reasons["bad.py"] and "larger" in reasons["big.py"]
    assert [f.test_id for f in result.findings] == ["B605"]


def test_scanner_time_budget() -> None:
    files = [(f"f{i}.py", b"import os\nos.system(input())\n") for i in range(5)]
    result = scan(files, budget=-1.0)
    assert result.scanned == 0 and len(result.skipped) == 5


FALSE_ALARMS = '''import jinja2
import urllib.request

KEY_FILE = "key.json"
LABELS = {"hardcoded_secret": "hardcoded credentials", "token": "access_token"}


def env():
    return jinja2.Environment(loader=jinja2.BaseLoader())


def read_key(folder):
    return (folder / KEY_FILE).read_text()


def fetch(request):
    return urllib.request.urlopen(request, timeout=5)
'''


def test_audit_hints_never_carry_the_security_tag(tmp_path: Path, open_case: OpenCase) -> None:
    ev = security(open_case(make_repo(tmp_path / "r", files={"app/misc.py": FALSE_ALARMS})))
    assert not [e for e in ev if "security" in e.tags]
    flagged = {e.location for e in ev if "security_unconfirmed" in e.tags}
    assert "app/misc.py:13" not in flagged  # folder / KEY_FILE is not traversal


CALLERS = '''import os
from functools import lru_cache
from pathlib import Path

BASE = Path(__file__).parent


@lru_cache(maxsize=8)
def load_query(name):
    return (BASE / f"{name}.scm").read_text()


def by_kind(name, node):
    return load_query(name), node


def kinds(node):
    for kind in ("classes", "calls"):
        by_kind(kind, node)
    return by_kind("functions", node)


def run_helper(cmd):
    os.system(cmd)


def fixed():
    run_helper("ls")


def from_user():
    run_helper(input())


def exposed(cmd):
    os.system(cmd)


@tool
def read_doc(name):
    return (BASE / name).read_text()


def call_tool():
    read_doc("README.md")
'''


@pytest.fixture
def caller_findings(tmp_path: Path, open_case: OpenCase) -> dict[int, Evidence]:
    ev = security(open_case(make_repo(tmp_path / "r", files={"app/callers.py": CALLERS})))
    return {int(e.location.split(":")[1]): e for e in ev if e.location.startswith("app/")}


def _caller_line(fragment: str) -> int:
    return next(i for i, text in enumerate(CALLERS.splitlines(), 1) if fragment in text)


def test_parameter_fed_only_constants_through_callers_is_unconfirmed(
    caller_findings: dict[int, Evidence],
) -> None:
    item = caller_findings[_caller_line('(BASE / f"{name}.scm")')]
    assert "security" not in item.tags and "security_unconfirmed" in item.tags
    assert "every caller" in item.rationale


def test_a_call_through_a_dotted_module_path_counts(
    tmp_path: Path, open_case: OpenCase
) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "import os\n\n\ndef run_helper(cmd):\n    os.system(cmd)\n\n\n"
        "def fixed():\n    run_helper('ls')\n",
        "main.py": "import pkg.mod\n\n\ndef go():\n    pkg.mod.run_helper(input())\n",
    }
    ev = security(open_case(make_repo(tmp_path / "r", files=files)))
    sink = next(e for e in ev if e.location == "pkg/mod.py:5")
    assert "security" in sink.tags


@pytest.mark.parametrize(
    "fragment",
    [
        "os.system(cmd)\n\n\ndef fixed",  # one caller passes input()
        "os.system(cmd)\n\n\n@tool",  # no caller at all: an entry point
        "(BASE / name).read_text()",  # registered by a decorator: reachable from outside
    ],
)
def test_reachable_parameters_stay_confirmed(
    caller_findings: dict[int, Evidence], fragment: str
) -> None:
    marker = fragment.split("\n")[0]
    after = fragment.split("\n")[-1]
    lines = CALLERS.splitlines()
    line = next(
        i
        for i, text in enumerate(lines, 1)
        if marker in text and (after == marker or any(after in t for t in lines[i : i + 4]))
    )
    assert "security" in caller_findings[line].tags
