"""Courtroom: audit a repository and its report against a rubric, the way a court would."""

from __future__ import annotations

__version__ = "0.1.0"
