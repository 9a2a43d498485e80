"""The settings' flags of `courtroom audit` and `courtroom batch`, built from the schema.

Each flag's ``dest`` is its AuditConfig field, so what the flags set is read back by field
name, and a flag left out is None: the configuration file may still set it.
"""

from __future__ import annotations

import argparse
from typing import Any

from courtroom.settings.schema import SETTINGS, Flag, Setting


def _flagged(command: str) -> list[tuple[Setting, Flag]]:
    return [(s, s.flag) for s in SETTINGS if s.flag and (command == "audit" or s.flag.batch)]


def add_flags(parser: argparse.ArgumentParser, command: str) -> None:
    """One flag per setting ``command`` takes (batch: the settings submissions share)."""
    for setting, flag in _flagged(command):
        keywords = setting.value.flag_keywords()
        if flag.metavar:
            keywords["metavar"] = flag.metavar
        parser.add_argument(flag.name, dest=setting.field, help=flag.help, **keywords)


def flag_values(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """AuditConfig fields as the flags of ``command`` set them (None: not given)."""
    return {s.field: s.value.from_flag(getattr(args, s.field)) for s, _flag in _flagged(command)}
