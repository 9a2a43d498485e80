"""Turn taint flows, bandit issues and tree-sitter rules into one list of findings.

A finding is **confirmed** only when the taint engine shows attacker data reaching the
sink, or when it is an unsafe setting (a committed secret, TLS verification off) in
production code. Everything bandit reports without a traced flow is an unconfirmed hint.
Nothing in test, fixture or example code is ever confirmed.
"""

from __future__ import annotations

import re

from courtroom.detectives.common import is_test_path
from courtroom.detectives.parsing import SourceFile, captures
from courtroom.detectives.security.rules import RuleHit
from courtroom.detectives.security.scanner import Finding
from courtroom.detectives.security.taint import Flow
from courtroom.detectives.security.taint.program import BOUND_RULE, absolute_module, module_name
from courtroom.findings import FlowStep, SecurityFinding

#: Taint rule -> the plain-words name (it carries the rubric's security keyword).
RULE_NAMES = {
    "shell-injection": "shell injection", "code-injection": "code execution (RCE)",
    "sql-injection": "sql injection", "path-traversal": "path traversal",
    "cross-site-scripting": "cross-site scripting (xss)",
    "insecure-deserialization": "insecure deserialization",
    "ldap-injection": "ldap injection", "xpath-injection": "xpath injection",
    "server-side-request-forgery": "server-side request forgery (ssrf)",
    "xml-external-entities": "xml external entity injection (xxe)",
    "template-injection": "server-side template injection", "open-redirect": "open redirect",
    "nosql-injection": "nosql injection",
    BOUND_RULE: "analysis bound reached",
}
#: Bandit test id -> the taint rule it reports the same sink for.
BANDIT_RULE = {
    "B602": "shell-injection", "B604": "shell-injection", "B605": "shell-injection",
    "B606": "shell-injection", "B609": "shell-injection", "B102": "code-injection",
    "B307": "code-injection", "B608": "sql-injection", "B301": "insecure-deserialization",
    "B302": "insecure-deserialization", "B506": "insecure-deserialization",
    "B614": "insecure-deserialization", "B701": "cross-site-scripting",
    "B703": "cross-site-scripting", "B308": "cross-site-scripting",
}
BANDIT_NAMES = {
    "B105": "hardcoded credentials", "B106": "hardcoded credentials",
    "B107": "hardcoded credentials", "B501": "TLS verification disabled (verify=False)",
    "B306": "insecure temporary file (mktemp)", "B108": "hard-coded temporary path",
    "B202": "tar extraction without member checks", "B310": "URL open of arbitrary scheme",
}
#: Unsafe settings that are a flaw wherever they appear in production code.
SETTINGS = frozenset({"B501", "B306", "B105", "B106", "B107"})
CREDENTIALS = frozenset({"B105", "B106", "B107", "hardcoded_secret"})
_PLACEHOLDER = re.compile(r"^$|changeme|example|dummy|placeholder|your[_-]|xxx|<.*>|\*\*\*|"
                          r"^test|^fake|^secret$|^password$|^none$", re.I)
_LITERAL = re.compile(r"('|\")([^'\"]{4})[^'\"]*\1")
_SEVERITY = {"HIGH": "HIGH", "MEDIUM": "MEDIUM", "LOW": "LOW"}


def redact(text: str) -> str:
    """Mask string literals so a committed secret is not copied into any output."""
    return _LITERAL.sub(lambda m: f"{m.group(1)}{m.group(2)}…{m.group(1)}", text)


def looks_secret(value: str) -> bool:
    """A committed secret: 8+ characters, no spaces, not a placeholder, some variety."""
    if len(value) < 8 or any(c.isspace() for c in value) or _PLACEHOLDER.search(value):
        return False
    classes = sum((any(c.islower() for c in value), any(c.isupper() for c in value),
                   any(c.isdigit() for c in value), any(not c.isalnum() for c in value)))
    return classes >= 2 and not re.fullmatch(r"[a-z_]+|[A-Z_]+", value)


def _line(sf: SourceFile | None, line: int) -> str:
    if sf is None:
        return ""
    lines = sf.source.splitlines()
    text = lines[line - 1].decode("utf-8", "replace") if 0 < line <= len(lines) else ""
    return " ".join(text.split())[:160]


def from_flow(flow: Flow, sf: SourceFile | None, tests: set[str]) -> SecurityFinding:
    """A taint flow as a finding: confirmed unless it lies in test code or was cut short.

    A flow the analysis stopped following (``BOUND_RULE``) is never confirmed: no sink was
    seen. The engine also lists its file as not fully examined, which fails the gate closed.
    """
    test = flow.path in tests
    bound = flow.rule == BOUND_RULE
    origin = flow.steps[0].note if flow.steps else "attacker data"
    reason = "in test, fixture or example code" if test else \
        f"attacker data ({origin}) reaches {flow.sink}() through {len(flow.steps)} step(s)"
    if bound:
        reason = (f"analysis bound reached: attacker data ({origin}) goes into {flow.sink}() "
                  f"after {len(flow.steps)} step(s) and was not followed further, so whether "
                  f"it reaches a sink is unknown and the scan is incomplete")
    return SecurityFinding(
        rule_id=f"courtroom/{flow.rule}", name=RULE_NAMES[flow.rule], cwe=flow.cwe,
        severity="MEDIUM" if bound else "HIGH", precision="low" if bound else "high",
        path=flow.path, line=flow.line,
        column=flow.column, message=redact(_line(sf, flow.line)) or flow.sink,
        confirmed=not test and not bound,
        in_test=test, reason=reason, tools=["taint"],
        flow=[FlowStep(path=s.path, line=s.line, column=s.column, note=redact(s.note[:160]))
              for s in flow.steps])


