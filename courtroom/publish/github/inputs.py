"""Reading the Action's inputs: ``INPUT_<NAME>`` from the environment, checked one by one.

Each problem is a ConfigError naming the input (exit 2), never a silent default: a typo
in a workflow must not switch a gate off.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, overload

from courtroom.errors import ConfigError

TRUE = {"true", "yes", "1", "on"}
FALSE = {"false", "no", "0", "off"}


def read(env: Mapping[str, str], name: str, default: str = "") -> str:
    """An input's text, stripped; ``default`` when it is empty or unset."""
    # The runner keeps hyphens (INPUT_GITHUB-TOKEN); a `docker://` step has no action.yml
    # and sets its inputs through `env:`, where INPUT_GITHUB_TOKEN is the portable spelling.
    key = f"INPUT_{name.upper()}"
    value = env.get(key) or env.get(key.replace("-", "_")) or ""
    return value.strip() or default


def number(raw: str, name: str, kind: type[int] | type[float]) -> Any:
    """An input's text as a number; None when it is empty."""
    if not raw:
        return None
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"input {name} must be a number, got {raw!r}") from None


def positive(env: Mapping[str, str], name: str, kind: type[int] | type[float]) -> Any:
    """A number input that must be over 0; None when it is empty."""
    value = number(read(env, name), name, kind)
    if value is not None and value <= 0:
        raise ConfigError(f"input {name} must be greater than 0, got {value}")
    return value


@overload
def switch(env: Mapping[str, str], name: str, *, default: bool) -> bool: ...
@overload
def switch(env: Mapping[str, str], name: str, *, default: None) -> bool | None: ...
def switch(env: Mapping[str, str], name: str, *, default: bool | None) -> bool | None:
    """A true/false input; ``default`` when it is empty."""
    raw = read(env, name).lower()
    if not raw:
        return default
    if raw not in TRUE | FALSE:
        raise ConfigError(f"input {name} must be true or false, got {raw!r}")
    return raw in TRUE
