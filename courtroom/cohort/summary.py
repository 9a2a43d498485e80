"""One small record per submission, and the cohort summary built from them.

Workers hand back a ``SubmissionResult`` (a few hundred bytes), never a whole verdict, so
the batch's memory does not grow with the cohort. Each record is also stored as
``submission.json`` in its folder: merging shards reads those files, and the summary
depends only on them and the manifest order, so a merge equals an unsharded run.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from courtroom.models import Verdict
from courtroom.render.text import code, neutralise

RECORD_FILE = "submission.json"
Status = Literal["ok", "failed"]


@dataclass
class SubmissionResult:
    """What the cohort summary needs to know about one audited (or failed) submission."""

    index: int
    name: str
    repo: str
    status: Status
    commit: str | None = None
    overall_score: float | None = None
    conclusion: str | None = None
    scores: dict[str, int] = field(default_factory=dict)
    criteria: dict[str, str] = field(default_factory=dict)  # id -> name, rubric order
    mistrials: int = 0
    errors: int = 0
    failure: str | None = None
    resumed: bool = False
    seconds: float = 0.0

    @classmethod
    def from_verdict(cls, index: int, name: str, repo: str, verdict: Verdict) -> SubmissionResult:
        """Condense a verdict to its summary row."""
        return cls(
            index=index,
            name=name,
            repo=repo,
            status="ok",
            commit=verdict.target.commit,
            overall_score=verdict.overall_score,
            conclusion=verdict.conclusion,
            scores={c.criterion_id: c.final_score for c in verdict.criteria},
            criteria={c.criterion_id: c.name for c in verdict.criteria},
            mistrials=sum(1 for c in verdict.criteria if c.court and c.court.path == "mistrial"),
            errors=len(verdict.errors),
        )

    def save(self, folder: Path) -> None:
        """Write ``submission.json`` into the submission's folder."""
        folder.mkdir(parents=True, exist_ok=True)
        # No sort_keys: ``criteria`` keeps the rubric order that the summary columns follow.
        text = json.dumps(asdict(self), indent=2) + "\n"
        (folder / RECORD_FILE).write_text(text, encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> SubmissionResult | None:
        """Read a stored record; None when missing or unreadable."""
        try:
            data = json.loads((folder / RECORD_FILE).read_text(encoding="utf-8"))
            return cls(**data)
        except (OSError, ValueError, TypeError):
            return None


def criteria_columns(results: list[SubmissionResult]) -> dict[str, str]:
    """Criterion id -> name over all results, in the order the rubric lists them."""
    columns: dict[str, str] = {}
    for result in sorted(results, key=lambda r: r.index):
        for cid, name in result.criteria.items():
            columns.setdefault(cid, name)
    return columns


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def cohort_csv(results: list[SubmissionResult]) -> str:
    """One row per submission, one column per criterion; stable for equal inputs."""
    columns = criteria_columns(results)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    head = ["name", "repo", "commit", "status", "overall_score", "conclusion"]
    writer.writerow([*head, *columns, "mistrials", "errors", "failure"])
    for r in sorted(results, key=lambda r: r.index):
        text = [r.name, r.repo, r.commit or "", r.status]
        writer.writerow(
            [_inert(t) for t in text] + [_fmt(r.overall_score), r.conclusion or ""]
            + [r.scores.get(cid, "") for cid in columns]
            + [r.mistrials, r.errors, _inert(r.failure or "")]
        )
    return buffer.getvalue()


#: What a spreadsheet reads as the start of a formula in a cell.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _inert(text: str) -> str:
    """A text cell a spreadsheet shows as text: a leading formula character gets a quote
    (an error message or a repository name can start with one)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def _cell(text: str) -> str:
    return neutralise(text, cell=True)


def cohort_markdown(results: list[SubmissionResult], title: str = "Cohort audit") -> str:
    """A readable summary: totals, per-criterion means, the table, then the failures."""
    ordered = sorted(results, key=lambda r: r.index)
    ok = [r for r in ordered if r.status == "ok"]
    failed = [r for r in ordered if r.status == "failed"]
    columns = criteria_columns(ordered)
    lines = [f"# {title}", ""]
    lines.append(f"{len(ordered)} submissions: {len(ok)} audited, {len(failed)} failed.")
    scores = [r.overall_score for r in ok if r.overall_score is not None]
    if scores:
        lines.append(
            f"Overall score: mean {statistics.fmean(scores):.2f}, "
            f"median {statistics.median(scores):.2f}, min {min(scores):.2f}, "
            f"max {max(scores):.2f}."
        )
        counts = {c: sum(1 for r in ok if r.conclusion == c) for c in ("success", "neutral")}
        counts["failure"] = sum(1 for r in ok if r.conclusion == "failure")
        lines.append(", ".join(f"{k}: {v}" for k, v in counts.items()) + ".")
    if columns and ok:
        lines += ["", "## Criteria, weakest first", "", "| criterion | mean | 1-2 | 4-5 |"]
        lines.append("|---|---|---|---|")
        means = []
        for cid, name in columns.items():
            values = [r.scores[cid] for r in ok if cid in r.scores]
            if values:
                means.append((statistics.fmean(values), cid, name, values))
        for mean, _cid, name, values in sorted(means):
            low = sum(1 for v in values if v <= 2)
            high = sum(1 for v in values if v >= 4)
            lines.append(f"| {_cell(name)} | {mean:.2f} | {low} | {high} |")
    lines += ["", "## Submissions", ""]
    header = ["submission", "score", "conclusion", *columns, "mistrials", "errors"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for r in ordered:
        cells = [f"[{_cell(r.name)}]({r.name}/report.md)" if r.status == "ok" else _cell(r.name)]
        cells += [_fmt(r.overall_score) or "—", r.conclusion or "**failed**"]
        cells += [str(r.scores.get(cid, "—")) for cid in columns]
        cells += [str(r.mistrials), str(r.errors)]
        lines.append("| " + " | ".join(cells) + " |")
    if failed:
        lines += ["", "## Failed submissions", ""]
        lines += [
            f"- **{_cell(r.name)}** ({code(r.repo)}): {_cell(r.failure or '')}" for r in failed
        ]
    if columns:
        lines += ["", "Criteria: " + ", ".join(f"`{cid}` = {n}" for cid, n in columns.items())]
    return "\n".join(lines) + "\n"


def write_summary(out_dir: Path, results: list[SubmissionResult]) -> dict[str, Path]:
    """Write cohort.csv and cohort.md into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "cohort.csv", "markdown": out_dir / "cohort.md"}
    paths["csv"].write_text(cohort_csv(results), encoding="utf-8")
    paths["markdown"].write_text(cohort_markdown(results), encoding="utf-8")
    return paths
