"""Benchmark the security findings on OWASP BenchmarkPython (the half in ../shared/corpus)
and on labelled applications (bench/examples/<app>/ with a labels.json each).

Run: .venv/bin/python bench/security.py [--corpus ../shared/corpus/owasp-python-half-a]
     [--apps bench/examples]

Audits the corpus with the security detective's own scan (taint engine + bandit) and prints,
per category, the share of real vulnerabilities whose file gets a *confirmed* finding of
that category (TPR) and the share of decoys that wrongly get one (FPR), beside bandit alone
on the same files (any issue of a test mapped to the category). Goal, for cmdi, codeinj,
sqli, pathtraver, xss and deserialization together: TPR >= 0.8 and FPR <= 0.1.

Each application is audited as a repository (its templates read too). A label is a place
(path, line, CWE) that is or is not a vulnerability; per application the bench prints the
recall of the vulnerable places (a confirmed taint finding of that CWE on that line) and
the false confirmations (every confirmed taint finding on no vulnerable place), naming each
miss and each false confirmation.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from courtroom.detectives import open_workspace  # noqa: E402
from courtroom.detectives.parsing import source_index  # noqa: E402
from courtroom.detectives.security.detective import (  # noqa: E402
    build_report,
    text_files,
)
from courtroom.detectives.security.scanner import scan_one  # noqa: E402

#: Corpus category -> the taint rule that reports it.
RULES = {"cmdi": "shell-injection", "codeinj": "code-injection", "sqli": "sql-injection",
         "pathtraver": "path-traversal", "xss": "cross-site-scripting",
         "deserialization": "insecure-deserialization", "ldapi": "ldap-injection",
         "xpathi": "xpath-injection", "redirect": "open-redirect",
         "xxe": "xml-external-entities"}
#: Corpus category -> bandit tests that report it (bandit has none for some).
BANDIT = {"cmdi": {"B602", "B603", "B604", "B605", "B606", "B607", "B609"},
          "codeinj": {"B102", "B307"}, "sqli": {"B608"},
          "deserialization": {"B301", "B302", "B506"}, "xss": {"B701", "B702", "B703", "B704"},
          "hash": {"B303", "B324"}, "weakrand": {"B311"},
          "xxe": {"B313", "B314", "B315", "B316", "B317", "B318", "B319", "B320"},
          "xpathi": {"B320"}}
GOAL = ("cmdi", "codeinj", "sqli", "pathtraver", "xss", "deserialization")


def expected(corpus: Path) -> list[tuple[str, str, bool]]:
    """(test name, category, real vulnerability) per case."""
    with (corpus / "expectedresults.csv").open(encoding="utf-8") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].startswith("#")]
    return [(r[0].strip(), r[1].strip(), r[2].strip() == "true") for r in rows]


def confirmed_by_file(corpus: Path) -> tuple[dict[str, set[str]], int, float]:
    """Stem -> taint rules confirmed in it; files examined; seconds."""
    start = time.perf_counter()
    with open_workspace(str(corpus), timeout=60) as ws:
        index = source_index(ws)
        report = build_report(index, text_files(ws))
    out: dict[str, set[str]] = {}
    for f in report.findings:
        if f.confirmed:
            out.setdefault(Path(f.path).stem, set()).add(f.rule_id.split("/")[-1])
    return out, report.files_examined, time.perf_counter() - start


def bandit_by_file(corpus: Path) -> tuple[dict[str, set[str]], int]:
    """Stem -> bandit test ids (every test, nothing ignored); files bandit could not parse."""
    out: dict[str, set[str]] = {}
    unparsed = 0
    for path in sorted((corpus / "testcode").glob("*.py")):
        try:
            issues = scan_one(path.name, path.read_bytes(), ignored=frozenset())
        except (SyntaxError, ValueError):
            unparsed += 1
            continue
        out[path.stem] = {i.test_id for i in issues}
    return out, unparsed


def rates(cases: list[tuple[str, str, bool]], hit: dict[str, bool]) -> tuple[int, int, int, int]:
    """(real, true positives, decoys, false positives)."""
    real = [n for n, _, r in cases if r]
    decoys = [n for n, _, r in cases if not r]
    return len(real), sum(hit[n] for n in real), len(decoys), sum(hit[n] for n in decoys)


def _cell(tp: int, p: int, fp: int, n: int) -> str:
    return f"{tp / p if p else 0:.2f} / {fp / n if n else 0:.2f}"


Place = tuple[str, int, int]


def audit_app(app: Path) -> tuple[dict[Place, str], set[Place], set[Place]]:
    """(vulnerable place -> what it is, confirmed places, places labelled not vulnerable)."""
    labels = json.loads((app / "labels.json").read_text(encoding="utf-8"))
    with open_workspace(str(app), timeout=60) as ws:
        report = build_report(source_index(ws), text_files(ws))
    confirmed = {(f.path, f.line, f.cwe) for f in report.findings
                 if f.confirmed and "taint" in f.tools}
    real = {(lab["path"], lab["line"], lab["cwe"]): lab["what"] for lab in labels
            if lab["vulnerable"]}
    safe = {(lab["path"], lab["line"], lab["cwe"]) for lab in labels if not lab["vulnerable"]}
    return real, confirmed, safe


def print_apps(root: Path) -> None:
    """Per application: recall of the labelled vulnerabilities, false confirmations."""
    print(f"\n{'application':<16} {'labels':>6}   {'recall':>12}   {'false confirmed':>15}")
    found_all = real_all = false_all = 0
    for app in sorted(p for p in root.iterdir() if (p / "labels.json").is_file()):
        real, confirmed, safe = audit_app(app)
        hits, false = confirmed & real.keys(), confirmed - real.keys()
        print(f"{app.name:<16} {len(real) + len(safe):>6}   "
              f"{len(hits):>3}/{len(real):<3} {len(hits) / max(len(real), 1):.2f}   "
              f"{len(false):>15}")
        for place in sorted(real.keys() - confirmed):
            print(f"    missed  {place[0]}:{place[1]} CWE-{place[2]}: {real[place]}")
        for place in sorted(false):
            labelled = " (labelled not vulnerable)" if place in safe else ""
            print(f"    false   {place[0]}:{place[1]} CWE-{place[2]}{labelled}")
        found_all, real_all, false_all = (found_all + len(hits), real_all + len(real),
                                          false_all + len(false))
    print(f"{'together':<16} {'':>6}   {found_all:>3}/{real_all:<3} "
          f"{found_all / max(real_all, 1):.2f}   {false_all:>15}")


def main() -> None:
    """Audit the corpus and the labelled applications and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path,
                        default=HERE.parent.parent / "shared/corpus/owasp-python-half-a")
    parser.add_argument("--apps", type=Path, default=HERE / "examples")
    args = parser.parse_args()
    if args.corpus.is_dir():
        print_corpus(args.corpus)
    else:
        print(f"corpus {args.corpus} not found: only the applications are audited")
    print_apps(args.apps)


