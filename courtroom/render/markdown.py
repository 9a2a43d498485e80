"""Render a Verdict as Markdown: the full report, the PR comment and the check-run output.

The report is complete. The comment and the check run must fit GitHub's limits, so they
are rendered at decreasing levels of detail until they fit: long arguments are clipped,
the details of strong criteria fold away first, then the table keeps the weakest rows,
and as a last resort the text is cut with a note. Sizes are counted in UTF-8 bytes,
which is never less than characters, so the limits hold whichever unit GitHub counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import jinja2

from courtroom.errors import RenderError
from courtroom.models import Verdict
from courtroom.render.brief import attention, summary_sentence, top_fixes, verdict_line
from courtroom.render.build import build_view
from courtroom.render.state import COMMENT_MARKER, PreviousAudit, encode_state
from courtroom.render.text import anchor, code, neutralise, printable
from courtroom.render.view import ReportView, short_id
from courtroom.resources import templates_dir

COMMENT_LIMIT = 65536
CHECK_LIMIT = 65535
NO_CLIP = 10**9
SUMMARY_LIMIT = 1024 * 1024  # GitHub's cap on one step's job summary
TRUNCATION_NOTE = (
    "✂️ Cut to fit GitHub's size limit; the full report is in the job summary and report.md."
)


def _cell(value: object, limit: int | None = None) -> str:
    return neutralise(value, limit, cell=True)


def _where(location: object) -> str:
    # "." is how a detective locates a fact about the whole tree; say so in words.
    text = str(location).strip()
    return "*whole repository*" if text in ("", ".", "./") else code(text)


@lru_cache(maxsize=4)
def _environment(folder: str) -> jinja2.Environment:
    env = jinja2.Environment(  # noqa: S701 - Markdown output; free text goes through `text`
        loader=jinja2.FileSystemLoader(folder),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        text=neutralise, cell=_cell, code=code, where=_where, short=short_id, anchor=anchor
    )
    return env


def _render(template: str, **context: Any) -> str:
    try:
        out = _environment(str(templates_dir())).get_template(template).render(**context)
    except jinja2.TemplateError as exc:
        raise RenderError(f"template {template} failed: {exc}") from exc
    # A last pass over the whole output, whatever a template forgot to filter: nothing
    # invisible or controlling. (Paths are scrubbed per value, before neutralising.)
    return printable(re.sub(r"\n{3,}", "\n\n", out), keep="\n")


def size(text: str) -> int:
    """Size as GitHub's limits should count it (UTF-8 bytes, an upper bound on chars)."""
    return len(text.encode("utf-8"))


def _context(view: ReportView) -> dict[str, Any]:
    return {
        "view": view,
        "verdict_line": verdict_line(view),
        "summary": summary_sentence(view),
        "fixes": top_fixes(view),
        "attention": attention(view),
    }


def render_report(verdict: Verdict) -> str:
    """The full Markdown report (report.md)."""
    view = build_view(verdict)
    rows = len(view.evidence)
    return _render("report.md.j2", arg_limit=NO_CLIP, appendix_rows=rows, **_context(view))


def render_summary(verdict: Verdict, limit: int = SUMMARY_LIMIT) -> str:
    """The job summary: the full report, shortened only past GitHub's 1 MiB step limit."""
    report = render_report(verdict)
    if size(report) <= limit:
        return report
    view = build_view(verdict)
    for rows in (200, 50, 0):
        text = _render("report.md.j2", arg_limit=600, appendix_rows=rows, **_context(view))
        if size(text) <= limit:
            return text
    return hard_cut(text, limit)


def hard_cut(text: str, limit: int, note: str = TRUNCATION_NOTE) -> str:
    """Last resort: cut at a line boundary, close an open <details>, add the note."""
    tail = f"\n\n> {note}\n"
    budget = limit - size(tail) - size("\n</details>\n")
    raw = text.encode("utf-8")[: max(0, budget)].decode("utf-8", errors="ignore")
    cut = raw.rsplit("\n", 1)[0] if "\n" in raw else raw
    if cut.count("<details>") > cut.count("</details>"):
        cut += "\n</details>\n"
    return cut + tail


def _levels(view: ReportView) -> list[dict[str, Any]]:
    """Ever smaller renderings; weak, disputed criteria keep their details longest."""
    by_value = sorted(view.criteria, key=lambda c: (c.exact, -len(c.flags), c.id))
    ids = [c.id for c in by_value]
    worth = [c.id for c in by_value if c.score <= 3 or c.flags]
    rows_all = view.criteria
    weakest_rows = [c for c in view.criteria if c.id in set(ids[:30])]
    return [
        {"details": set(ids), "arg_limit": 1200, "rows": rows_all},
        {"details": set(ids), "arg_limit": 400, "rows": rows_all},
        {"details": set(worth), "arg_limit": 300, "rows": rows_all},
        {"details": set(worth[:10]), "arg_limit": 200, "rows": rows_all},
        {"details": set(worth[:3]), "arg_limit": 160, "rows": weakest_rows},
        {"details": set(), "arg_limit": 120, "rows": weakest_rows},
        {"details": set(), "arg_limit": 80, "rows": weakest_rows[:10]},
    ]


def _fit(template: str, view: ReportView, limit: int, extra: dict[str, Any]) -> str:
    text = ""
    for level, opts in enumerate(_levels(view)):
        shown = len(opts["rows"])
        notes = [] if level == 0 else [TRUNCATION_NOTE]
        text = _render(
            template,
            hidden_rows=len(view.criteria) - shown,
            notes=notes,
            **opts,
            **extra,
            **_context(view),
        )
        if size(text) <= limit:
            return text
    return hard_cut(text, limit)


def render_comment(
    verdict: Verdict,
    *,
    previous: PreviousAudit | Verdict | None = None,
    limit: int = COMMENT_LIMIT,
    cache_keys: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The sticky PR comment: marker, score chart, folded details and hidden state.

    ``cache_keys`` (opinion id -> opinion-cache keys) lets the next audit reuse opinions.
    """
    if isinstance(previous, Verdict):
        previous = PreviousAudit.from_verdict(previous)
    view = build_view(
        verdict,
        previous_scores=previous.scores if previous else None,
        previous_overall=previous.overall_score if previous else None,
    )
    state = encode_state(verdict, budget=limit // 3, keys=cache_keys)
    body = _fit("comment.md.j2", view, limit - size(state) - 1, {"marker": COMMENT_MARKER})
    return body.rstrip("\n") + "\n" + state


def check_title(verdict: Verdict) -> str:
    """A one-line title for the check run."""
    weak = sum(1 for c in verdict.criteria if c.final_score <= 2)
    tail = f" · {weak} criteria need work" if weak else ""
    return f"{verdict.overall_score:.2f}/5 · {verdict.conclusion}{tail}"


def render_check_run(verdict: Verdict, limit: int = CHECK_LIMIT) -> tuple[str, str, str]:
    """Title, summary and text of the check run, each within ``limit``."""
    view = build_view(verdict)
    summary = _fit("check_summary.md.j2", view, limit, {})
    text = ""
    for rows in (len(view.evidence), 100, 0):
        text = _fit("check_run.md.j2", view, limit, {"appendix_rows": rows})
        if TRUNCATION_NOTE not in text:
            break
    return check_title(verdict), summary, text
