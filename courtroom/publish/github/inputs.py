"""Reading the Action's inputs: ``INPUT_<NAME>`` from the environment, checked one by one.

Each problem is a ConfigError naming the input (exit 2), never a silent default: a typo
in a workflow must not switch a gate off. Which inputs set which audit setting, and how
each is parsed, is the settings schema's (:mod:`courtroom.settings.schema`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from courtroom.settings.schema import SETTINGS
from courtroom.settings.values import Number, Switch

#: A pull request's number: any whole number (GitHub says whether it exists).
WHOLE = Number(input=(-math.inf, math.inf), integer=True)


def read(env: Mapping[str, str], name: str, default: str = "") -> str:
    """An input's text, stripped; ``default`` when it is empty or unset."""
    # The runner keeps hyphens (INPUT_GITHUB-TOKEN); a `docker://` step has no action.yml
    # and sets its inputs through `env:`, where INPUT_GITHUB_TOKEN is the portable spelling.
    key = f"INPUT_{name.upper()}"
    value = env.get(key) or env.get(key.replace("-", "_")) or ""
    return value.strip() or default


def switch(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    """A true/false input; ``default`` when it is empty."""
    value = Switch().from_input(read(env, name), name)
    return default if value is None else bool(value)


def setting_inputs(env: Mapping[str, str]) -> dict[str, Any]:
    """The AuditConfig fields the Action's inputs set; an empty input sets nothing.

    An input that belongs to one provider (a cloud's region) is read only when the
    ``provider`` input names that provider: the other cloud's is not its business.
    """
    values: dict[str, Any] = {}
    for setting in SETTINGS:  # provider comes before the inputs that depend on it
        for given in setting.inputs:
            if given.provider is not None and values.get("provider") != given.provider:
                continue
            value = setting.value.from_input(read(env, given.name, given.default), given.name)
            if value is not None:
                values[setting.field] = value
    return values
