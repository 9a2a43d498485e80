"""Benchmark: how close offline verdicts come to careful graders on real submissions.

For every git bundle in ``../shared/calibration/submissions`` (relative to the repository
root, or to a folder above it), clone it into a temporary folder, check out the commit
named in ``labels.json``, and audit it offline through the real pipeline with its PDF.
Then print, per submission and criterion, the score beside the graders' band, and overall:

- the share of (submission, criterion) scores inside the band (target >= 90%);
- Spearman's rank correlation between the scores and the band midpoints (target >= 0.8);
- false security caps: the security override firing where the graders' whole band lies
  above the cap (target 0), and each submission's conclusion;
- remediation lines repeated in three or more criteria of one report (target 0);
- criteria scored 3 or less whose fix names no place (`path:line`, a commit or a PDF page)
  (target 0);
- the same share and rho on each half of a fixed split (half A: submissions whose name's
  SHA-256 starts with an even byte; half B: the others), so a rule tuned on one half shows on
  the other; the split depends on the name alone, never on the scores;
- each submission's audit time and the median.

It also checks that the calibration rubric layouts load as they are. Nothing from the
submissions is ever run: git only clones and checks out, with hooks disabled.

    .venv/bin/python bench/accuracy.py [--only NAME] [--keep DIR] [--json FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from courtroom.models import Verdict
from courtroom.pipeline import audit
from courtroom.rubric import load_rubric
from courtroom.settings.config import AuditConfig

ROOT = Path(__file__).resolve().parent.parent

def _calibration() -> Path:
    """``shared/calibration`` beside the checkout (CI's layout), else beside a folder above
    it (a worktree under the project's folder): the first that holds labels."""
    for base in (ROOT.parent, *ROOT.parent.parents):
        found = base / "shared" / "calibration"
        if (found / "labels.json").is_file():
            return found
    return ROOT.parent / "shared" / "calibration"


CALIBRATION = _calibration()
#: A remediation line shared by this many criteria of one report is boilerplate.
REPEAT_LIMIT = 3
NO_REMEDIATION = "No remediation proposed."
#: A fix is placed when it names a file line, a commit or a PDF page (or, with no report
#: given, the `--pdf` input that supplies it).
PLACED = re.compile(r"--pdf\b|`[^`\n]+:\d+`|\bcommit [0-9a-f]{7,40}\b|\b(?:PDF page|pdf:page) \d+")


def half(name: str) -> str:
    """The submission's fixed half: A when its name's SHA-256 starts with an even byte."""
    return "A" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "B"


@dataclass
class Row:
    """One (submission, criterion) score beside its band."""

    submission: str
    criterion: str
    score: int
    low: int
    high: int
    capped: bool
    placed: bool = True

    @property
    def inside(self) -> bool:
        return self.low <= self.score <= self.high

    @property
    def midpoint(self) -> float:
        return (self.low + self.high) / 2


@dataclass
class Outcome:
    """What one submission's audit produced, reduced to the figures."""

    name: str
    conclusion: str
    seconds: float
    rows: list[Row] = field(default_factory=list)
    repeated: list[tuple[str, int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _git(*args: str) -> None:
    # Hooks off and no submodules: a calibration repository never runs anything here.
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", *args], check=True,
                   capture_output=True, text=True, timeout=300)


def checkout(bundle: Path, commit: str, dest: Path) -> Path:
    """Clone a bundle (or reuse a kept clone) and check out the labelled commit."""
    if not (dest / ".git").is_dir():
        _git("clone", "--quiet", "--no-recurse-submodules", str(bundle), str(dest))
    _git("-C", str(dest), "checkout", "--quiet", "--detach", commit)
    return dest


def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rho: Pearson correlation of the ranks (0.0 when either is constant)."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


def repeated_lines(verdict: Verdict) -> list[tuple[str, int]]:
    """Remediation lines that occur in REPEAT_LIMIT or more criteria of one report."""
    seen: Counter[str] = Counter()
    for result in verdict.criteria:
        lines = {re.sub(r"^[-*\s]+", "", line).strip() for line in result.remediation.splitlines()}
        # The chief justice's "nothing proposed" is the absence of advice, not a repeated line.
        seen.update(line for line in lines if line and line != NO_REMEDIATION)
    return sorted((line, n) for line, n in seen.items() if n >= REPEAT_LIMIT)


def audit_one(name: str, label: dict[str, object], work: Path, rubric: Path,
              calibration: Path = CALIBRATION) -> Outcome:
    """Check out one submission and audit it offline with its PDF."""
    repo = checkout(calibration / "submissions" / f"{name}.bundle", str(label["commit"]),
                    work / name)
    pdf = repo / str(label["pdf"])
    config = AuditConfig(target=str(repo), pdf=pdf if pdf.is_file() else None,
                         rubric_path=rubric, out_dir=work / "out" / name, judges="offline",
                         use_cache=False, display_name=name)
    started = time.perf_counter()
    result = audit(config)
    seconds = time.perf_counter() - started
    verdict = result.verdict
    if verdict is None:
        return Outcome(name, f"critical ({result.error})", seconds)
    bands = label["bands"]
    assert isinstance(bands, dict)
    outcome = Outcome(name, verdict.conclusion, seconds, repeated=repeated_lines(verdict),
                      errors=list(verdict.errors))
    for crit in verdict.criteria:
        band = bands.get(crit.criterion_id)
        if band is None:
            continue
        outcome.rows.append(Row(name, crit.criterion_id, crit.final_score, int(band["min"]),
                                int(band["max"]), crit.security_override,
                                bool(PLACED.search(crit.remediation))))
    return outcome


def check_layouts(calibration: Path = CALIBRATION) -> list[str]:
    """Each calibration rubric layout loads as it is (one line each)."""
    lines = []
    for path in sorted(calibration.glob("rubric_*.json")):
        rubric = load_rubric(path)
        lines.append(f"rubric {path.name}: loads, {len(rubric.criteria)} criteria, "
                     f"rules {', '.join(rubric.rules_prose) or 'none'}")
    return lines


def agreement(rows: list[Row]) -> tuple[int, float]:
    """How many rows lie inside their band, and Spearman's rho against the midpoints."""
    inside = sum(r.inside for r in rows)
    rho = spearman([float(r.score) for r in rows], [r.midpoint for r in rows]) if rows else 0.0
    return inside, rho


def report(outcomes: list[Outcome], cap: float = 3.0) -> dict[str, object]:
    """Print the per-criterion table and the totals; return the figures."""
    rows = [r for o in outcomes for r in o.rows]
    for o in outcomes:
        print(f"\n## {o.name} (half {half(o.name)}): conclusion {o.conclusion}, "
              f"{o.seconds:.1f} s")
        for r in o.rows:
            mark = "ok  " if r.inside else "MISS"
            print(f"  {mark} {r.criterion:32} score {r.score}  band {r.low}-{r.high}"
                  + ("  [security cap]" if r.capped else "")
                  + ("" if r.placed or r.score > 3 else "  [fix names no place]"))
        for line, n in o.repeated:
            print(f"  repeated remediation ({n} criteria): {line[:110]}")
        for err in o.errors:
            print(f"  error: {err[:140]}")
    inside, rho = agreement(rows)
    unplaced = sum(1 for r in rows if r.score <= 3 and not r.placed)
    halves = {}
    for name in ("A", "B"):
        part = [r for r in rows if half(r.submission) == name]
        got, part_rho = agreement(part)
        halves[name] = {"scores": len(part), "in_band": got,
                        "share_in_band": round(got / len(part), 3) if part else 0.0,
                        "spearman": round(part_rho, 3)}
    seconds = [o.seconds for o in outcomes]
    false_caps = [r for r in rows if r.capped and r.low > cap]
    repeats = sum(len(o.repeated) for o in outcomes)
    figures = {"scores": len(rows), "in_band": inside,
               "share_in_band": round(inside / len(rows), 3) if rows else 0.0,
               "spearman": round(rho, 3), "false_caps": len(false_caps),
               "repeated_remediation_lines": repeats, "unplaced_fixes": unplaced,
               "halves": halves,
               "median_seconds": round(statistics.median(seconds), 2) if seconds else 0.0,
               "conclusions": {o.name: o.conclusion for o in outcomes}}
    print(f"\nin band: {inside}/{len(rows)} ({figures['share_in_band']:.0%}); "
          f"Spearman rho vs band midpoints: {rho:.3f}; false security caps: "
          f"{len(false_caps)}; remediation lines in {REPEAT_LIMIT}+ criteria: {repeats}")
    for name, part in halves.items():
        print(f"half {name}: in band {part['in_band']}/{part['scores']} "
              f"({part['share_in_band']:.0%}); Spearman rho {part['spearman']:.3f}")
    print(f"criteria scored 3 or less whose fix names no place: {unplaced}")
    if seconds:
        print(f"audit time per submission: median {statistics.median(seconds):.1f} s, "
              f"max {max(seconds):.1f} s")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="audit only this submission")
    parser.add_argument("--rubric", type=Path, default=ROOT / "rubric.json")
    parser.add_argument("--keep", type=Path, help="keep clones and reports in this folder")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--calibration", type=Path, default=CALIBRATION,
                        help="the calibration folder (labels.json, submissions/)")
    args = parser.parse_args(argv)
    labels = json.loads((args.calibration / "labels.json").read_text(encoding="utf-8"))
    names = [n for n in sorted(labels) if not args.only or n in args.only]
    for line in check_layouts(args.calibration):
        print(line)
    with tempfile.TemporaryDirectory(prefix="courtroom-accuracy-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        outcomes = [audit_one(n, labels[n], work, args.rubric, args.calibration)
                    for n in names]
    figures = report(outcomes)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
