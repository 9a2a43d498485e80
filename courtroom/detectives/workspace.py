"""The sandboxed, read-only view of the repository under audit (local path or clone).

Repository content is hostile: nothing here executes it, follows symlinks out of the
tree, or hands a user-supplied string to git where git could read it as an option.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TypeVar
from urllib.parse import urlsplit

from courtroom.errors import TargetError, WorkspaceError

T = TypeVar("T")

#: Folders that hold vendored or generated code, never the submission itself.
SKIP_DIRS = frozenset(
    {".venv", "venv", "node_modules", "site-packages", "build", "dist", ".git", "__pycache__",
     ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache", "env", ".eggs"}
)
#: Largest file read as text; larger ones are treated as unreadable (data dumps, bundles).
MAX_FILE_BYTES = 1_000_000
#: Largest clone accepted, in bytes on disk (history included).
MAX_CLONE_BYTES = 500_000_000
#: Most files listed; a repository bigger than this is audited on its first files only.
MAX_FILES = 20_000

_GIT_AT = re.compile(r"^git@[A-Za-z0-9][A-Za-z0-9.-]*:[A-Za-z0-9._~/-]+$")
_SAFE_URL_CHARS = re.compile(r"^[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+$")


class Workspace:
    """A repository tree to read safely: repo-relative paths, size caps, no symlink escapes."""

    def __init__(self, root: Path, display: str, commit: str | None = None,
                 max_file_bytes: int = MAX_FILE_BYTES,
                 skip: Callable[[str], bool] | None = None) -> None:
        """Wrap a repository root; nothing is read until asked.

        ``skip(rel)`` names paths no detective may list or read (the config's ``ignore``).
        """
        self.skip = skip or (lambda rel: False)
        self.root = root.resolve()
        self.display = display
        self.commit = commit
        self.max_file_bytes = max_file_bytes
        self._files: list[str] | None = None
        self._lock = threading.Lock()
        self._memo: dict[str, Any] = {}
        self._memo_locks: dict[str, threading.Lock] = {}

    def files(self, suffixes: tuple[str, ...] | None = None) -> list[str]:
        """Repo-relative POSIX paths of regular files, sorted; vendored folders skipped."""
        with self._lock:
            if self._files is None:
                self._files = self._walk()
            listed = self._files
        if suffixes is None:
            return list(listed)
        lowered = tuple(s.lower() for s in suffixes)
        return [p for p in listed if p.lower().endswith(lowered)]

    def _walk(self) -> list[str]:
        """List files once, pruning vendored and linked folders."""
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            # Prune in place so os.walk never descends into vendored or linked folders.
            dirnames[:] = sorted(
                d for d in dirnames
                if d not in SKIP_DIRS and not d.endswith(".egg-info")
                and not os.path.islink(os.path.join(dirpath, d))
            )
            for name in filenames:
                full = os.path.join(dirpath, name)
                if os.path.islink(full) and self._resolve_inside(full) is None:
                    continue
                rel = Path(full).relative_to(self.root).as_posix()
                if self.skip(rel):
                    continue
                found.append(rel)
                if len(found) >= MAX_FILES:
                    return sorted(found)
        return sorted(found)

    def _resolve_inside(self, path: str | Path) -> Path | None:
        """The real path if it stays inside the repository, else None."""
        try:
            real = Path(os.path.realpath(path))
        except (OSError, ValueError):
            return None
        return real if real == self.root or real.is_relative_to(self.root) else None

    def path_of(self, rel: str) -> Path | None:
        """The absolute path of a repo-relative file, or None when it escapes the tree."""
        if not rel or rel.startswith("/") or "\x00" in rel or self.skip(rel):
            return None
        real = self._resolve_inside(self.root / rel)
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

    def memo(self, key: str, factory: Callable[[], T]) -> T:
        """Compute a shared analysis once per workspace, even when detectives race for it."""
        with self._lock:
            lock = self._memo_locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._memo:
                self._memo[key] = factory()
            value: T = self._memo[key]
            return value


def git_env() -> dict[str, str]:
    """Environment for git: no prompts, no system config, only safe transports."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_TERMINAL_PROMPT="0",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_ASKPASS="echo",
        GCM_INTERACTIVE="never",
        GIT_LFS_SKIP_SMUDGE="1",
        GIT_ALLOW_PROTOCOL="https:ssh:file",
        GIT_SSH_COMMAND="ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new",
    )
    return env


def run_git(root: Path, *args: str, timeout: float = 30.0) -> str | None:
    """Run a read-only git command in ``root``; None when git fails or is missing."""
    try:
        out = subprocess.run(
            ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false",
             "-C", str(root), *args],
            capture_output=True, timeout=timeout, env=git_env(), check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.decode("utf-8", errors="replace")


def is_url(target: str) -> bool:
    """Whether ``target`` names a remote (or file://) repository rather than a local path."""
    return target.startswith(("https://", "http://", "git@", "file://", "ssh://", "git://")) \
        or "://" in target or target.startswith("ext::")


