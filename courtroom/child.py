"""The one way Courtroom starts a child process: apart from the audited tree and from secrets.

The audit may run with the audited tree as its working directory (the Action's checkout,
``courtroom audit .``), and its environment holds the model key and the action's token.
So every child starts in a private empty directory, with an environment built from an
allowlist (no key, token or action input can reach it), in a process group of its own
that is killed whole when a deadline or an output cap is passed. A Python child runs with
``-I``: no ``PYTHON*`` variable, no working or script directory and no user site on its
path, so only the installed packages are importable, never a package the tree plants.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Literal

#: What every child may inherit besides PATH: the home (git's global config), the locale,
#: the time zone and where temporary files go.
BASIC_NAMES = frozenset({"HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "SYSTEMROOT"})
#: Never inherited, whatever a caller asks to keep: credentials and the runner's inputs.
_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|PRIVATE|"
                     r"^(INPUT|GITHUB|ANTHROPIC|AWS|GOOGLE|ACTIONS|AZURE|RUNNER)_", re.I)

#: Why a child was stopped: its deadline passed, or its output passed the cap.
Stop = Literal["time", "output"]

_lock = threading.Lock()
_workdir: list[str] = []


@dataclass(frozen=True)
class Finished:
    """A child that ended: what it printed (up to the cap), its status, and why we stopped it."""

    output: bytes
    returncode: int
    #: None when it ended by itself.
    stopped: Stop | None


def is_secret(name: str) -> bool:
    """Whether an environment variable's name marks a credential or an action input."""
    return _SECRET.search(name) is not None


def absolute_path() -> str:
    """PATH without relative entries: a child may chdir into the audited tree (git -C)
    and a relative entry would then find a program committed there."""
    parts = os.environ.get("PATH", os.defpath).split(os.pathsep)
    return os.pathsep.join(p for p in parts if os.path.isabs(p))


def child_env(keep: Iterable[str] = (), **values: str) -> dict[str, str]:
    """An environment from the allowlist (plus the names in ``keep``), then ``values``."""
    names = BASIC_NAMES | frozenset(keep)
    env = {k: v for k, v in os.environ.items()
           if (k in names or k.startswith("LC_")) and not is_secret(k)}
    env["PATH"] = absolute_path()
    env.update(values)
    return env


def python_module(module: str, *args: str) -> list[str]:
    """The command that runs one of our modules in an isolated interpreter."""
    return [sys.executable, "-I", "-m", module, *args]


def python_file(path: str, *args: str) -> list[str]:
    """The command that runs a script that imports no Courtroom module, isolated (-I also
    leaves the script's own directory off its path)."""
    return [sys.executable, "-I", path, *args]


def workdir() -> str:
    """A private empty directory children start in, made once per process."""
    with _lock:
        return _make_workdir()


def _make_workdir() -> str:
    """``workdir`` for a caller already holding the lock."""
    if not _workdir or not os.path.isdir(_workdir[0]):
        made = tempfile.mkdtemp(prefix="courtroom-child-")
        atexit.register(shutil.rmtree, made, True)
        _workdir[:] = [made]
    return _workdir[0]


def start_forkserver() -> None:
    """Start multiprocessing's fork server (and its resource tracker) from the private
    directory, before a process pool uses it.

    Both start as ``python -c``, which puts the working directory first on ``sys.path``
    before they import ``multiprocessing``: started from a directory holding a package of
    that name, they would run it. Their workers run whole audits (the model key included),
    so only the directory is changed; a worker returns to the caller's own directory.
    The process's directory is changed for that moment: call it before other threads run.
    """
    from multiprocessing import forkserver

    with _lock, contextlib.chdir(_make_workdir()):
        forkserver.ensure_running()


def spawn(cmd: list[str], env: dict[str, str], *, stdin: int | IO[bytes] = subprocess.DEVNULL,
          stdout: int | IO[bytes] = subprocess.PIPE,
          stderr: int | IO[bytes] = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in the private directory, in a new session, with exactly ``env``.

    Raises OSError when the program cannot be started.
    """
    return subprocess.Popen(cmd, stdin=stdin, stdout=stdout, stderr=stderr, env=env,
                            cwd=workdir(), start_new_session=True)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child and everything it started (they share its process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _read(proc: subprocess.Popen[bytes], deadline: float,
          max_bytes: int) -> tuple[bytes, Stop | None]:
    """Read stdout until EOF, the deadline or the cap: never more than ``max_bytes`` kept."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    buf = bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return bytes(buf), "time"
            if not selector.select(left):
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return bytes(buf), None
            if len(buf) + len(chunk) > max_bytes:
                return bytes(buf), "output"
            buf += chunk


def run(cmd: list[str], env: dict[str, str], *, timeout: float, max_bytes: int,
        stderr: int | IO[bytes] = subprocess.DEVNULL) -> Finished:
    """Run ``cmd`` to its end, its output read under a byte cap and a wall-clock deadline.

    Past either the whole process group is killed and ``stopped`` says which; the output
    read so far is returned, so a caller that keeps partial output can, and one that must
    not treats ``stopped`` as failure. Raises OSError when the program cannot be started.
    """
    deadline = time.monotonic() + timeout
    return finish(spawn(cmd, env, stderr=stderr), deadline, max_bytes)


def finish(proc: subprocess.Popen[bytes], deadline: float, max_bytes: int) -> Finished:
    """Read a started child to its end under ``deadline`` and ``max_bytes`` (see ``run``);
    for a caller that first feeds it on stdin."""
    ended, out, stopped = False, b"", None
    try:
        out, stopped = _read(proc, deadline, max_bytes)
        if stopped is None:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
                ended = True
            except subprocess.TimeoutExpired:
                stopped = "time"
    finally:
        # Also when the child itself is gone: a helper it started may still hold the pipe.
        if not ended:
            kill_group(proc)
        assert proc.stdout is not None
        proc.stdout.close()
    return Finished(out, proc.returncode, stopped)
