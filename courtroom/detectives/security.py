"""The security detective: bandit for breadth, tree-sitter to confirm reachability.

Only a **confirmed** finding (a non-constant, externally influenced value reaches the
sink, or a real secret/unsafe setting in non-test code) carries the ``security`` tag,
which drives the chief justice's security cap. The rest carry ``security_unconfirmed``.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, detective
from courtroom.detectives.callers import CallSites, call_sites
from courtroom.detectives.common import REPO, TEST_PATH, make, one_line
from courtroom.detectives.parsing import SourceFile, call_arguments, source_index
from courtroom.detectives.scanner import Finding, scan
from courtroom.detectives.security_rules import clone_into_cwd, hardcoded_secrets, path_traversal
from courtroom.detectives.taint import Verdict, judge_sink, node_at
from courtroom.models import Evidence

NAME = "security"
MAX_FINDINGS = 40

#: bandit test id -> the plain-words name judges and readers use for it.
KIND = {
    "B602": "shell injection", "B604": "shell injection", "B605": "shell injection",
    "B609": "shell injection", "B102": "code execution (RCE) via exec",
    "B307": "code execution (RCE) via eval", "B301": "insecure deserialization",
    "B302": "insecure deserialization", "B506": "insecure deserialization",
    "B614": "insecure deserialization", "B105": "hardcoded credentials",
    "B106": "hardcoded credentials", "B107": "hardcoded credentials",
    "B608": "sql injection", "B501": "TLS verification disabled (verify=False)",
    "B306": "insecure temporary file (mktemp)", "B108": "insecure temporary file",
    "B202": "path traversal (tar extraction)", "B310": "URL open of arbitrary scheme",
    "path_traversal": "path traversal", "clone_into_cwd": "clone into the working directory",
    "hardcoded_secret": "hardcoded credentials",
}
#: Findings whose danger is the value flowing in: confirmed only when it is tainted.
FLOW = {"B602", "B604", "B605", "B609", "B102", "B307", "B301", "B302", "B506", "B614", "B608",
        "B202", "path_traversal", "clone_into_cwd"}
#: Unsafe settings that are a flaw wherever they appear in production code. Every other
#: bandit check (autoescape for Markdown, "/tmp" strings, urlopen audits ...) is a hint
#: that stays unconfirmed: it never gates the security cap.
SETTINGS = {"B501", "B306", "B105", "B106", "B107", "hardcoded_secret"}
_TEST_PATH = TEST_PATH
_PLACEHOLDER = re.compile(r"^$|changeme|example|dummy|placeholder|your[_-]|xxx|<.*>|\*\*\*|"
                          r"^test|^fake|^secret$|^password$|^none$", re.I)


_CREDENTIAL = {"B105", "B106", "B107", "hardcoded_secret"}
_LITERAL = re.compile(r"('|\")([^'\"]{4})[^'\"]*\1")


def _redact(text: str) -> str:
    """Mask string literals so a committed secret is not copied into the verdict."""
    return _LITERAL.sub(lambda m: f"{m.group(1)}{m.group(2)}…{m.group(1)}", text)


def _secret_value(text: str) -> str:
    """The first quoted literal in a finding's text."""
    found = re.search(r"'([^']*)'|\"([^\"]*)\"", text)
    return (found.group(1) or found.group(2) or "") if found else ""


def _confirm_flow(sf: SourceFile, f: Finding, calls: CallSites) -> Verdict:
    """Confirm a sink finding by tracing the value that reaches it."""
    if f.test_id == "B608":
        # The query expression: a % / + / .format() / f-string, before any bare literal.
        for kinds in (("binary_operator",), ("call",), ("string", "concatenated_string")):
            node = node_at(sf, f.line, f.col, kinds)
            if node is not None:
                return judge_sink(sf, node, calls)
        return Verdict(False, False, "the query expression could not be located")
    call = node_at(sf, f.line, f.col, ("call",))
    if call is None:
        return Verdict(False, False, "the call could not be located in the tree")
    positional, keywords = call_arguments(call.child_by_field_name("arguments"))
    value = positional[0] if positional else keywords.get("args") or keywords.get("cmd")
    if f.test_id in ("B506", "B301", "B302", "B614") and value is None:
        value = keywords.get("stream") or keywords.get("data")
    return judge_sink(sf, value, calls)


def _looks_secret(value: str) -> bool:
    """A committed secret: 8+ characters, no spaces, not a placeholder, some variety."""
    if len(value) < 8 or any(c.isspace() for c in value) or _PLACEHOLDER.search(value):
        return False
    classes = sum((any(c.islower() for c in value), any(c.isupper() for c in value),
                   any(c.isdigit() for c in value), any(not c.isalnum() for c in value)))
    return classes >= 2 and not re.fullmatch(r"[a-z_]+|[A-Z_]+", value)


