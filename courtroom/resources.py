"""The data files that ship with the package: the default rubric and the Jinja templates.

They live at the repository's top level (``rubric.json``, ``templates/``, a fixed layout),
and ``courtroom/_bundled/`` links to them, so setuptools copies their contents into every
wheel and sdist. They are always looked up through ``importlib.resources``, so an
editable install, a wheel, an sdist and a git-URL install all find the same files.
"""

from __future__ import annotations

import os
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


def templates_dir() -> Path:
    """Where the Jinja templates live: ``$COURTROOM_TEMPLATES``, else the bundled ones."""
    override = os.environ.get("COURTROOM_TEMPLATES")
    if override:
        return Path(override)
    return _bundled("templates")
