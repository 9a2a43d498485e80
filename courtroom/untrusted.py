"""Text a submission or a model controls, made inert before it is kept or shown.

One helper per job: :func:`clip` strips control and bidi characters and caps the length;
:func:`one_line` also squeezes whitespace. Markdown escaping for rendered output is a
different job (``courtroom.render.text``), and so is the judges' envelope, which keeps a
visible truncation marker for the model (``courtroom.judges.envelope``).
"""

from __future__ import annotations

import re

#: Control characters (newline and tab excepted) and the bidi embeddings/isolates that
#: can make text read differently from what it is.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def clip(text: str, limit: int = 300) -> str:
    """Hostile text as inert data: control and bidi characters removed, length capped."""
    cleaned = CONTROL.sub("", text)
    if len(cleaned) <= limit:
        return cleaned
    return cleaned[: max(0, limit - 1)].rstrip() + "…"


def one_line(text: str, limit: int = 120) -> str:
    """Hostile text squeezed onto one line, capped."""
    return clip(" ".join(text.split()), limit)