def _confirm_setting(f: Finding) -> Verdict:
    """Confirm an unsafe-setting or credential finding."""
    if f.test_id not in SETTINGS:
        return Verdict(False, False, "a pattern bandit audits, with no external input traced")
    if _TEST_PATH.search(f.path):
        return Verdict(False, True, "it is in test or example code")
    if f.test_id in _CREDENTIAL:
        if not _looks_secret(_secret_value(f.text)):
            return Verdict(False, True, "the value looks like a placeholder or a label, "
                                        "not a secret")
        return Verdict(True, True, "a literal secret-looking value is committed to the source")
    return Verdict(True, True, "the unsafe setting is present in production code")


def _evidence(path_line: str, kind: str, cwe: int, severity: str, rule: str, text: str,
              verdict: Verdict, excerpt: str) -> Evidence:
    """One located security finding as evidence (tag set by confirmation)."""
    status = "confirmed" if verdict.confirmed else "unconfirmed"
    if kind == KIND["hardcoded_secret"]:
        text, excerpt = _redact(text), _redact(excerpt)
    tags = (REPO, "tools", "security" if verdict.confirmed else "security_unconfirmed")
    return make(NAME, f"Security finding: {kind}", True, path_line,
                f"{status}: {verdict.reason}. {rule} says: {one_line(text, 160)} "
                f"(CWE-{cwe}, severity {severity}).",
                0.9 if verdict.confirmed else 0.6, tags,
                content=f"[{status}] {kind} | CWE-{cwe} | severity {severity} | {rule} | "
                        f"{one_line(excerpt, 160)}")


def _line(sf: SourceFile, line: int) -> str:
    """The source line of a finding."""
    lines = sf.source.splitlines()
    return lines[line - 1].decode("utf-8", "replace") if 0 < line <= len(lines) else ""


@detective(NAME)
def security(case: Case) -> list[Evidence]:
    """Security findings with path:line, CWE, severity and confirmed/unconfirmed status."""
    index = source_index(case.workspace)
    if not index.files:
        return [make(NAME, "Security scan of Python sources", False, ".",
                     "No readable Python file to scan.", 0.9, (REPO, "tools", "missing"))]
    by_path = {sf.path: sf for sf in index.files}
    calls = call_sites(index)
    result = scan([(sf.path, sf.source) for sf in index.files])
    out: list[Evidence] = []
    confirmed = 0
    for f in sorted(result.findings, key=lambda f: (f.path, f.line, f.test_id)):
        sf = by_path[f.path]
        kind = KIND.get(f.test_id, f.test_name.replace("_", " "))
        verdict = _confirm_flow(sf, f, calls) if f.test_id in FLOW else _confirm_setting(f)
        if _TEST_PATH.search(f.path) and verdict.confirmed:
            verdict = Verdict(False, verdict.constant, verdict.reason + " (in test code)")
        confirmed += verdict.confirmed
        out.append(_evidence(f"{f.path}:{f.line}", kind, f.cwe, f.severity,
                             f"bandit {f.test_id} {f.test_name}", f.text, verdict,
                             _line(sf, f.line)))
    credential_lines = {(f.path, f.line) for f in result.findings if f.test_id in _CREDENTIAL}
    for sf in index.files:
        secrets = [h for h in hardcoded_secrets(sf)
                   if (sf.path, h.node.start_point[0] + 1) not in credential_lines]
        for hit in (*path_traversal(sf), *clone_into_cwd(sf), *secrets):
            if hit.rule == "hardcoded_secret":
                verdict = _confirm_setting(Finding(sf.path, hit.node.start_point[0] + 1, 0,
                                                   hit.rule, hit.rule, hit.severity, "MEDIUM",
                                                   hit.cwe, sf.text(hit.value)))
            else:
                verdict = judge_sink(sf, hit.value, calls)
            if _TEST_PATH.search(sf.path) and verdict.confirmed:
                verdict = Verdict(False, False, verdict.reason + " (in test code)")
            confirmed += verdict.confirmed
            out.append(_evidence(sf.loc(hit.node), KIND[hit.rule], hit.cwe, hit.severity,
                                 f"tree-sitter rule {hit.rule}", hit.text, verdict,
                                 sf.text(hit.node)))
    out.sort(key=lambda e: ("security" not in e.tags, e.location))
    shown = out[:MAX_FINDINGS]
    skipped = "; ".join(f"{p} ({why})" for p, why in result.skipped[:10])
    summary = make(NAME, "Security scan of Python sources", True, ".",
                   f"bandit scanned {result.scanned} of {len(index.files)} parsed files; "
                   f"tree-sitter confirmed {confirmed} of {len(out)} "
                   f"findings as reachable by external input."
                   + (f" Not scanned: {skipped}." if skipped else ""), 0.9, (REPO, "tools"),
                   content=f"{confirmed} confirmed, {len(out) - confirmed} unconfirmed, "
                           f"{len(result.skipped)} files not scanned")
    return [summary, *shown]
