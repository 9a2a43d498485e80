"""What kind of value a setting holds, and how each way of setting it is read and checked.

One kind serves the three ways in: the configuration file (``check``: a YAML value, a
ValueError naming the problem), a ``courtroom`` flag (``flag_keywords``: argparse's
``type``, ``choices`` or ``action``) and an Action input (``from_input``: the input's text,
a ConfigError naming the input). A setting's row in :data:`courtroom.settings.schema.SETTINGS`
names its kind, so no reader of flags or inputs knows one setting from another.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from courtroom.errors import ConfigError
from courtroom.resources import resolve_rubric
from courtroom.tree_paths import glob_problem
from courtroom.untrusted import LINE_BREAK

MAX_GLOBS = 200
TRUE = frozenset({"true", "yes", "1", "on"})
FALSE = frozenset({"false", "no", "0", "off"})


class Value(BaseModel):
    """A kind of setting value; by default one line of text."""

    model_config = ConfigDict(frozen=True)
    #: Some value of this kind measures less than the default does, so a file the change
    #: under review wrote may not set it when the base's settings are unknown.
    may_loosen: ClassVar[bool] = False

    def check(self, value: Any) -> Any:
        """The configuration file's value, checked (ValueError says what is wrong)."""
        if not isinstance(value, str) or not value.strip() or len(value) > 300:
            raise ValueError(f"must be a non-empty string, got {value!r}")
        if "\x00" in value or LINE_BREAK.search(value):
            raise ValueError("must be one line")
        return value.strip()

    def flag_keywords(self) -> dict[str, Any]:
        """argparse keywords that parse the flag's text."""
        return {}

    def from_flag(self, value: Any) -> Any:
        """The parsed flag as the AuditConfig field takes it (None: not given)."""
        return value

    def from_input(self, raw: str, name: str) -> Any:
        """An Action input's stripped text as the field takes it (None: empty)."""
        return raw or None

    def stricter(self, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
        """A tighten-only setting the flags set and the file ``src`` too: the stricter
        value and where it came from, or None when the flag's stands."""
        return None

    def added(self, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
        """A free setting the flags set and the file too: both, or None (the flag's)."""
        return None

    def loosens(self, value: Any) -> bool:
        """Whether ``value`` measures less than the default does."""
        return False


class File(Value):
    """A path (the file's value is its text, resolved later against the tree)."""

    #: A bare name may mean a rubric the package ships (``--rubric pr-gate``).
    bundled: bool = False

    def flag_keywords(self) -> dict[str, Any]:
        return {"type": Path}

    def from_flag(self, value: Any) -> Any:
        return resolve_rubric(value) if self.bundled and value is not None else value


class Choice(Value):
    """One of a few words, strictest first; an input is read in any case."""

    may_loosen: ClassVar[bool] = True
    options: tuple[str, ...]

    def check(self, value: Any) -> str:
        if value not in self.options:
            raise ValueError(f"must be one of {', '.join(self.options)}, got {value!r}")
        return str(value)

    def flag_keywords(self) -> dict[str, Any]:
        return {"choices": list(self.options)}

    def from_input(self, raw: str, name: str) -> str | None:
        value = raw.lower()
        if value and value not in self.options:
            raise ConfigError(
                f"input {name} must be one of {', '.join(self.options)}, got {value!r}")
        return value or None

    def stricter(self, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
        return (theirs, f"flag, tightened by {src}") if theirs == self.options[0] else None

    def loosens(self, value: Any) -> bool:
        return bool(value != self.options[0])


class Switch(Value):
    """On or off. Its flag only ever sets ``flag_sets`` (``--no-cache`` sets False)."""

    flag_sets: bool = True

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false, got {value!r}")
        return value

    def flag_keywords(self) -> dict[str, Any]:
        # default None, not argparse's opposite: an absent flag leaves the file its say.
        return {"action": "store_true" if self.flag_sets else "store_false", "default": None}

    def from_input(self, raw: str, name: str) -> bool | None:
        value = raw.lower()
        if not value:
            return None
        if value not in TRUE | FALSE:
            raise ConfigError(f"input {name} must be true or false, got {value!r}")
        return value in TRUE


Bounds = tuple[float, float]


class Number(Value):
    """A number within bounds, which may differ by where it comes from.

    The file's bounds are the narrowest: the tree's author writes it. ``flag`` None: the
    file's bounds; ``input`` None: any number over 0.
    """

    file: Bounds | None = None
    flag: Bounds | None = None
    input: Bounds | None = None
    integer: bool = False

    @property
    def kind(self) -> type[int] | type[float]:
        return int if self.integer else float

    def check(self, value: Any) -> Any:
        kind = "a whole number" if self.integer else "a number"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"must be {kind}, got {value!r}")
        if self.integer and not isinstance(value, int):
            raise ValueError(f"must be {kind}, got {value!r}")
        lo, hi = self.file or (-math.inf, math.inf)
        if not math.isfinite(value) or not lo <= value <= hi:
            raise ValueError(f"must be between {lo:g} and {hi:g}, got {value!r}")
        return value

    def flag_keywords(self) -> dict[str, Any]:
        lo, hi = self.flag or self.file or (-math.inf, math.inf)
        kind = self.kind

        def parse(text: str) -> float:
            try:
                value = kind(text)
            except ValueError as exc:
                raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
            if not lo <= value <= hi:
                raise argparse.ArgumentTypeError(f"must be between {lo:g} and {hi:g}")
            return value

        return {"type": parse}

    def from_input(self, raw: str, name: str) -> Any:
        if not raw:
            return None
        try:
            value = self.kind(raw)
        except ValueError:
            raise ConfigError(f"input {name} must be a number, got {raw!r}") from None
        if self.input is None:
            if value <= 0:
                raise ConfigError(f"input {name} must be greater than 0, got {value}")
        elif not self.input[0] <= value <= self.input[1]:
            lo, hi = self.input
            raise ConfigError(f"input {name} must be between {lo:g} and {hi:g}, got {value}")
        return value

    def stricter(self, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
        # A tighten-only number is a minimum (fail-below): higher is stricter.
        return (theirs, f"flag, raised by {src}") if theirs > ours else None


class Globs(Value):
    """Glob patterns of repo-relative paths: a file's list, a repeatable flag."""

    may_loosen: ClassVar[bool] = True  # each glob leaves files out of the measure

    def check(self, value: Any) -> tuple[str, ...]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or len(items) > MAX_GLOBS:
            raise ValueError(f"must be a glob or a list of at most {MAX_GLOBS} globs")
        globs: list[str] = []
        for item in items:
            text = super().check(item)
            problem = glob_problem(text)
            if problem:
                raise ValueError(f"{text!r} {problem}")
            globs.append(text)
        return tuple(globs)

    def flag_keywords(self) -> dict[str, Any]:
        return {"action": "append"}

    def from_flag(self, value: Any) -> Any:
        return tuple(value) if value else None

    def added(self, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
        return (*ours, *theirs), f"flag and {src}"


class Gate(Value):
    """Per-criterion minimum scores (the file only)."""

    def check(self, value: Any) -> dict[str, float]:
        if not isinstance(value, dict) or not value:
            raise ValueError("must map criterion ids to minimum scores, e.g. {safe_tools: 3}")
        score = Number(file=(0, 5))
        gate: dict[str, float] = {}
        for key, minimum in value.items():
            if not isinstance(key, str) or not key.strip():
                raise ValueError(f"criterion id must be a string, got {key!r}")
            try:
                gate[key.strip()] = float(score.check(minimum))
            except ValueError as exc:
                raise ValueError(f"{key}: {exc}") from None
        return gate

    def stricter(self, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
        gate = dict(ours)
        for criterion, minimum in theirs.items():
            gate[criterion] = max(minimum, gate.get(criterion, 0.0))
        return gate, f"flag and {src}"
