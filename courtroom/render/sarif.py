"""``findings.sarif``: every security finding as SARIF 2.1.0, for code-scanning upload.

Confirmed findings are ``error``; unconfirmed ones ``warning`` (``note`` in test code).
Each result carries its region, a fingerprint that survives line shifts, whether it is
confirmed, and the source-to-sink path as a code flow; held against a base commit's scan,
its ``baselineState`` (``new`` or ``unchanged``; the base's findings the change removed are
listed in ``verdict.json``, not here, so an upload never opens an alert on a line the
audited commit does not have) and whether it lies in the changed lines. A location's
``uri`` is the real file path as a percent-encoded relative URI reference (SARIF 2.1.0
§3.10), so any name a repository holds -- spaces, ``#``, ``?``, bytes that are not UTF-8 --
points at its file; the escaped display path stays in the text people read.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from courtroom import __version__
from courtroom.detectives.repo.listing import real_bytes
from courtroom.findings import SecurityFinding, SecurityReport

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://github.com/courtroom-audit/courtroom"


def _level(f: SecurityFinding) -> str:
    if f.confirmed:
        return "error"
    return "note" if f.in_test else "warning"


def artifact_uri(path: str) -> str:
    """A display path as a relative URI reference: its real bytes, RFC 3986 percent-encoded.

    Only unreserved characters and ``/`` stay as they are, so a ``:`` in the first segment
    cannot read as a scheme and ``%``, ``#`` or ``?`` cannot end the path.
    """
    return quote(real_bytes(path), safe="/")


def _location(path: str, line: int, column: int, note: str | None = None) -> dict[str, Any]:
    loc: dict[str, Any] = {"physicalLocation": {
        "artifactLocation": {"uri": artifact_uri(path), "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": max(1, line), "startColumn": max(1, column)},
    }}
    if note:
        loc["message"] = {"text": note}
    return loc


def _rule(f: SecurityFinding) -> dict[str, Any]:
    tags = ["security", f"external/cwe/cwe-{f.cwe}"] if f.cwe else ["security"]
    return {
        "id": f.rule_id,
        "name": f.rule_id.split("/")[-1],
        "shortDescription": {"text": f.name},
        "helpUri": f"https://cwe.mitre.org/data/definitions/{f.cwe}.html" if f.cwe else INFO_URI,
        "properties": {"tags": tags, "precision": f.precision,
                       "problem.severity": "error" if f.severity == "HIGH" else "warning"},
    }


def _result(f: SecurityFinding, rule_index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": f.rule_id,
        "ruleIndex": rule_index,
        "level": _level(f),
        "message": {"text": f"{f.name}: {f.reason}."},
        "locations": [_location(f.path, f.line, f.column)],
        "partialFingerprints": {"courtroomFinding/v1": f.fingerprint},
        "properties": {"confirmed": f.confirmed, "inTest": f.in_test, "cwe": f.cwe,
                       "severity": f.severity, "tools": list(f.tools)},
    }
    if f.baseline is not None:  # SARIF 2.1.0 §3.27.24: held against the base's scan
        result["baselineState"] = f.baseline
    if f.in_diff is not None:
        result["properties"]["inDiff"] = f.in_diff
    if f.flow:
        steps = [{"location": _location(s.path, s.line, s.column, s.note)} for s in f.flow]
        result["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
    return result


def to_sarif(report: SecurityReport | None) -> dict[str, Any]:
    """The SARIF log of a security report (an empty run when there was no scan)."""
    findings = report.findings if report is not None else []
    rules: dict[str, int] = {}
    descriptors: list[dict[str, Any]] = []
    results = []
    for f in findings:
        if f.rule_id not in rules:
            rules[f.rule_id] = len(descriptors)
            descriptors.append(_rule(f))
        results.append(_result(f, rules[f.rule_id]))
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "courtroom", "version": __version__,
                            "informationUri": INFO_URI, "rules": descriptors}},
        "automationDetails": {"id": "courtroom/"},
        "results": results,
        "properties": {
            "confirmed": report.confirmed if report else 0,
            "unconfirmed": report.unconfirmed if report else 0,
            "notExamined": list(report.not_examined) if report else [],
        },
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def dumps(report: SecurityReport | None) -> str:
    """The SARIF text, stable key order, newline-terminated."""
    return json.dumps(to_sarif(report), indent=2, ensure_ascii=False) + "\n"