def _setting(f: Finding, test: bool) -> tuple[bool, str]:
    if test:
        return False, "in test, fixture or example code"
    if f.test_id not in SETTINGS:
        return False, "a pattern bandit audits; no attacker data was traced to it"
    if f.test_id in CREDENTIALS:
        found = re.search(r"'([^']*)'|\"([^\"]*)\"", f.text)
        value = (found.group(1) or found.group(2) or "") if found else ""
        if not looks_secret(value):
            return False, "the value looks like a placeholder or a label, not a secret"
        return True, "a literal secret-looking value is committed to the source"
    return True, "the unsafe setting is present in production code"


def from_bandit(f: Finding, sf: SourceFile | None, tests: set[str]) -> SecurityFinding:
    """A bandit issue with no matching flow: a setting, or an unconfirmed hint."""
    test = f.path in tests
    confirmed, reason = _setting(f, test)
    rule = BANDIT_RULE.get(f.test_id)
    name = RULE_NAMES[rule] if rule else BANDIT_NAMES.get(f.test_id,
                                                          f.test_name.replace("_", " "))
    # Literals are masked everywhere: a secret on a flagged line never reaches an output.
    text, detail = redact(_line(sf, f.line) or f.text), redact(" ".join(f.text.split())[:120])
    return SecurityFinding(
        rule_id=f"bandit/{f.test_id}", name=name, cwe=f.cwe or 0,
        severity=_SEVERITY.get(f.severity, "MEDIUM"),  # type: ignore[arg-type]
        precision="medium" if confirmed else "low", path=f.path, line=f.line,
        column=f.col + 1, message=text, confirmed=confirmed, in_test=test,
        reason=f"{reason} (bandit {f.test_id}: {detail})",
        tools=[f"bandit {f.test_id}"])


def from_rule(hit: RuleHit, sf: SourceFile, tests: set[str]) -> SecurityFinding:
    """A tree-sitter rule hit (committed secret, clone into the working directory)."""
    test = sf.path in tests
    line = hit.line
    confirmed, reason = False, "a pattern worth a look; no attacker data was traced to it"
    if hit.rule == "hardcoded_secret":
        value = hit.value[1:-1] if hit.value is not None else ""
        confirmed = not test and looks_secret(value)
        reason = "a literal secret-looking value is committed to the source" if confirmed \
            else "in test code or not secret-looking"
    return SecurityFinding(
        rule_id=f"courtroom/{hit.rule.replace('_', '-')}",
        name="hardcoded credentials" if hit.rule == "hardcoded_secret" else
        "clone into the working directory", cwe=hit.cwe,
        severity=_SEVERITY.get(hit.severity, "MEDIUM"),  # type: ignore[arg-type]
        precision="medium" if confirmed else "low", path=sf.path, line=line,
        column=hit.column, message=redact(_line(sf, line)),
        confirmed=confirmed, in_test=test, reason=reason, tools=["tree-sitter"])


def combine(flows: list[Flow], bandit: list[Finding], hits: list[tuple[RuleHit, SourceFile]],
            files: dict[str, SourceFile], tests: set[str]) -> list[SecurityFinding]:
    """Every finding once: a bandit issue on a traced sink joins that flow's finding
    (``tests``: the paths of ``nonproduction_paths``)."""
    out = [from_flow(f, files.get(f.path), tests) for f in flows]
    traced = {(f.path, f.line, f.rule_id.split("/")[1]): f for f in out}
    credential_lines = set()
    for issue in bandit:
        same = traced.get((issue.path, issue.line, BANDIT_RULE.get(issue.test_id, "")))
        if same is not None:
            same.tools.append(f"bandit {issue.test_id}")
            continue
        if issue.test_id in CREDENTIALS:
            credential_lines.add((issue.path, issue.line))
        out.append(from_bandit(issue, files.get(issue.path), tests))
    for hit, sf in hits:
        if (sf.path, hit.line) not in credential_lines:
            out.append(from_rule(hit, sf, tests))
    return sorted(out, key=lambda f: (not f.confirmed, f.path, f.line, f.column, f.rule_id))


def nonproduction_paths(files: dict[str, SourceFile]) -> set[str]:
    """Paths of test, fixture and example code whose findings are reported, never confirmed.

    The folder or file name proposes it; an import from production code overrules it,
    because a module production code imports runs in production (``app/examples/x.py``
    imported by ``app/main.py`` is production code, whatever its folder is called).
    """
    named = {path for path in files if is_test_path(path)}
    if not named:
        return named  # nothing to overrule: no file's imports need reading
    by_module = {module_name(path): path for path in named}
    used = {by_module[name] for path, sf in files.items() if path not in named
            for name in _imported(sf)
            if name in by_module}
    return named - used


def _imported(sf: SourceFile) -> set[str]:
    """Every dotted module name a file's import statements may load (read from its syntax
    tree, so an import written inside a string or a docstring loads nothing)."""
    names: set[str] = set()
    found = captures("imports", sf.root)
    for node in found.get("import", []):
        for child in node.named_children:
            target = child.child_by_field_name("name") if child.type == "aliased_import" \
                else child
            names.update(_prefixes(sf.text(target)) if target is not None else ())
    for node in found.get("import.from", []):
        module_node = node.child_by_field_name("module_name")
        if module_node is None:
            continue
        root = absolute_module(sf.path, sf.text(module_node))
        names.update(_prefixes(root))
        for child in node.named_children:
            member = child.child_by_field_name("name") if child.type == "aliased_import" \
                else child if child.type == "dotted_name" and child != module_node else None
            if member is not None:
                names.add(f"{root}.{sf.text(member)}".strip("."))
    return names


def _prefixes(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[: i + 1]) for i in range(len(parts)) if parts[0]}
