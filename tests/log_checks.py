"""What GitHub's runner would read as a workflow command in a step's output."""

from __future__ import annotations

import re

#: CR, LF and CRLF each end a line for the runner.
_LINES = re.compile(r"\r\n?|\n")


def commands_in(text: str) -> list[str]:
    """Lines opening with ``::`` (after whitespace) or holding the legacy ``##[``."""
    return [line for line in _LINES.split(text)
            if line.lstrip().startswith("::") or "##[" in line]
