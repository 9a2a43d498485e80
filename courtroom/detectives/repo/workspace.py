"""The sandboxed, read-only view of the repository under audit (local path or clone).

Repository content is hostile: nothing here executes it, follows symlinks out of the
tree, or hands a user-supplied string to git where git could read it as an option.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import threading
import tokenize
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from courtroom.detectives.repo.clone import (
    MAX_CLONE_BYTES,
    clone,
    display_name,
    is_url,
    validate_url,
)
from courtroom.detectives.repo.listing import (
    PYTHON_SUFFIXES,
    SKIP_DIRS,
    Committed,
    Ignore,
    Listing,
    skipper,
    walk,
)
from courtroom.errors import TargetError
from courtroom.git import git_bytes, git_dir, git_env, run_git

__all__ = ["MAX_CLONE_BYTES", "SKIP_DIRS", "Workspace", "display_name", "git_env", "is_url",
           "open_workspace", "run_git", "validate_url"]

#: Largest file read as text; larger ones are treated as unreadable (data dumps, bundles).
MAX_FILE_BYTES = 1_000_000
#: The first line of a Git LFS pointer: the file it stands for is not in the checkout.
_LFS_POINTER = re.compile(rb"\Aversion https://(git-lfs|hawser)\.github\.com/spec/")
#: A PEP 263 declaration (as the tokenizer matches it), to be neutralised once decoded.
_COOKIE = re.compile(rb"^([ \t\f]*#.*?coding)[:=]", re.MULTILINE)


def python_source(data: bytes) -> bytes | str:
    """The UTF-8 text the interpreter would run from a file's bytes, or why it cannot be
    examined.

    A PEP 263 declaration (``# coding: utf-7``) makes Python decode the file with that
    codec: the decoded text is what runs, so that is what is examined, its declaration
    neutralised (bandit would otherwise decode it a second time). An import decodes the
    whole file, a script run by name only what follows the declaration: when the two
    differ, neither is examined. A NUL byte (binary to every reader) or a Git LFS pointer
    (the code it stands for is elsewhere) cannot be examined.
    """
    if _LFS_POINTER.match(data):
        return "a Git LFS pointer: the code it stands for is not in the checkout"
    if b"\x00" in data:
        return "holds a NUL byte, so it reads as binary"
    lines = io.BytesIO(data)
    try:
        codec, head = tokenize.detect_encoding(lines.readline)
    except SyntaxError:
        # Undecodable first lines without a declaration are examined as they are (the
        # parser tolerates bad bytes); a declaration naming no codec is not.
        lines.seek(0)
        if not _COOKIE.search(lines.readline() + lines.readline()):
            return data
        return "its encoding declaration names no codec this interpreter knows"
    if codec in ("utf-8", "utf-8-sig"):
        return data
    prefix = b"".join(head)
    try:
        text = _COOKIE.sub(rb"\1_", prefix, count=2) + data[len(prefix):]
        decoded, as_script = text.decode(codec), prefix.decode(codec)
    except (UnicodeError, LookupError, ValueError) as exc:
        return f"declares the encoding {codec}, which does not decode it ({type(exc).__name__})"
    if as_script != prefix.decode("utf-8", errors="replace"):
        return f"declares the encoding {codec}, under which its first lines read differently " \
               "when imported and when run"
    return decoded.encode("utf-8", errors="replace")


def committed_folders(root: Path, commit: str) -> Committed:
    """Whether the commit holds a folder (a tree or a submodule), from ``git ls-tree``;
    None when git cannot say."""
    out = git_bytes(root, "ls-tree", "-r", "-t", "-z", "--full-tree", commit)
    if out is None:
        return None
    folders = set()
    for entry in out.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        if meta.split(b" ")[1:2] in ([b"tree"], [b"commit"]):
            folders.add(os.fsdecode(path))
    return folders.__contains__


class Workspace:
    """A repository tree to read safely: repo-relative paths, size caps, no symlink escapes.

    Paths handed out (``files()``) are display names: valid UTF-8 on one line whatever
    the real name is; every read maps them back to the real file.
    """

    def __init__(self, root: Path, display: str, commit: str | None = None,
                 max_file_bytes: int = MAX_FILE_BYTES, ignore: Ignore = ()) -> None:
        """Wrap a repository root; nothing is read until asked (nor ever what ``ignore`` names)."""
        self.root = root.resolve()
        self.display = display
        self.commit = commit
        self.max_file_bytes = max_file_bytes
        self.ignore = skipper(ignore)
        #: Problems met while opening the tree (e.g. a .git leading outside it).
        self.notes: list[str] = []
        self._listing: Listing | None = None
        self._lock = threading.Lock()

    @property
    def listing(self) -> Listing:
        """The one walk of the tree (files, escaped names, what the limits left out)."""
        with self._lock:
            if self._listing is None:
                committed = committed_folders(self.root, self.commit) if self.commit else None
                self._listing = walk(str(self.root), self._inside, self.ignore, committed)
            return self._listing

    def files(self, suffixes: tuple[str, ...] | None = None) -> list[str]:
        """Repo-relative POSIX display names of regular files, sorted; folders of
        third-party code skipped only when the commit does not hold them."""
        listed = self.listing.files
        if suffixes is None:
            return list(listed)
        lowered = tuple(s.lower() for s in suffixes)
        return [p for p in listed if p.lower().endswith(lowered)]

    def python_files(self) -> list[str]:
        """Every listed file the interpreter runs as Python source: by its name or by its
        shebang (``run.cgi``); compiled files are ``listing.bytecode_without_source``'s."""
        return sorted({*self.files(PYTHON_SUFFIXES), *self.listing.scripts})

    def _inside(self, path: str) -> bool:
        return self._resolve_inside(path) is not None

    def _resolve_inside(self, path: str | Path) -> Path | None:
        """The real path if it stays inside the repository, else None."""
        try:
            real = Path(os.path.realpath(path))
        except (OSError, ValueError):
            return None
        return real if real == self.root or real.is_relative_to(self.root) else None

    def path_of(self, rel: str) -> Path | None:
        """The absolute path of a repo-relative file, or None when it escapes the tree."""
        if not rel or rel.startswith("/") or "\x00" in rel or self.ignore(rel):
            return None
        real = self._resolve_inside(self.root / self.listing.real.get(rel, rel))
        if real is None or not real.is_file():
            return None
        return real

    def read_bytes(self, rel: str, limit: int | None = None) -> bytes | None:
        """Raw bytes of a file, or None when escaping, missing or over the size cap."""
        real = self.path_of(rel)
        if real is None:
            return None
        cap = self.max_file_bytes if limit is None else limit
        try:
            if real.stat().st_size > cap:
                return None
            return real.read_bytes()
        except OSError:
            return None

    def read_text(self, rel: str) -> str | None:
        """Decoded text, or None for binary, too large, escaping or unreadable files."""
        data = self.read_bytes(rel)
        if data is None or b"\x00" in data[:8192]:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            # Legacy encodings still hold readable code; keep it, mark bad bytes.
            return data.decode("utf-8", errors="replace")


def _head(root: Path, notes: list[str]) -> str | None:
    """HEAD of the tree's own repository; a .git leading outside the tree is noted, unread."""
    if not os.path.lexists(root / ".git"):
        return None
    if git_dir(root) is None:
        notes.append("history not read: the tree's .git (a gitdir file, commondir or "
                     "alternates) leads outside the audited tree")
        return None
    head = run_git(root, "rev-parse", "--verify", "HEAD")
    return head.strip() if head else None


@contextmanager
def open_workspace(target: str, *, timeout: float = 120.0,
                   max_bytes: int = MAX_CLONE_BYTES,
                   ignore: Ignore = ()) -> Iterator[Workspace]:
    """Yield a Workspace for a local path (read in place) or a validated, cloned URL."""
    notes: list[str] = []
    if is_url(target):
        url = validate_url(target)
        with tempfile.TemporaryDirectory(prefix="courtroom-") as tmp:
            dest = Path(tmp) / "repo"
            clone(url, dest, timeout=timeout, max_bytes=max_bytes)
            ws = Workspace(dest, display_name(url), _head(dest, notes), ignore=ignore)
            ws.notes.extend(notes)
            yield ws
        return
    if target.startswith("-"):
        raise TargetError(
            f"refused target {target[:60]!r}: starts with '-' (write ./{target[:60]})")
    path = Path(target).expanduser()
    if not path.exists():
        raise TargetError(f"target path not found: {target}")
    if not path.is_dir():
        raise TargetError(f"target is not a directory: {target}")
    # "." or ".." would title the report with punctuation: show the folder's own name.
    display = target if path.name not in ("", ".", "..") else path.resolve().name
    ws = Workspace(path, display, _head(path.resolve(), notes), ignore=ignore)
    ws.notes.extend(notes)
    yield ws
