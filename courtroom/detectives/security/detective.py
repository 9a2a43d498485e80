"""The security detective: a taint engine to confirm, bandit for breadth, full coverage.

Only a **confirmed** finding (attacker data shown to reach the sink, or an unsafe setting in
production code) carries the ``security`` tag that drives the chief justice's security cap.
Every finding, confirmed or not, goes into the verdict's ``security`` section and the SARIF
file. Whatever the interpreter could run as Python is examined as the interpreter would read
it (``*.wsgi``, a ``run.cgi`` with a Python shebang, a file declaring ``# coding: utf-7``)
or named with the reason it could not be (NUL bytes, a Git LFS pointer, bytecode without
its source): that list carries the ``scan_incomplete`` tag, so the gate fails closed instead
of passing on a partial scan.
"""

from __future__ import annotations

from courtroom.detectives.base import Case, Detected, declares, detective
from courtroom.detectives.common import REPO, SCAN_INCOMPLETE, make
from courtroom.detectives.parsing import (
    MAX_PARSE_BYTES,
    SourceFile,
    SourceIndex,
    TreeCache,
    parse_bytes,
    source_index,
)
from courtroom.detectives.repo.listing import ZIPAPP_SUFFIXES, bytecode_without_source
from courtroom.detectives.repo.workspace import Workspace, python_source
from courtroom.detectives.security.report import combine, nonproduction_paths
from courtroom.detectives.security.rules import clone_into_cwd, hardcoded_secrets
from courtroom.detectives.security.scanner import start_scan
from courtroom.detectives.security.taint import Engine, Flow, pins, templates
from courtroom.detectives.security.taint.program import module_name
from courtroom.detectives.shared import per_workspace
from courtroom.findings import SecurityFinding, SecurityReport
from courtroom.models import SECURITY_TAG, Evidence
from courtroom.untrusted import one_line

NAME = "security"
#: Unconfirmed hints shown to the judges as evidence; all of them stay in the verdict's
#: ``security`` section and in findings.sarif, and the summary says how many there are.
MAX_HINTS = 40


def examined(ws: Workspace, index: SourceIndex) -> SourceIndex:
    """The parsed files as the interpreter reads them, plus every other file it could run
    as Python; what cannot be examined is listed with the reason, never dropped."""
    parsed = {sf.path: sf for sf in index.files}
    reported = {rel for rel, _ in index.unexamined}
    paths = sorted({*parsed, *index.skipped, *ws.python_files()} - reported)
    files: list[SourceFile] = []
    missed = [(rel, "compiled Python without its source beside it: the interpreter can "
                    "import or run it, and bytecode is not examined")
              for rel in bytecode_without_source(ws.files())]
    missed += [(rel, "a zip application: the interpreter runs what it holds, which is not "
                     "examined") for rel in ws.files(ZIPAPP_SUFFIXES)]
    for rel in paths:
        sf = parsed.get(rel)
        data = sf.source if sf else ws.read_bytes(rel, limit=MAX_PARSE_BYTES)
        source = f"unreadable or over the {MAX_PARSE_BYTES:,}-byte limit" if data is None \
            else python_source(data)
        if isinstance(source, str):
            missed.append((rel, source))
        else:
            files.append(sf if sf and source is data else parse_bytes(rel, source))
    return SourceIndex(files, index.skipped, len(paths) + len(reported),
                       sorted([*index.unexamined, *missed]))


def text_files(ws: Workspace) -> dict[str, str]:
    """The repository's templates and dependency files by path: a view's ``|safe`` is read
    in the template it renders, a library's defaults in the version the code pins."""
    out: dict[str, str] = {}
    for rel in ws.files():
        if rel.endswith(templates.SUFFIXES) or pins.MANIFESTS.search(rel):
            data = ws.read_bytes(rel)
            if data is not None:
                out[rel] = data.decode("utf-8", "replace")
    return out


def _taint(files: list[SourceFile],
           texts: dict[str, str]) -> tuple[list[Flow], dict[str, str]]:
    """Taint flows in every file, and the files whose analysis could not finish.

    The engine knows a module by its dotted name, which two files can share (``x.py`` and
    ``x/__init__.py``, ``app/wsgi.py`` and ``app.wsgi``): the first would shadow the
    other's top level. Each further file of a shared name is analysed in another run,
    beside every file whose name is unique, so none goes unexamined.
    """
    named: dict[str, list[SourceFile]] = {}
    for sf in files:
        named.setdefault(module_name(sf.path), []).append(sf)
    unique = [group[0] for group in named.values() if len(group) == 1]
    shared = [group for group in named.values() if len(group) > 1]
    flows: dict[tuple[str, int, int, str], Flow] = {}
    unfinished: dict[str, str] = {}
    for layer in range(max((len(group) for group in shared), default=1)):
        run = [*unique, *(group[layer] for group in shared if layer < len(group))]
        engine = Engine(sorted(run, key=lambda sf: sf.path), texts)
        for flow in engine.run():
            flows.setdefault((flow.path, flow.line, flow.column, flow.rule), flow)
        unfinished.update(engine.unfinished)
    return sorted(flows.values(), key=lambda f: (f.path, f.line, f.column, f.rule)), unfinished


