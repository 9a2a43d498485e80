"""The checks that hold a number against a bound, and the security filter.

``count`` measures the tree (files matching a glob, test functions, tests per module,
functions over a size), ``git`` counts the commits touching a glob, and ``security`` keeps
the confirmed findings of the listed CWEs from the one security scan of the audit.
"""

from __future__ import annotations

from courtroom.checks import CountCheck, GitCheck, SecurityCheck
from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.checks.facts import CONFIDENCE, MAX_FACTS, checks_of, declared, hit, miss
from courtroom.detectives.common import REPO
from courtroom.detectives.generic import measures
from courtroom.detectives.repo.workspace import Workspace, run_git
from courtroom.detectives.security.detective import scan
from courtroom.models import SECURITY_TAG, Evidence
from courtroom.tree_paths import Globs

#: How sure "no finding" is when the scan left files unexamined: below the judges' WEAK
#: bound, so no lens credits it in full.
UNPROVEN = 0.5
#: Commits the git check reads, newest first.
MAX_COMMITS = 5_000


def _measure(ws: Workspace, check: CountCheck) -> tuple[float, list[str]]:
    """The number a count check measures, and the places behind it (first ones first)."""
    if check.measure == "files":
        wanted = Globs([check.glob or ""])
        files = [rel for rel in ws.files() if wanted(rel)]
        return len(files), files
    if check.measure == "long_functions":
        long = measures.long_functions(ws, check.lines)
        return len(long), [f"{f.location} {f.name} ({f.lines} lines)" for f in long]
    tests = measures.test_functions(ws)
    places = [f"{f.location} {f.name}" for f in tests]
    if check.measure == "test_functions":
        return len(tests), places
    return round(measures.tests_per_module(ws), 2), places


@detective("check_count", produces=declared("count"))
def count_checks(case: Case) -> list[Evidence]:
    """One fact per count check: the number, the bound, and the first places counted."""
    out: list[Evidence] = []
    for criterion, check in checks_of(case, CountCheck):
        value, places = _measure(case.workspace, check)
        detail = (f"{check.measure} = {value:g} ({check.bound} wanted)"
                  + (f"; e.g. {', '.join(places[:5])}" if places else ""))
        where = places[0].split(" ")[0] if places else "."
        fact = hit if check.holds(value) else miss
        out.append(fact("check_count", criterion, check, location=where, detail=detail))
    return out


def _touching(ws: Workspace, glob: str) -> list[str] | None:
    """The commits (newest first) changing a path the glob matches; None without history."""
    raw = run_git(ws.root, "log", f"--max-count={MAX_COMMITS}", "--no-color", "--name-only",
                  "--no-renames", "-z", "--format=%x1e%H", "HEAD", timeout=60)
    if raw is None:
        return None
    wanted = Globs([glob])
    shas: list[str] = []
    for record in raw.split("\x1e")[1:]:
        sha, _, names = record.partition("\x00")
        if any(wanted(name.strip("\n")) for name in names.split("\x00") if name.strip("\n")):
            shas.append(sha.strip())
    return shas


@detective("check_git", produces=declared("git"))
def git_checks(case: Case) -> list[Evidence]:
    """One fact per git check: how many commits touched the glob, against the bound."""
    out: list[Evidence] = []
    for criterion, check in checks_of(case, GitCheck):
        shas = _touching(case.workspace, check.glob)
        if shas is None:
            out.append(miss("check_git", criterion, check, "the tree has no readable git "
                            "history"))
            continue
        detail = (f"{len(shas)} commit(s) touch {check.glob} ({check.bound} wanted)"
                  + (f"; latest {shas[0][:12]}" if shas else ""))
        fact = hit if check.holds(len(shas)) else miss
        out.append(fact("check_git", criterion, check, location=shas[0] if shas else ".",
                        detail=detail))
    return out


@detective("check_security", produces=(*declared("security"), Produces(
    SECURITY_TAG, REPO, "a confirmed finding a rubric's security check found, when its hit is "
    "adverse (it can cap the criterion)")))
def security_checks(case: Case) -> list[Evidence]:
    """Each confirmed finding of the listed CWEs, located; the fact that there is none."""
    checks = checks_of(case, SecurityCheck)
    report = scan(case.workspace) if checks else None
    findings = [f for f in (report.findings if report else []) if f.confirmed]
    out: list[Evidence] = []
    for criterion, check in checks:
        chosen = [f for f in findings if not check.cwe or f.cwe in check.cwe]
        cwes = ", ".join(f"CWE-{c}" for c in check.cwe) or "any CWE"
        if not chosen:
            gaps = f" ({len(report.not_examined)} file(s) not examined)" \
                if report and report.not_examined else ""
            # Files the scan could not read may hide a finding: the absence is not proven.
            out.append(miss("check_security", criterion, check,
                            f"no confirmed finding of {cwes}{gaps}",
                            confidence=UNPROVEN if gaps else CONFIDENCE))
            continue
        tags = (SECURITY_TAG,) if check.hit == "adverse" else ()
        out += [hit("check_security", criterion, check, f"{f.path}:{f.line}",
                    f"confirmed {f.name} (CWE-{f.cwe}, {f.rule_id}): {f.message}", tags)
                for f in chosen[:MAX_FACTS]]
    return out
