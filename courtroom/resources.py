"""The data files that ship with the package: the rubrics and the Jinja templates.

They live at the repository's top level (``rubric.json``, ``rubrics/``, ``templates/``),
and ``courtroom/_bundled/`` links to them, so setuptools copies their contents into every
wheel and sdist. They are always looked up through ``importlib.resources``, so an
editable install, a wheel, an sdist and a git-URL install all find the same files.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

from courtroom.errors import ConfigError


def _bundled(name: str) -> Path:
    ref = resources.files("courtroom").joinpath("_bundled", name)
    # Jinja's loader and the rubric reader want real files: a zipped install has none.
    if not isinstance(ref, Path) or not ref.exists():
        raise ConfigError(
            f"courtroom's bundled {name} is missing from this installation; reinstall the "
            "package from a wheel, an sdist or the repository"
        )
    return ref


def default_rubric_path() -> Path:
    """The default rubric file shipped with the package."""
    return _bundled("rubric.json")


#: A rubric's name as ``--rubric`` and the ``rubric`` input take it: one bare word, no path.
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def bundled_rubrics() -> dict[str, Path]:
    """The rubrics shipped in ``rubrics/``, by name (the file name without ``.json``)."""
    folder = _bundled("rubrics")
    return {p.stem: p for p in sorted(folder.glob("*.json")) if p.is_file()}


def named_rubric(value: str | Path) -> Path | None:
    """The bundled rubric ``value`` names (``pr-gate``, ``automaton-auditor``), or None when
    it is not a bare name of one. A file of that name, when one exists, is the caller's."""
    text = str(value)
    if not _NAME.fullmatch(text):
        return None
    return bundled_rubrics().get(text)


def resolve_rubric(value: Path) -> Path:
    """What ``--rubric`` names: an existing file, else the bundled rubric of that name,
    else the path as given (loading it then says it was not found)."""
    if value.exists():
        return value
    return named_rubric(value) or value


def templates_dir() -> Path:
    """Where the Jinja templates live: ``$COURTROOM_TEMPLATES``, else the bundled ones."""
    override = os.environ.get("COURTROOM_TEMPLATES")
    if override:
        return Path(override)
    return _bundled("templates")
