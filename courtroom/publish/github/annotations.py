"""Located findings as check-run annotations or, without write access, workflow commands.

A finding is an evidence item with a ``path:line`` location in the repository that matters
to the verdict: a confirmed security fact, a fact cited in a weak criterion, or one cited
as missing. PDF pages and commit shas cannot be annotated on a diff, so they are skipped.

Annotation text is plain text, not Markdown, and comes from the submission (file names,
excerpts) and the models: :func:`plain` drops control and bidi characters and turns the
``@`` of a mention into a full-width one, so no annotation can notify anyone or hide text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from courtroom.models import SECURITY_TAG, Verdict
from courtroom.publish.protocol import Annotation
from courtroom.render.text import md_line
from courtroom.untrusted import defuse

_LOCATION = re.compile(
    r"^(?P<path>[^\s:]+\.[^\s:/]+|[^\s:]+/[^\s:]+):(?P<line>\d+)(?:-(?P<end>\d+))?$"
)
LEVEL_ORDER = {"failure": 0, "warning": 1, "notice": 2}
MAX_ANNOTATIONS = 500  # ten requests; beyond this a reader scrolls past them anyway
MAX_WORKFLOW_COMMANDS = 50  # the runner shows only 10 errors + 10 warnings per step
_MENTION = re.compile(r"@(?=[A-Za-z0-9])")
FULL_WIDTH_AT = "\uff20"  # looks like @, mentions no one, survives any plain-text copy


def plain(text: str) -> str:
    """Untrusted text made one inert line for a plain-text surface.

    Control, format (bidi overrides, zero-width) and unpaired surrogate characters go and
    whitespace runs become one space (the render layer's ``md_line``); ``@name`` and
    ``@org/team`` get a full-width at sign, as the render layer writes them in code spans,
    because annotations are not Markdown and an entity would show as text.
    """
    return _MENTION.sub(FULL_WIDTH_AT, md_line(text))


def as_api(annotation: Annotation) -> dict[str, str | int]:
    """The JSON object the Checks API takes in ``output.annotations``."""
    return {
        "path": annotation.path,
        "start_line": annotation.start_line,
        "end_line": annotation.end_line,
        "annotation_level": annotation.level,
        "title": annotation.title[:255],
        "message": annotation.message[:8000],  # GitHub allows 64 KB; a note needs far less
    }


def parse_location(location: str) -> tuple[str, int, int] | None:
    """``path:line`` or ``path:start-end`` in the repository, else None."""
    match = _LOCATION.match(location.strip())
    if not match or match.group("path").startswith(("pdf", "/")):
        return None
    start = int(match.group("line"))
    end = int(match.group("end") or start)
    if start < 1:
        return None
    return match.group("path"), start, max(start, end)


def findings(verdict: Verdict) -> list[Annotation]:
    """Annotations for the located findings of a verdict, most severe first."""
    cited_in: dict[str, list[tuple[str, int]]] = {}
    for result in verdict.criteria:
        for opinion in result.opinions:
            for cid in opinion.cited_evidence:
                names = cited_in.setdefault(cid, [])
                if (result.name, result.final_score) not in names:
                    names.append((result.name, result.final_score))
    out: list[Annotation] = []
    for ev in verdict.evidences.values():
        place = parse_location(ev.location)
        criteria = cited_in.get(ev.id, [])
        security = ev.found and SECURITY_TAG in ev.tags
        if place is None or not (security or criteria):
            continue
        weakest = min((score for _, score in criteria), default=5)
        level = "failure" if security else "warning" if (weakest <= 2 or not ev.found) else "notice"
        about = ", ".join(f"{name} ({score}/5)" for name, score in criteria) or "security review"
        state = "found" if ev.found else "not found"
        fix = f" Fix: {ev.fix}" if ev.fix else ""
        message = plain(f"{ev.goal} — {state}. {ev.rationale}{fix}") + (
            f"\nRelevant to: {plain(about)}.")
        title = plain(f"Courtroom: {ev.goal}")
        out.append(Annotation(place[0], place[1], place[2], level, title, message))
    out.sort(key=lambda a: (LEVEL_ORDER[a.level], a.path, a.start_line, a.title))
    return out[:MAX_ANNOTATIONS]


def batches(items: list[Annotation], size: int = 50) -> Iterator[list[Annotation]]:
    """Slices of at most ``size``: the Checks API takes 50 annotations per request."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def escape_data(text: str) -> str:
    """Escape a workflow-command message (GitHub's rules: %, CR, LF).

    ``##[`` is defused too: the runner's legacy parser looks for it anywhere in a line, and
    no escape of GitHub's covers it (``courtroom.untrusted.defuse``).
    """
    escaped = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return defuse(escaped, opening=False)


def escape_property(text: str) -> str:
    """Escape a workflow-command property value (also ``:`` and ``,``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(annotation: Annotation) -> str:
    """``::error file=...,line=...::message`` for the runner to turn into an annotation."""
    command = {"failure": "error", "warning": "warning", "notice": "notice"}[annotation.level]
    props = {
        "file": annotation.path,
        "line": str(annotation.start_line),
        "endLine": str(annotation.end_line),
        "title": annotation.title[:255],
    }
    joined = ",".join(f"{k}={escape_property(v)}" for k, v in props.items())
    return f"::{command} {joined}::{escape_data(annotation.message)}"


def workflow_commands(items: list[Annotation], limit: int = MAX_WORKFLOW_COMMANDS) -> list[str]:
    """Commands for the most severe findings, with a notice when some were left out."""
    lines = [workflow_command(a) for a in items[:limit]]
    if len(items) > limit:
        rest = len(items) - limit
        lines.append(f"::notice::{escape_data(f'{rest} more findings are listed in report.md.')}")
    return lines
