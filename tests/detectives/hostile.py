"""Builders for hostile repositories: config that names programs, signed heads, bad names.

Each "program" is a shell script committed in the repository that only touches a marker
file outside it, so a test can tell whether git ran it.
"""

from __future__ import annotations

import os
import pty
import subprocess
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from builders import Commit, make_repo


def evil_script(marker: Path) -> str:
    """A program that leaves ``marker`` behind and fails (so git stops waiting on it)."""
    return f"#!/bin/sh\ntouch '{marker}'\nexit 1\n"


@dataclass(frozen=True)
class Attack:
    """Repository settings naming a program, and a plain git command that runs it."""

    name: str
    config: Mapping[str, str]
    control: tuple[str, ...]
    attributes: str = ""
    #: Armour of a signature put on HEAD (git only verifies signed commits).
    signature: str | None = None
    #: Extra files (paths may be under .git/) that are the program too.
    programs: tuple[str, ...] = ()
    #: The control needs a terminal on stdout (pagers) or an HTTP 401 (credentials).
    tty: bool = False
    needs_auth: bool = False
    env: Mapping[str, str] = field(default_factory=dict)


def signed_head(repo: Path, armour: str) -> None:
    """Put a commit carrying a (bogus) signature of the given armour on top of HEAD."""
    def git(*args: str, data: bytes | None = None) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], input=data, check=True,
                              capture_output=True).stdout.decode().strip()

    tree, parent = git("rev-parse", "HEAD^{tree}"), git("rev-parse", "HEAD")
    body = (f"tree {tree}\nparent {parent}\nauthor Ada <ada@example.com> 1770000000 +0000\n"
            f"committer Ada <ada@example.com> 1770000000 +0000\n"
            f"gpgsig -----BEGIN {armour}-----\n \n c2ln\n -----END {armour}-----\n\nSigned\n")
    sha = git("hash-object", "-t", "commit", "-w", "--stdin", data=body.encode())
    git("update-ref", "HEAD", sha)


def hostile_repo(root: Path, marker: Path, attacks: list[Attack]) -> Path:
    """A two-commit repository whose config, attributes and hooks carry ``attacks``."""
    script = evil_script(marker)
    repo = make_repo(root, [Commit("Add app", {"a.py": "x = 1\n", "evil.sh": script}),
                            Commit("Change app", {"a.py": "x = 2\n"})])
    os.chmod(repo / "evil.sh", 0o755)
    for attack in attacks:
        for rel in attack.programs:
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(script)
            os.chmod(repo / rel, 0o755)
        for key, value in attack.config.items():
            subprocess.run(["git", "-C", str(repo), "config", "--add", key, value], check=True)
        if attack.attributes:
            with (repo / ".git" / "info" / "attributes").open("a") as fh:
                fh.write(attack.attributes + "\n")
        if attack.signature:
            signed_head(repo, attack.signature)
    # The index is now older than a.py's mtime: status must re-read (and filter) it.
    os.utime(repo / "a.py")
    return repo


def plain_git(repo: Path, attack: Attack, url: str = "") -> None:
    """Run the attack's control command the way a careless tool would (no safeguards)."""
    args = [a.replace("{url}", url) for a in attack.control]
    env = {"PATH": os.environ["PATH"], "HOME": str(repo.parent), "GIT_CONFIG_NOSYSTEM": "1",
           **attack.env}
    cmd = ["git", "-C", str(repo), *args]
    if attack.tty:
        primary, secondary = pty.openpty()
        try:
            subprocess.run(cmd, stdout=secondary, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, env=env, timeout=20, check=False)
        finally:
            os.close(primary)
            os.close(secondary)
        return
    subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=20,
                   check=False)


class _Unauthorised(BaseHTTPRequestHandler):
    """Answers every request 401 with a Basic challenge, so git asks for credentials."""

    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="x"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return None


@contextmanager
def unauthorised_server() -> Iterator[str]:
    """A local HTTP git 'server' that demands credentials; yields its repository URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Unauthorised)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/x.git"
    finally:
        server.shutdown()
        server.server_close()
