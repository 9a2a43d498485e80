"""Where an audit's settings came from: the audited repository's own files, or not.

Kept apart from :mod:`courtroom.models` because only the settings and the verdict read it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

ConfigOrigin = Literal["tree", "base", "operator", "ignored", "absent"]
RubricOrigin = Literal["bundled", "operator", "tree", "base"]


class SettingsSource(BaseModel):
    """Which settings the audited repository chose for itself: its config file and a rubric
    inside it are its author's, so whoever grades it must see when they set the measure."""

    #: The config file applied: the audited tree's ("tree"), a pull request base's ("base"),
    #: the operator's --config FILE, none (--config none: "ignored"), or it has none.
    config: ConfigOrigin
    rubric: RubricOrigin
    #: The config keys (``rubric``, ``gate``...) whose value the repository's file decided.
    from_tree: list[str] = Field(default_factory=list)
