"""Dependency pinning and lock files, read from the manifests at the root of the tree.

A requirement is pinned when one exact version is named (``==`` or ``===``, no wildcard)
or, for a direct reference, a full commit hash. Requirements files are what an
application installs, so an unpinned line there is adverse; a pyproject.toml's ranges are
what a library declares, adverse only when no lock file pins them.
"""

from __future__ import annotations

import re
import tomllib

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.repo.workspace import Workspace
from courtroom.models import Evidence
from courtroom.tree_paths import Globs
from courtroom.untrusted import one_line

NAME = TAG = "dependencies"
LOCK_FILES = frozenset({"poetry.lock", "uv.lock", "Pipfile.lock", "pdm.lock", "pylock.toml",
                        "requirements.lock", "conda-lock.yml", "package-lock.json",
                        "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "go.sum", "Gemfile.lock",
                        "composer.lock"})
REQUIREMENTS = ("requirements*.txt", "requirements/*.txt")
#: Unpinned requirements listed one fact each.
MAX_UNPINNED = 20
_OPERATOR = re.compile(r"===|==|~=|!=|<=|>=|<|>")
_PROJECT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_COMMIT = re.compile(r"@[0-9a-f]{40}\b")


def pinned(spec: str) -> bool:
    """Whether a PEP 508 requirement names one exact version (or a commit)."""
    body = spec.split(";", 1)[0].strip()
    if "@" in body and "://" in body:
        return bool(_COMMIT.search(body))
    ops = _OPERATOR.findall(body)
    return ops in (["=="], ["==="]) and not body.rstrip().endswith(".*")


def _requirement_lines(text: str) -> list[tuple[int, str]]:
    """(line, requirement) of a requirements file: options, includes and hashes left out."""
    out: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        spec = line.split(" #", 1)[0].split(" --", 1)[0].rstrip(" \\").strip()
        if spec and not spec.startswith(("#", "-")):
            out.append((number, spec))
    return out


def _pyproject(ws: Workspace) -> list[tuple[int, str]]:
    """(line, requirement) of pyproject.toml's [project] and Poetry dependencies."""
    text = ws.read_text("pyproject.toml")
    if text is None:
        return []
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return []
    project = data.get("project")
    specs = [s for s in (project.get("dependencies") or []) if isinstance(s, str)] \
        if isinstance(project, dict) and isinstance(project.get("dependencies"), list) else []
    poetry = data.get("tool", {}).get("poetry", {}).get("dependencies") \
        if isinstance(data.get("tool"), dict) else None
    if isinstance(poetry, dict):
        specs += [f"{name}{_poetry_spec(value)}" for name, value in poetry.items()
                  if name != "python"]
    lines = text.splitlines()
    return [(_line_of(lines, spec), spec) for spec in specs]


def _line_of(lines: list[str], spec: str) -> int:
    """The first line naming the requirement's project (1 when none does)."""
    found = _PROJECT.match(spec)
    name = found.group(0) if found else spec
    return next((n for n, line in enumerate(lines, 1) if name in line), 1)


def _poetry_spec(value: object) -> str:
    version = value.get("version") if isinstance(value, dict) else value
    text = str(version or "*")
    return text if text[:1] in "=<>!~" else ("==" + text if re.match(r"^\d", text) else text)


def _unpinned(rel: str, specs: list[tuple[int, str]]) -> list[Evidence]:
    return [make(NAME, "Unpinned dependency", True, f"{rel}:{number}",
                 f"{one_line(spec, 80)} allows more than one version, so two installs can "
                 "differ.", 0.9, (REPO, TAG), content=one_line(spec, 120), direction="adverse",
                 fix="pin an exact version (==) or install from a lock file.")
            for number, spec in specs if not pinned(spec)][:MAX_UNPINNED]


@detective(NAME, produces=(
    Produces(TAG, REPO, "a lock file or a requirements file pinning every line (supports); "
             "an unpinned requirement at its line (adverse); no lock file for unpinned "
             "pyproject dependencies (adverse)"),))
def dependencies(case: Case) -> list[Evidence]:
    """Lock files, and each requirement that does not pin one version."""
    ws = case.workspace
    matches = Globs(REQUIREMENTS)
    locks = sorted(rel for rel in ws.files() if rel in LOCK_FILES
                   or re.fullmatch(r"pylock\.[\w-]+\.toml", rel))
    out = [make(NAME, "Lock file present", True, rel, f"{rel} pins the resolved versions.",
                0.9, (REPO, TAG), content=rel, direction="supports") for rel in locks]
    for rel in (r for r in ws.files() if "/" not in r.removeprefix("requirements/")
                and matches(r)):
        specs = _requirement_lines(ws.read_text(rel) or "")
        unpinned = _unpinned(rel, specs)
        out += unpinned or [make(NAME, "Requirements pinned", True, rel,
                                 f"All {len(specs)} requirement(s) of {rel} pin one version.",
                                 0.9, (REPO, TAG), content=rel, direction="supports")]
    declared = _pyproject(ws)
    if declared and not locks:
        out += _unpinned("pyproject.toml", declared)
    if not out:
        out.append(make(NAME, "Dependency manifest present", False, ".", "No requirements "
                        "file, lock file or pyproject dependency in the tree.", 0.8,
                        (REPO, TAG)))
    return out