def build_report(index: SourceIndex, texts: dict[str, str] | None = None, *,
                 release: TreeCache | None = None) -> SecurityReport:
    """Scan a parsed repository (with its templates and dependency files, by path): taint
    flows, bandit issues and tree-sitter rules. ``release``: nothing else reads the index
    (a base commit's scan), so its trees go into this cache before the taint analysis, as
    the runner has them released when the security detective is the last one running."""
    files = {sf.path: sf for sf in index.files}
    pending = start_scan([(sf.path, sf.source) for sf in index.files])
    # What reads every file's tree runs before the taint analysis, while the trees are most
    # likely still held: after it, a large repository's would be parsed again.
    hits = [(hit, sf) for sf in index.files
            for hit in (*clone_into_cwd(sf), *hardcoded_secrets(sf))]
    tests = nonproduction_paths(files)
    if release is not None:
        index.release(release)
    flows, unfinished = _taint(index.files, texts or {})
    result = pending()
    findings = combine(flows, result.findings, hits, files, tests)
    confirmed = sum(f.confirmed for f in findings)
    return SecurityReport(
        files_examined=len(index.files), bandit_scanned=result.scanned,
        tree_sitter_only=[f"{path}: {why}" for path, why in result.skipped],
        not_examined=[f"{path}: {why}" for path, why in
                      (*index.unexamined, *sorted(unfinished.items()))],
        confirmed=confirmed, unconfirmed=len(findings) - confirmed, findings=findings)


def finding_evidence(f: SecurityFinding) -> Evidence:
    """The fact a finding becomes (its id is how a finding's fact is found again)."""
    status = "confirmed" if f.confirmed else "unconfirmed"
    tags = (REPO, "tools", SECURITY_TAG if f.confirmed else "security_unconfirmed")
    where = " in test code" if f.in_test else ""
    return make(NAME, f"Security finding: {f.name}", True, f"{f.path}:{f.line}",
                f"{status}{where}: {f.reason}. Reported by {', '.join(f.tools)} "
                f"(CWE-{f.cwe}, severity {f.severity}).",
                0.9 if f.confirmed else 0.6, tags,
                content=f"[{status}] {f.name} | CWE-{f.cwe} | severity {f.severity} | "
                        f"{f.rule_id} | {one_line(f.message, 160)}",
                direction="adverse" if f.confirmed else "context")


def _summary(report: SecurityReport) -> list[Evidence]:
    shown = min(report.unconfirmed, MAX_HINTS)
    text = (f"The taint engine examined {report.files_examined} Python files and bandit "
            f"scanned {report.bandit_scanned}; {report.confirmed} findings are confirmed "
            f"(attacker data reaches the sink, or an unsafe setting in production code) and "
            f"{report.unconfirmed} are unconfirmed hints ({shown} shown here; all are listed "
            f"in verdict.json's security section and in findings.sarif).")
    if report.tree_sitter_only:
        text += (f" {len(report.tree_sitter_only)} files use syntax bandit cannot parse on "
                 f"this interpreter and were examined by the taint engine only: "
                 f"{'; '.join(report.tree_sitter_only[:5])}.")
    out = [make(NAME, "Security scan of Python sources", True, ".", text, 0.9, (REPO, "tools"),
                content=f"{report.confirmed} confirmed, {report.unconfirmed} unconfirmed, "
                        f"{len(report.not_examined)} files not examined")]
    if report.not_examined:
        out.append(make(
            NAME, "Files the security scan could not examine", True, ".",
            f"{len(report.not_examined)} Python files were not examined, or not to the "
            f"end of every path, so the scan is incomplete: "
            f"{'; '.join(report.not_examined[:10])}.", 0.95,
            (REPO, "tools", SCAN_INCOMPLETE),
            content="; ".join(report.not_examined), direction="adverse"))
    return out


@per_workspace
def scan(ws: Workspace) -> SecurityReport | None:
    """The workspace's security scan, run once however many detectives ask for it (the
    rubric's security checks read it too); None when there is no Python file to scan."""
    index = examined(ws, source_index(ws))
    return build_report(index, text_files(ws)) if index.files or index.unexamined else None


@detective(NAME, produces=declares(REPO, {
    SECURITY_TAG: "a confirmed security finding: attacker data reaches a sink (caps the score)",
    "security_unconfirmed": "a finding with constant input, in test code, or advisory only",
    "tools": "a finding in code that runs tools (every finding carries it)",
    SCAN_INCOMPLETE: "a Python file the scan could not examine: the gate fails closed",
    "missing": "no security finding",
}))
def security(case: Case) -> Detected:
    """Security findings with path:line, CWE, severity and confirmed/unconfirmed status,
    and the scan's whole report for the verdict."""
    report = scan(case.workspace)
    if report is None:
        return Detected([make(NAME, "Security scan of Python sources", False, ".",
                              "No readable Python file to scan.", 0.9,
                              (REPO, "tools", "missing"))])
    confirmed = [finding_evidence(f) for f in report.findings if f.confirmed]
    hints = [finding_evidence(f) for f in sorted(report.findings, key=lambda f: f.in_test)
             if not f.confirmed][:MAX_HINTS]
    return Detected([*_summary(report), *confirmed, *hints], security=report)