def validate_url(url: str) -> str:
    """Return the URL when it is an accepted clone source, else raise TargetError."""
    if not url or url.startswith("-") or any(ord(c) < 33 for c in url):
        raise TargetError("refused URL: it is empty, starts with '-' or contains spaces or "
                          "control characters")
    if url.startswith("git@"):
        if not _GIT_AT.match(url) or "--" in url.split(":", 1)[1][:2]:
            raise TargetError("refused URL: expected git@host:owner/name")
        return url
    parts = urlsplit(url)
    if parts.scheme == "https":
        if not parts.hostname or not _SAFE_URL_CHARS.match(url):
            raise TargetError("refused URL: malformed https URL")
        return url
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost") or not parts.path.startswith("/"):
            raise TargetError("refused URL: file:// URLs must name an absolute local path")
        return url
    raise TargetError(f"refused URL scheme {parts.scheme or url.split(':', 1)[0]!r}: "
                      "use https://, git@host:owner/name, file:// or a local path")


def display_name(url: str) -> str:
    """What reports show for a URL: owner/name for GitHub, else the URL without secrets."""
    if url.startswith("git@"):
        host, _, path = url[4:].partition(":")
        path = path.removesuffix(".git")
        return path if host == "github.com" else url
    parts = urlsplit(url)
    path = parts.path.strip("/").removesuffix(".git")
    if parts.hostname == "github.com" and path.count("/") == 1:
        return path
    host = parts.hostname or ""
    return f"{parts.scheme}://{host}/{path}" if parts.scheme != "file" else url


def _tree_bytes(root: Path) -> int:
    """Bytes on disk under root (symlinks not followed)."""
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
    return total


def _run_capped(cmd: list[str], dest: Path, errfile: IO[bytes], url: str, *,
                timeout: float, max_bytes: int) -> int:
    """Run git, killing it when it exceeds the timeout or the size cap while it runs."""
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=errfile, env=git_env())
    except OSError as exc:
        raise WorkspaceError(
            f"cannot run git to clone {display_name(url)}: {exc.strerror}") from exc
    deadline = time.monotonic() + timeout
    while True:
        try:
            return proc.wait(timeout=0.25)
        except subprocess.TimeoutExpired:
            pass
        # Checked while cloning so a huge repository is stopped early, not after the fact.
        over = _tree_bytes(dest) > max_bytes if dest.exists() else False
        if time.monotonic() > deadline or over:
            proc.kill()
            proc.wait()
            why = f"is over the {max_bytes / 1e6:g} MB cap" if over else \
                f"timed out after {timeout:g}s"
            raise WorkspaceError(f"clone of {display_name(url)} {why}")


def clone(url: str, dest: Path, *, timeout: float, max_bytes: int = MAX_CLONE_BYTES) -> None:
    """Clone ``url`` into ``dest`` with hooks off, no submodules and a timeout."""
    cmd = [
        "git", "-c", "core.hooksPath=/dev/null", "-c", "submodule.recurse=false",
        "-c", "protocol.ext.allow=never", "-c", "core.fsmonitor=false",
        "clone", "--quiet", "--no-recurse-submodules", "--", url, str(dest),
    ]
    with tempfile.TemporaryFile() as errfile:
        code = _run_capped(cmd, dest, errfile, url, timeout=timeout, max_bytes=max_bytes)
        errfile.seek(0)
        stderr = errfile.read(20_000)
    if code != 0:
        lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
        reason = (lines[-1] if lines else f"git exited {code}")[:200]
        reason = reason.replace(str(dest), "<checkout>")
        raise WorkspaceError(f"clone of {display_name(url)} failed: {reason}")
    size = _tree_bytes(dest)
    if size > max_bytes:
        raise WorkspaceError(
            f"clone of {display_name(url)} is {size // 1_000_000} MB, over the "
            f"{max_bytes / 1e6:g} MB cap"
        )


@contextmanager
def open_workspace(target: str, *, timeout: float = 120.0,
                   max_bytes: int = MAX_CLONE_BYTES,
                   skip: Callable[[str], bool] | None = None) -> Iterator[Workspace]:
    """Yield a Workspace for a local path (read in place) or a validated, cloned URL."""
    if is_url(target):
        url = validate_url(target)
        with tempfile.TemporaryDirectory(prefix="courtroom-") as tmp:
            dest = Path(tmp) / "repo"
            clone(url, dest, timeout=timeout, max_bytes=max_bytes)
            head = run_git(dest, "rev-parse", "--verify", "HEAD")
            yield Workspace(dest, display_name(url), head.strip() if head else None, skip=skip)
        return
    if target.startswith("-"):
        raise TargetError(
            f"refused target {target[:60]!r}: starts with '-' (write ./{target[:60]})")
    path = Path(target).expanduser()
    if not path.exists():
        raise TargetError(f"target path not found: {target}")
    if not path.is_dir():
        raise TargetError(f"target is not a directory: {target}")
    head = run_git(path, "rev-parse", "--verify", "HEAD") if (path / ".git").exists() else None
    # "." or ".." would title the report with punctuation: show the folder's own name.
    display = target if path.name not in ("", ".", "..") else path.resolve().name
    yield Workspace(path, display, head.strip() if head else None, skip=skip)
