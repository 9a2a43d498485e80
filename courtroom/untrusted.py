"""Text a submission or a model controls, made inert before it is kept or shown.

One helper per job: :func:`clip` strips control and bidi characters and caps the length;
:func:`one_line` also squeezes whitespace; :func:`log_line` makes text one line of a CI log
that no runner reads as a command, and :class:`InertWriter` does that to every line an
entry point prints. Markdown escaping for rendered output is a different job
(``courtroom.render.text``), and so is the judges' envelope, which keeps a visible
truncation marker for the model (``courtroom.judges.envelope``).

GitHub's runner reads a workflow command (``::add-mask::``, ``::stop-commands::``, a
forged ``::error file=...::``) from any line of a step's output that opens with ``::``
after leading whitespace, and its legacy parser from ``##[`` anywhere in a line; a CR is a
line break to it as much as an LF. The defused forms are visibly the same characters in
their full-width shape (``：:``, ``##［``), as mentions get a full-width at sign: a reader
still reads the text, a copy of it still says what it said, and no runner matches it.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, cast

#: Control characters (newline and tab excepted) and the bidi embeddings/isolates that
#: can make text read differently from what it is.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
#: Every character some reader takes for the end of a line.
LINE_BREAK = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
#: What may come before a command's ``::``: whitespace (the runner trims it) and
#: characters a terminal or a log viewer would not show.
_BLANK = r"[\s\x00-\x1f\x7f\u200b-\u200f\u2060\ufeff]*"
_COMMAND_OPENING = re.compile(rf"^({_BLANK}):(?=:)")
#: The start of a line that may still become a command opening.
_UNDECIDED = re.compile(rf"{_BLANK}:?")
_LEGACY = "##["
#: The longest blank run held back at a line's start before it is written out.
HOLD_LIMIT = 1024
SAFE_COLON = "\uff1a"  # full-width colon
SAFE_LEGACY = "##\uff3b"  # ## and a full-width left bracket
_BREAKS = re.compile(r"\r\n?|\n")


def clip(text: str, limit: int = 300) -> str:
    """Hostile text as inert data: control and bidi characters removed, length capped."""
    cleaned = CONTROL.sub("", text)
    if len(cleaned) <= limit:
        return cleaned
    return cleaned[: max(0, limit - 1)].rstrip() + "…"


def one_line(text: str, limit: int = 120) -> str:
    """Hostile text squeezed onto one line, capped."""
    return clip(" ".join(text.split()), limit)


def defuse(line: str, *, opening: bool = True) -> str:
    """One physical line no runner reads as a command (``opening``: it starts a line)."""
    line = line.replace(_LEGACY, SAFE_LEGACY)
    return _COMMAND_OPENING.sub(r"\1" + SAFE_COLON, line) if opening else line


def log_line(text: str) -> str:
    """Text as one inert log line: each line break shown as its escape (``\\n``), then
    defused, so a message quoting a file name or a config key stays one line of ours."""
    return defuse(LINE_BREAK.sub(lambda m: m.group().encode("unicode_escape").decode(), text))


class InertWriter:
    """A text stream that defuses every line written through it, whoever writes it.

    Writes may split a line anywhere (``print`` writes the text, then the newline), so the
    start of a line is held back until it is known not to open a command, and a trailing
    ``#`` until the next character shows it is not ``##[``.
    """

    def __init__(self, stream: TextIO) -> None:
        self.underlying = stream
        self._held = ""
        self._inside = False  # the current line has started and cannot open a command
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self.underlying.write(self._take(self._held + text))
        return len(text)

    def _take(self, text: str) -> str:
        out: list[str] = []
        start = 0
        for match in _BREAKS.finditer(text):
            out.append(defuse(text[start : match.start()], opening=not self._inside))
            out.append(match.group())
            self._inside, start = False, match.end()
        tail = text[start:]
        if not self._inside and _UNDECIDED.fullmatch(tail):
            # Blanks alone decide nothing: past HOLD_LIMIT they go out (all but a colon
            # that may start "::"), the line still undecided, so holding stays linear.
            keep = len(tail) if len(tail) <= HOLD_LIMIT else int(tail.endswith(":"))
            out.append(tail[: len(tail) - keep])
            self._held = tail[len(tail) - keep:]
            return "".join(out)
        hashes = min(2, len(tail) - len(tail.rstrip("#")))
        cut = len(tail) - hashes
        out.append(defuse(tail[:cut], opening=not self._inside))
        self._held, self._inside = tail[cut:], True
        return "".join(out)

    def close_line(self) -> None:
        """Write out what is held (the stream is being given back)."""
        with self._lock:
            held, self._held = self._held, ""
            self.underlying.write(defuse(held, opening=not self._inside))

    def flush(self) -> None:
        self.underlying.flush()

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        # isatty, fileno, encoding...: rich and logging ask the real stream.
        return getattr(self.underlying, name)


@contextmanager
def inert_output(*, stdout: bool = True, stderr: bool = True) -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` (as chosen) defused until the block ends."""
    saved = sys.stdout, sys.stderr
    writers: list[InertWriter] = []
    if stdout:
        writers.append(InertWriter(sys.stdout))
        sys.stdout = cast(TextIO, writers[-1])
    if stderr:
        writers.append(InertWriter(sys.stderr))
        sys.stderr = cast(TextIO, writers[-1])
    try:
        yield
    finally:
        for writer in writers:
            writer.close_line()
        sys.stdout, sys.stderr = saved
