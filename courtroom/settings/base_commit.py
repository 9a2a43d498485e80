"""A pull request is measured with its base commit's configuration, not with its own.

``.github/courtroom.yml`` in a pull request's head is whatever the PR's author committed:
read from there, it would let the author choose the yardstick (rubric, judges, budget) their
own pull request is measured with. The base commit's file is the one the team merged, so an
audit of a pull request reads the file as it is in the base commit, from git's object store
through the read-only git runner: no checkout, no filter, and a git tree never follows a
link, so nothing outside the repository is read. The PR's edit to the file takes effect once
it is merged, like any other change.

When the checkout does not hold the base commit (a shallow fetch), GitHub's list of the
files the pull request changes decides. If the PR changes neither the file nor the rubric
it (or the ``rubric`` input) names, the checkout's copies are the base's, and apply in full.
Otherwise, or when the list cannot be read in full, nobody can say what the base's settings
are: a key the PR deletes would silently fall back to its default (a gate dropped). The
audit then fails closed: it still runs, on the PR's own file without the keys that choose
how the score is measured or what is left out of it (``LOOSENING``), and its conclusion is
failure with one line saying why and how to fetch the base.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from courtroom.errors import ConfigError, PublishError
from courtroom.git import git_bytes, git_dir, run_git
from courtroom.resources import named_rubric
from courtroom.settings.config_file import (
    KEYS,
    MAX_BYTES,
    TREE_FILE,
    FileSettings,
    load_tree_file,
)
from courtroom.settings.config_file import parse as parse_file
from courtroom.settings.schema import SETTINGS

#: What the pull request's own file may not set when the base's cannot be read: how the
#: score is measured, and any setting some value of which measures less than its default
#: (which files are left out of it, which findings fail the gate).
LOOSENING = tuple(s.field for s in SETTINGS if s.key and (
    s.trust == "measure" or (s.trust != "workflow" and s.value.may_loosen)))
#: A full object name (SHA-1 or SHA-256): nothing else is handed to git as a revision.
_OBJECT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: One ``git ls-tree -l`` entry: mode, type, object, size, then a tab and the path.
_ENTRY = re.compile(r"(?P<mode>\d+) (?P<kind>\w+) (?P<oid>[0-9a-f]+) +(?P<size>-|\d+)\t")
_REGULAR = ("100644", "100755")
#: A rubric is a few kilobytes: the most a base commit's rubric may make us copy.
RUBRIC_BYTES = 1024 * 1024
#: How the verdict's line starts when a pull request's settings cannot be known.
UNKNOWN_SETTINGS = "conclusion failure: the settings this pull request is measured with are unknown"
FETCH_BASE = "fetch the base commit (actions/checkout `fetch-depth: 0`)"
_NOT_LISTED = "the files it changes were not listed"


@dataclass(frozen=True)
class PullBase:
    """Where an audit of a pull request reads the repository config from.

    ``sha`` is the base commit when the checkout holds it (and its config file, if any);
    otherwise it is None and ``missing`` says why the base could not be read.
    """

    sha: str | None
    missing: str = ""
    #: Without the base commit: every path the pull request changes (both names of a
    #: rename), as GitHub lists them; None when no complete list was read.
    changed: frozenset[str] | None = None
    #: Without the base commit: why there is no complete list of those paths.
    unlisted: str = ""


@dataclass(frozen=True)
class ChosenFile:
    """The config file an audit applies, and where the verdict says it came from."""

    file: FileSettings | None
    #: Where the config came from, for ``settings.sources["config"]``.
    origin: str
    #: AuditConfig field -> why the file's value was not applied.
    dropped: dict[str, str] = field(default_factory=dict)
    #: The verdict's failure line when the base's settings cannot be known ("": they are).
    unknown: str = ""


def _entry(root: Path, sha: str, rel: str) -> re.Match[str] | None:
    """The tree entry of ``rel`` at ``sha`` (None: no such path); LookupError when git
    cannot read the tree or the file (a missing object shows its size as ``BAD``)."""
    # -z: paths unquoted, so the one entry asked for is told from any other by its name.
    listing = run_git(root, "ls-tree", "-z", "-l", sha, "--", rel)
    if listing is None:
        raise LookupError(f"the tree of the base commit {sha[:12]} cannot be read")
    for line in filter(None, listing.split("\0")):
        entry = _ENTRY.match(line)
        if entry is None:
            raise LookupError(f"{rel} of the base commit {sha[:12]} cannot be read")
        if line[entry.end():] == rel:
            return entry
    return None


def locate_base(root: Path, sha: str | None) -> PullBase:
    """The base commit, if the checkout holds it and its config file (when it has one)."""
    if not sha or not _OBJECT.fullmatch(sha):
        return PullBase(None, "the event names no base commit")
    if git_dir(root) is None:  # git would otherwise look for a repository above the tree
        return PullBase(None, "the workspace is not a git repository of its own")
    if run_git(root, "cat-file", "-e", f"{sha}^{{commit}}") is None:
        return PullBase(None, f"the base commit {sha[:12]} is not in the checkout")
    try:
        _entry(root, sha, TREE_FILE)
    except LookupError as exc:
        return PullBase(None, str(exc))
    return PullBase(sha)


def read_at_base(root: Path, sha: str, rel: str, source: str, limit: int) -> bytes | None:
    """The bytes of the regular file ``rel`` at ``sha`` (None: no such path), or ConfigError.

    Object reads only: a link is refused (a git tree never follows one), so nothing
    outside the repository is read, whatever the path says.
    """
    try:
        entry = _entry(root, sha, rel)
    except LookupError as exc:
        raise ConfigError(f"{source}: {exc}") from exc
    if entry is None:
        return None
    if entry["mode"] == "120000":
        raise ConfigError(f"{source}: is a symlink; refused")
    if entry["kind"] != "blob" or entry["mode"] not in _REGULAR:
        raise ConfigError(f"{source}: is not a file")
    if int(entry["size"]) > limit:
        raise ConfigError(f"{source}: larger than {limit // 1024} KiB; refused")
    data = git_bytes(root, "cat-file", "blob", entry["oid"])
    if data is None:
        raise ConfigError(f"{source}: cannot read the file from the base commit")
    return data


def _base_file(root: Path, sha: str) -> FileSettings | None:
    """The base commit's file, validated like the tree's own (still an untrusted file)."""
    source = f"{TREE_FILE} at base {sha[:12]}"
    data = read_at_base(root, sha, TREE_FILE, source, MAX_BYTES)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{source}: not UTF-8 text") from exc
    return FileSettings(source, parse_file(text, source))


def base_rubric(root: Path, sha: str, rel: str, folder: Path, source: str) -> Path:
    """The rubric ``rel`` as the base commit has it, copied into ``folder`` (outside the tree);
    when the base commit has no such file, the bundled rubric ``rel`` names, if any.

    Read from the checkout, a rubric the base names would still be the PR's to edit in place.
    """
    path = PurePosixPath(rel)
    if path.is_absolute() or not path.parts or ".." in path.parts or rel.startswith(":"):
        raise ConfigError(f"{source}: rubric: {rel!r} must stay inside the repository")
    where = f"{source}: rubric: {path.as_posix()}"
    data = read_at_base(root, sha, path.as_posix(), where, RUBRIC_BYTES)
    if data is None:
        bundled = named_rubric(rel)
        if bundled is None:
            raise ConfigError(f"{where}: not a file in the base commit {sha[:12]}")
        return bundled
    if folder.resolve().is_relative_to(root.resolve()):
        raise ConfigError(f"{where}: the folder for its copy {folder} lies inside the tree")
    copy = folder / sha / path.name
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(data)
    return copy


def list_changes(
    base: PullBase, number: int, pull_files: Callable[[int], list[str]]
) -> PullBase:
    """Without the base commit: ``base`` with the paths pull request ``number`` changes."""
    if base.sha is not None:
        return base
    try:
        return replace(base, changed=frozenset(pull_files(number)))
    except PublishError as exc:
        return replace(base, unlisted=f"the files it changes cannot be listed ({exc})")


def _reached(base: PullBase, rubrics: Iterable[str]) -> str | None:
    """Why the checkout's copies may not be the base's; None when they are."""
    if base.changed is None:
        return base.unlisted or _NOT_LISTED
    named = [PurePosixPath(rel).as_posix() for rel in rubrics]
    touched = [rel for rel in dict.fromkeys((TREE_FILE, *named)) if rel in base.changed]
    return f"the pull request changes {', '.join(touched)}" if touched else None


def _restricted(file: FileSettings | None, missing: str) -> ChosenFile:
    """The pull request's own file without what would let it choose its own yardstick."""
    origin = f"{TREE_FILE} of the pull request, restricted ({missing})"
    if file is None:
        return ChosenFile(None, f"none ({missing}; the pull request has no {TREE_FILE})")
    why = f"default (the pull request's {TREE_FILE} may not set it: {missing})"
    dropped = {key: why for key in LOOSENING if key in file.values}
    kept = {k: v for k, v in file.values.items() if k not in dropped}
    return ChosenFile(FileSettings(f"{TREE_FILE} of the pull request", kept), origin, dropped)


