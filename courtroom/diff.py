"""A pull request's diff as data: the hunks between its base commit and the audited commit.

Read from git's objects with ``diff-tree`` (no working tree, no filter, no external diff,
no textconv: ``courtroom.git`` forces them off), so nothing the audited repository names
runs. Every option its config could bend is given on the command line, which wins: the
path prefixes, the hunk merging, the order file. A base the checkout does not hold (a
shallow fetch) is a ``DiffError`` with one line saying how to fetch it.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from courtroom.errors import DiffError, WorkspaceError
from courtroom.git import MAX_OUTPUT_BYTES, git_dir, run_git

#: Most bytes of patch read (git's own output cap); a larger diff is refused, not read in
#: part (fail closed).
MAX_DIFF_BYTES = MAX_OUTPUT_BYTES
#: Most characters of one hunk's added text kept for the judges.
MAX_HUNK_TEXT = 1200
#: A full object name (SHA-1 or SHA-256).
_OBJECT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: A revision an operator may name on the command line (a branch, a tag, a sha, HEAD~2).
_REF = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./~^@{}-]{0,199}")
_HUNK = re.compile(r"@@ -(?P<a>\d+)(?:,(?P<b>\d+))? \+(?P<c>\d+)(?:,(?P<d>\d+))? @@")
_LOCATED = re.compile(r"^(?P<path>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")
FETCH_BASE = "fetch it (actions/checkout `fetch-depth: 0`, or `git fetch origin <base>`)"


class Hunk(BaseModel):
    """One changed region: the head's lines ``start..end`` replace the base's lines
    ``base_start`` onwards (``added`` 0: lines were only removed, just before ``start``)."""

    model_config = ConfigDict(frozen=True)

    path: str
    start: int = Field(ge=1)
    end: int = Field(ge=1)
    added: int = Field(ge=0)
    removed: int = Field(ge=0)
    base_start: int = Field(ge=0)
    text: str = Field(default="", description="The added lines, clipped.")

    @property
    def location(self) -> str:
        """``path:start-end`` (``path:line`` for one line) on the audited commit."""
        return f"{self.path}:{self.start}" if self.end == self.start \
            else f"{self.path}:{self.start}-{self.end}"


class Diff(BaseModel):
    """The changes of the audited commit over its base: every hunk, in file order."""

    model_config = ConfigDict(frozen=True)

    base: str = Field(description="The base commit's full sha.")
    head: str = Field(description="The audited commit's full sha.")
    hunks: list[Hunk] = Field(default_factory=list)

    def files(self) -> set[str]:
        """The paths the change touches (as the audited commit names them)."""
        return {h.path for h in self.hunks}

    def changed(self, path: str, start: int, end: int | None = None) -> bool:
        """Whether any line ``start..end`` of ``path`` was added or rewritten by the change."""
        last = start if end is None else max(start, end)
        return any(h.path == path and h.added and h.start <= last and start <= h.end
                   for h in self.hunks)

    def touches(self, location: str) -> bool:
        """Whether a located fact (``path:line``, ``path:start-end`` or a bare path) lies in
        the changed lines; a fact about the whole tree, a commit or a PDF page does not."""
        located = _LOCATED.match(location.strip())
        if located is None:
            return location.strip() in self.files()
        return self.changed(located["path"], int(located["start"]),
                            int(located["end"]) if located["end"] else None)


def _unquote(name: str) -> str:
    """A path as git prints it: C-quoted when it holds unusual bytes (``core.quotePath``)."""
    name = name.rstrip("\t")  # git ends the name with a tab when it holds a space
    if not (name.startswith('"') and name.endswith('"')):
        return name
    try:
        raw = name[1:-1].encode("ascii").decode("unicode_escape").encode("latin-1")
    except (UnicodeError, ValueError):
        return name
    return raw.decode("utf-8", errors="replace")


def parse_patch(patch: str) -> list[Hunk]:
    """The hunks of a ``-U0`` patch whose paths carry the ``a/`` and ``b/`` prefixes."""
    hunks: list[Hunk] = []
    old = path = ""
    current: dict[str, int] | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            text = "\n".join(lines)
            hunks.append(Hunk(path=path or old, **current, text=text[:MAX_HUNK_TEXT]))

    for line in patch.splitlines():
        if line.startswith("diff --git "):
            close()
            current, lines, old, path = None, [], "", ""
        elif current is None and line.startswith("--- "):
            old = _unquote(line[4:]).removeprefix("a/") if line[4:] != "/dev/null" else ""
        elif current is None and line.startswith("+++ "):
            path = _unquote(line[4:]).removeprefix("b/") if line[4:] != "/dev/null" else ""
        elif (found := _HUNK.match(line)) is not None:
            close()
            added, removed = int(found["d"] or 1), int(found["b"] or 1)
            start = max(1, int(found["c"]) + (0 if added else 1))
            current = {"start": start, "end": max(start, start + added - 1), "added": added,
                       "removed": removed, "base_start": int(found["a"])}
            lines = []
        elif current is not None and line.startswith("+"):
            lines.append(line[1:])
    close()
    return hunks


def resolve(root: Path, ref: str) -> str:
    """The full sha of the commit ``ref`` names in the audited repository, or DiffError."""
    if git_dir(root) is None:
        raise DiffError(f"--base {ref}: the target is not a git repository of its own, so "
                        "it has no base to compare with")
    if not _REF.fullmatch(ref) or ".." in ref:
        raise DiffError(f"--base {ref[:60]!r}: not a commit or branch name")
    sha = run_git(root, "rev-parse", "--verify", "--quiet", "--end-of-options",
                  f"{ref}^{{commit}}")
    if not sha or not _OBJECT.fullmatch(sha.strip()):
        raise DiffError(f"the base {ref[:60]} is not a commit in the audited repository "
                        f"(a shallow checkout holds only its last commits); {FETCH_BASE}")
    return sha.strip()


def compute(root: Path, base: str, head: str) -> Diff:
    """The diff of ``head`` over ``base`` (both full shas the repository holds)."""
    try:
        patch = run_git(root, "diff-tree", "-r", "-p", "-U0", "--no-renames", "--no-color",
                        "--inter-hunk-context=0", "-O/dev/null", "--src-prefix=a/",
                        "--dst-prefix=b/", base, head, "--", max_bytes=MAX_DIFF_BYTES,
                        timeout=60)
    except WorkspaceError as exc:
        raise DiffError(f"the diff over the base {base[:12]} is too large to read: {exc}") \
            from exc
    if patch is None:
        raise DiffError(f"the diff over the base {base[:12]} cannot be read")
    return Diff(base=base, head=head, hunks=parse_patch(patch))


def load(root: Path, ref: str, head: str | None) -> Diff:
    """The audited commit's diff over the base ``ref`` (a sha, branch or tag)."""
    if head is None:
        raise DiffError(f"--base {ref[:60]}: the audited tree has no commit to compare")
    return compute(root, resolve(root, ref), head)
