"""Clone a validated URL into a temporary folder, bounded in time and size.

A clone is a tree of processes (git, git-remote-https, ssh ...): it runs in its own
session and the whole process group is killed on a timeout, so nothing outlives it.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from courtroom.child import kill_group, spawn
from courtroom.errors import TargetError, WorkspaceError
from courtroom.git import git_env, pinned_options

#: Largest clone accepted, in bytes on disk (history included).
MAX_CLONE_BYTES = 500_000_000

_GIT_AT = re.compile(r"^git@[A-Za-z0-9][A-Za-z0-9.-]*:[A-Za-z0-9._~/-]+$")
_SAFE_URL_CHARS = re.compile(r"^[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+$")


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


def tree_bytes(root: Path) -> int:
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
    """Run git, killing its process group past the timeout or the size cap."""
    try:
        proc = spawn(cmd, git_env(network=True), stdout=subprocess.DEVNULL, stderr=errfile)
    except OSError as exc:
        raise WorkspaceError(
            f"cannot run git to clone {display_name(url)}: {exc.strerror}") from exc
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                code = proc.wait(timeout=0.25)
            except subprocess.TimeoutExpired:
                code = None
            if code is not None:
                return code
            # Checked while cloning so a huge repository is stopped early, not after the fact.
            over = tree_bytes(dest) > max_bytes if dest.exists() else False
            if time.monotonic() > deadline or over:
                why = f"is over the {max_bytes / 1e6:g} MB cap" if over else \
                    f"timed out after {timeout:g}s"
                raise WorkspaceError(f"clone of {display_name(url)} {why}")
    finally:
        # Also on an interrupt: no git-remote-* child may outlive the audit.
        if proc.poll() is None:
            kill_group(proc)


def failure_reason(stderr: bytes, code: int, dest: Path) -> str:
    """The line of git's error output that says what went wrong.

    git ends many failures with advice ("... and the repository exists."): the first
    ``fatal:``/``error:`` line names the cause.
    """
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    causes = [ln.split(":", 1)[1].strip() for ln in lines
              if ln.startswith(("fatal:", "error:")) and ln.split(":", 1)[1].strip()]
    reason = causes[0] if causes else (lines[-1] if lines else f"git exited {code}")
    return reason[:200].replace(str(dest), "<checkout>")


def clone(url: str, dest: Path, *, timeout: float, max_bytes: int = MAX_CLONE_BYTES) -> None:
    """Clone ``url`` into ``dest`` with hooks off, no submodules, a timeout and a size cap."""
    dest = dest.absolute()  # git starts in a directory of its own (courtroom.child)
    # A new clone has no repository config yet: the user's own credential helper (for a
    # private repository) is the one setting worth keeping.
    cmd = ["git", *pinned_options(keep=frozenset({"credential.helper"})), "clone", "--quiet",
           "--no-recurse-submodules", "--", url, str(dest)]
    with tempfile.TemporaryFile() as errfile:
        code = _run_capped(cmd, dest, errfile, url, timeout=timeout, max_bytes=max_bytes)
        errfile.seek(0)
        stderr = errfile.read(20_000)
    if code != 0:
        raise WorkspaceError(
            f"clone of {display_name(url)} failed: {failure_reason(stderr, code, dest)}")
    size = tree_bytes(dest)
    if size > max_bytes:
        raise WorkspaceError(
            f"clone of {display_name(url)} is {size // 1_000_000} MB, over the "
            f"{max_bytes / 1e6:g} MB cap"
        )