def _without_base(root: Path, base: PullBase, rubric: str | None) -> ChosenFile:
    """The checkout's file when the pull request leaves it and its rubric as the base has
    them; otherwise the PR's own, restricted, and the line that fails the verdict."""
    file = load_tree_file(root)
    named = [str(file.values["rubric_path"])] if file and "rubric_path" in file.values else []
    reached = _reached(base, [*named, *([rubric] if rubric else [])])
    if reached is not None:
        line = f"{UNKNOWN_SETTINGS}: {base.missing}, and {reached}; {FETCH_BASE} to read them"
        return replace(_restricted(file, base.missing), unknown=line)
    if file is None:
        return ChosenFile(None, f"none (the checkout has no {TREE_FILE} and the pull request "
                                f"does not remove one; {base.missing})")
    origin = f"{TREE_FILE} of the checkout, unchanged by the pull request ({base.missing})"
    return ChosenFile(FileSettings(origin, file.values), origin)


def pull_file(root: Path, base: PullBase, rubric: str | None = None) -> ChosenFile:
    """The config an audit of a pull request applies: the base's, else the checkout's when
    the PR leaves it (and the rubric it or the ``rubric`` input names) unchanged, else the
    PR's restricted, failing the verdict."""
    if base.sha is None:
        return _without_base(root, base, rubric)
    file = _base_file(root, base.sha)
    if file is None:
        return ChosenFile(None, f"none (the base commit {base.sha[:12]} has no {TREE_FILE})")
    return ChosenFile(file, file.source)


def fallback_warning(base: PullBase) -> str | None:
    """The warning an audit of a pull request gives when it cannot know the base's config."""
    if base.sha is not None or (base.changed is not None and TREE_FILE not in base.changed):
        return None
    why = base.unlisted if base.changed is None else f"the pull request changes {TREE_FILE}"
    keys = ", ".join(key for key, (name, _check) in KEYS.items() if name in LOOSENING)
    return (
        f"{TREE_FILE} cannot be read as the pull request's base has it: {base.missing}, and "
        f"{why or _NOT_LISTED}. The pull request's own file is applied without {keys}, and "
        f"the conclusion is failure; {FETCH_BASE} to measure it with the base's settings"
    )
