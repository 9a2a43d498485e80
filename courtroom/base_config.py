"""A pull request is measured with its base commit's configuration, not with its own.

``.github/courtroom.yml`` in a pull request's head is whatever the PR's author committed:
read from there, it would let the author choose the yardstick (rubric, judges, budget) their
own pull request is measured with. The base commit's file is the one the team merged, so an
audit of a pull request reads the file as it is in the base commit, from git's object store
through the read-only git runner: no checkout, no filter, and a git tree never follows a
link, so nothing outside the repository is read. The PR's edit to the file takes effect once
it is merged, like any other change.

When the checkout does not hold the base commit (a shallow fetch), the PR's own file is the
only one there is. It is then applied under every rule for an untrusted file and without the
keys that choose how the score is measured or what is left out of it (``LOOSENING``); the
action says so in the log, the job summary and the trace. That is a warning, not a verdict
error: the audit itself is complete and measured with the defaults and the workflow's
inputs, while an error would mark it incomplete (neutral) and hide an honest success or
failure behind a setup problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from courtroom.errors import ConfigError
from courtroom.git import git_bytes, git_dir, run_git
from courtroom.repo_config import (
    KEYS,
    MAX_BYTES,
    MEASURE,
    TREE_FILE,
    FileSettings,
    load_tree_file,
)
from courtroom.repo_config import parse as parse_file

#: What the pull request's own file may not set when the base's cannot be read: how the
#: score is measured, and which files are left out of it.
LOOSENING = (*MEASURE, "ignore")
#: A full object name (SHA-1 or SHA-256): nothing else is handed to git as a revision.
_OBJECT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: One ``git ls-tree -l`` entry: mode, type, object, size, then a tab and the path.
_ENTRY = re.compile(r"(?P<mode>\d+) (?P<kind>\w+) (?P<oid>[0-9a-f]+) +(?P<size>-|\d+)\t")
_REGULAR = ("100644", "100755")
#: A rubric is a few kilobytes: the most a base commit's rubric may make us copy.
RUBRIC_BYTES = 1024 * 1024


@dataclass(frozen=True)
class PullBase:
    """Where an audit of a pull request reads the repository config from.

    ``sha`` is the base commit when the checkout holds it (and its config file, if any);
    otherwise it is None and ``missing`` says why the base could not be read.
    """

    sha: str | None
    missing: str = ""


@dataclass(frozen=True)
class ChosenFile:
    """The config file an audit applies, and where the verdict says it came from."""

    file: FileSettings | None
    #: Where the config came from, for ``settings.sources["config"]``.
    origin: str
    #: AuditConfig field -> why the file's value was not applied.
    dropped: dict[str, str] = field(default_factory=dict)


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
    """The rubric ``rel`` as the base commit has it, copied into ``folder`` (outside the tree).

    Read from the checkout, a rubric the base names would still be the PR's to edit in place.
    """
    path = PurePosixPath(rel)
    if path.is_absolute() or not path.parts or ".." in path.parts or rel.startswith(":"):
        raise ConfigError(f"{source}: rubric: {rel!r} must stay inside the repository")
    where = f"{source}: rubric: {path.as_posix()}"
    data = read_at_base(root, sha, path.as_posix(), where, RUBRIC_BYTES)
    if data is None:
        raise ConfigError(f"{where}: not a file in the base commit {sha[:12]}")
    if folder.resolve().is_relative_to(root.resolve()):
        raise ConfigError(f"{where}: the folder for its copy {folder} lies inside the tree")
    copy = folder / sha / path.name
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(data)
    return copy


def _restricted(root: Path, missing: str) -> ChosenFile:
    """The pull request's own file without what would let it choose its own yardstick."""
    file = load_tree_file(root)
    origin = f"{TREE_FILE} of the pull request, restricted ({missing})"
    if file is None:
        return ChosenFile(None, f"none ({missing}; the pull request has no {TREE_FILE})")
    why = f"default (the pull request's {TREE_FILE} may not set it: {missing})"
    dropped = {key: why for key in LOOSENING if key in file.values}
    kept = {k: v for k, v in file.values.items() if k not in dropped}
    return ChosenFile(FileSettings(f"{TREE_FILE} of the pull request", kept), origin, dropped)


def pull_file(root: Path, base: PullBase) -> ChosenFile:
    """The config an audit of a pull request applies: the base's, else the PR's restricted."""
    if base.sha is None:
        return _restricted(root, base.missing)
    file = _base_file(root, base.sha)
    if file is None:
        return ChosenFile(None, f"none (the base commit {base.sha[:12]} has no {TREE_FILE})")
    return ChosenFile(file, file.source)


def fallback_warning(base: PullBase) -> str | None:
    """The warning an audit of a pull request gives when it cannot read the base's config."""
    if base.sha is not None:
        return None
    keys = ", ".join(key for key, (name, _check) in KEYS.items() if name in LOOSENING)
    return (
        f"{TREE_FILE} is not read from the pull request's base: {base.missing}. The pull "
        f"request's own file is applied without {keys}; fetch the base commit "
        "(actions/checkout `fetch-depth: 0`) to measure with the base's settings"
    )
