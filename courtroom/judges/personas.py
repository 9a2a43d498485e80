"""The three judge personas: their prompt texts, rendered from Jinja files in templates/prompts.

A persona's prompt is the shared task block (``system.j2``) plus its own philosophy block
(``philosophy_<persona>.j2``) and the rubric's guidance for that seat. On the wire the
shared task block is the API ``system`` parameter and the persona block comes after the
criterion's evidence, so the three personas share one cacheable prefix (see envelope.py).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import jinja2

from courtroom.errors import RenderError
from courtroom.models import JudgeName
from courtroom.resources import templates_dir
from courtroom.rubric import Criterion

#: File stem of each persona's philosophy block.
PHILOSOPHY_FILES: dict[JudgeName, str] = {
    "Prosecutor": "philosophy_prosecutor.j2",
    "Defense": "philosophy_defense.j2",
    "TechLead": "philosophy_techlead.j2",
}

#: Which judicial_logic field of a criterion speaks to which persona.
GUIDANCE_FIELDS: dict[JudgeName, str] = {
    "Prosecutor": "prosecutor",
    "Defense": "defense",
    "TechLead": "tech_lead",
}


@lru_cache(maxsize=4)
def _environment(root: str) -> jinja2.Environment:
    # Prompts are plain text, not HTML: no autoescaping. StrictUndefined turns a typo in a
    # template into an error instead of a silently empty prompt.
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(root) / "prompts")),
        autoescape=False,  # noqa: S701 - plain-text prompts, never rendered as HTML
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        trim_blocks=False,
    )


def render(name: str, **context: object) -> str:
    """Render one prompt template by file name; raise RenderError when it cannot."""
    try:
        template = _environment(str(templates_dir())).get_template(name)
        return template.render(**context).strip()
    except jinja2.TemplateError as exc:
        raise RenderError(f"prompt template {name}: {exc}") from exc


def task_block() -> str:
    """The shared task block every persona receives (the API system prompt)."""
    return render("system.j2")


def philosophy(persona: JudgeName) -> str:
    """The persona's own philosophy block, alone (what the similarity test compares)."""
    return render(PHILOSOPHY_FILES[persona])


def guidance(persona: JudgeName, criterion: Criterion) -> str | None:
    """The rubric's judicial_logic text for this persona on this criterion, if any."""
    logic = criterion.judicial_logic
    if logic is None:
        return None
    value = getattr(logic, GUIDANCE_FIELDS[persona], None)
    return value.strip() if isinstance(value, str) and value.strip() else None


def persona_block(persona: JudgeName, criterion: Criterion) -> str:
    """The persona-specific instruction placed after the shared evidence."""
    return render(
        "persona.j2",
        philosophy_template=PHILOSOPHY_FILES[persona],
        guidance=guidance(persona, criterion),
        criterion=criterion,
    )


def criterion_block(criterion: Criterion, count: int, left_out: int = 0,
                    changes: int = 0) -> str:
    """The criterion's rubric text (shared by the three personas of a criterion); ``changes``
    of the items, shown first, are hunks of the change under review."""
    return render("criterion.j2", criterion=criterion, count=count, left_out=left_out,
                  changes=changes)


def hearing_block(round_number: int) -> str:
    """The instruction that opens a hearing round (the peers follow as data)."""
    return render("hearing.j2", round=round_number)


def retry_block(problem: str) -> str:
    """What the model is told after an answer that did not validate."""
    return render("retry.j2", problem=problem)


def system_prompt(persona: JudgeName, criterion: Criterion) -> str:
    """The persona's whole instruction text: shared task block + its own seat block."""
    return task_block() + "\n\n" + persona_block(persona, criterion)


def prompt_digest(persona: JudgeName, criterion: Criterion) -> str:
    """sha256 of everything the persona is instructed with (a part of the cache key)."""
    text = "\x1e".join(
        (
            system_prompt(persona, criterion),
            criterion_block(criterion, 1),
            criterion_block(criterion, 0),
            criterion_block(criterion, 1, 1),
            hearing_block(1),
        )
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