def print_corpus(corpus: Path) -> None:
    """The OWASP table: confirmed TPR / FPR per category beside bandit alone."""
    args = argparse.Namespace(corpus=corpus)
    cases = expected(args.corpus)
    ours, examined, seconds = confirmed_by_file(args.corpus)
    bandit, unparsed = bandit_by_file(args.corpus)
    print(f"corpus: {len(cases)} cases; Courtroom examined {examined} files in {seconds:.1f}s; "
          f"bandit could not parse {unparsed} test files on Python "
          f"{sys.version_info.major}.{sys.version_info.minor}")
    print(f"{'category':<16} {'real':>4} {'decoy':>5}   {'confirmed TPR / FPR':>19}   "
          f"{'bandit alone TPR / FPR':>22}")
    totals = {"ours": [0, 0, 0, 0], "bandit": [0, 0, 0, 0]}
    for category in sorted({c for _, c, _ in cases}):
        group = [c for c in cases if c[1] == category]
        mine = {n: RULES.get(category, "") in ours.get(n, set()) for n, _, _ in group}
        theirs = {n: bool(BANDIT.get(category, set()) & bandit.get(n, set()))
                  for n, _, _ in group}
        p, tp, n, fp = rates(group, mine)
        bp, btp, bn, bfp = rates(group, theirs)
        mark = " *" if category in GOAL else ""
        print(f"{category + mark:<16} {p:>4} {n:>5}   {_cell(tp, p, fp, n):>19}   "
              f"{_cell(btp, bp, bfp, bn):>22}")
        if category in GOAL:
            totals["ours"] = [a + b for a, b in zip(totals["ours"], (p, tp, n, fp), strict=True)]
            totals["bandit"] = [a + b for a, b in
                                zip(totals["bandit"], (bp, btp, bn, bfp), strict=True)]
    p, tp, n, fp = totals["ours"]
    bp, btp, bn, bfp = totals["bandit"]
    print(f"{'* together':<16} {p:>4} {n:>5}   {_cell(tp, p, fp, n):>19}   "
          f"{_cell(btp, bp, bfp, bn):>22}")
    met = tp / p >= 0.8 and fp / n <= 0.1
    print(f"goal (confirmed TPR >= 0.8, FPR <= 0.1 on * together): {'MET' if met else 'NOT MET'}")


if __name__ == "__main__":
    main()
