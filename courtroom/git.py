"""The one way Courtroom runs git on an audited repository: read-only, and never a program
the repository names.

A repository's own configuration (``.git/config``, attributes, hooks) is written by the
author of the pull request. Every setting that makes git start a program is pinned on the
command line, which outranks repository config; commands that could run a filter or touch
the working tree are not allowed at all; and a ``.git`` that points outside the audited
tree is not followed.
"""

from __future__ import annotations

import os
from pathlib import Path

from courtroom.child import child_env, run
from courtroom.errors import WorkspaceError

SSH_COMMAND = "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new"

#: Settings through which repository config could make git run a program, pinned to inert
#: values. Command-line config is read last, so it wins over the repository's own.
PINNED_CONFIG: tuple[tuple[str, str], ...] = (
    ("core.hooksPath", "/dev/null"),
    ("core.fsmonitor", "false"),
    ("core.pager", "cat"),
    ("core.sshCommand", SSH_COMMAND),
    ("core.askPass", "echo"),
    # An empty helper resets the list collected from lower-priority files.
    ("credential.helper", ""),
    ("log.showSignature", "false"),
    ("gpg.program", "false"),
    ("gpg.openpgp.program", "false"),
    ("gpg.x509.program", "false"),
    ("gpg.ssh.program", "false"),
    ("diff.external", ""),
    # Mailmaps named by config are read from anywhere on disk (the tree's .mailmap stays).
    ("mailmap.file", "/dev/null"),
    ("mailmap.blob", ""),
    ("protocol.ext.allow", "never"),
    ("submodule.recurse", "false"),
)

#: Sub-commands that only read objects and refs. Anything that compares the index with
#: the working tree (status, diff, ls-files -m, describe --dirty) or writes it (checkout)
#: can run clean/smudge filters and fsmonitor hooks, so it is refused.
READ_ONLY = frozenset({
    "rev-parse", "log", "show", "rev-list", "cat-file", "ls-tree", "for-each-ref",
    "show-ref", "shortlog", "diff-tree", "merge-base", "count-objects",
})
#: Flags forced on sub-commands that can render diffs or signatures: external diff and
#: textconv drivers are programs named by attributes and config.
_FORCED_FLAGS: dict[str, tuple[str, ...]] = {
    "log": ("--no-ext-diff", "--no-textconv", "--no-show-signature"),
    "show": ("--no-ext-diff", "--no-textconv", "--no-show-signature"),
    "diff-tree": ("--no-ext-diff", "--no-textconv"),
}
#: Arguments that would hand content to filter or textconv programs, or write files.
_REFUSED_ARGS = ("--textconv", "--filters", "--show-signature", "--output", "--ext-diff")


#: What a clone or ls-remote also needs to reach a remote: the proxy, the CA bundle and
#: the user's ssh agent. Read-only commands get none of them (no transport is allowed).
NETWORK_NAMES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY",
                 "all_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR",
                 "SSH_AUTH_SOCK")


def git_env(*, network: bool = False) -> dict[str, str]:
    """Environment for git from an allowlist: no prompts, no system config, safe transports.

    Nothing else is inherited: git runs helpers the repository's config may influence, so
    the model key, the action's token and its inputs never reach it; relative PATH
    entries are dropped (``child.absolute_path``).
    """
    # XDG_CONFIG_HOME: where the user's own git config may live (as HOME, in BASIC_NAMES).
    return child_env(
        ("XDG_CONFIG_HOME", *(NETWORK_NAMES if network else ())),
        GIT_TERMINAL_PROMPT="0",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_ASKPASS="echo",
        GCM_INTERACTIVE="never",
        GIT_LFS_SKIP_SMUDGE="1",
        GIT_ALLOW_PROTOCOL="https:ssh:file",
        GIT_SSH_COMMAND=SSH_COMMAND,
        # Empty disables core.gitProxy, which repository config could otherwise name.
        GIT_PROXY_COMMAND="",
        GIT_PAGER="cat",
        PAGER="cat",
    )


#: What a read-only command runs under besides ``git_env``: a partial clone fetches a
#: missing object from its promisor remote on demand, which would reach the network or a
#: repository outside the tree. Newer git obeys GIT_NO_LAZY_FETCH; for older git, no
#: transport is allowed at all (no protocol is named "none"). Replacement refs are
#: ignored too: refs/replace/* in the tree's repository would swap which commit or blob
#: a read returns.
NO_FETCH_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "none",
                "GIT_NO_REPLACE_OBJECTS": "1"}
#: Most a read-only command may print. A commit message or a blob is the repository
#: author's to size (a 219 KB pack can hold gigabytes of subject lines): past this git is
#: killed and the read fails with the reason, never cut short and taken as complete.
MAX_OUTPUT_BYTES = 32 << 20


def pinned_options(root: Path | None = None, *, keep: frozenset[str] = frozenset()) -> list[str]:
    """``-c key=value`` pairs for every pinned setting but ``keep`` (and ``safe.directory``).

    git honours ``safe.directory`` only from system, global or command-line config, so a
    checkout owned by another uid (the Actions container runs as root over the runner's
    workspace) is trusted here, for this one path, without reading system config.
    """
    options = ["--no-pager"]
    for key, value in PINNED_CONFIG:
        if key not in keep:
            options += ["-c", f"{key}={value}"]
    if root is not None:
        options += ["-c", f"safe.directory={root}"]
    return options


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def _alternates_inside(objects: Path, root: Path) -> bool:
    """Whether every alternate object store the repository borrows from is inside root."""
    try:
        lines = (objects / "info" / "alternates").read_text("utf-8", "replace").splitlines()
    except OSError:
        return True
    stores = [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]
    return all(_inside((objects / s).resolve(), root) for s in stores)


def git_dir(root: Path) -> Path | None:
    """The repository's own git directory when it (and all it borrows) lies inside root.

    A ``.git`` *file* (``gitdir: /elsewhere``), a ``commondir`` or an alternates file can
    make git read another repository; the history of a tree is only what the tree holds.
    """
    root = root.resolve()
    dot = root / ".git"
    try:
        if dot.is_file():
            text = dot.read_text("utf-8", "replace").strip()
            if not text.startswith("gitdir:"):
                return None
            found = (root / text.removeprefix("gitdir:").strip()).resolve()
        elif dot.is_dir():
            found = dot.resolve()
        else:
            return None
        common = found
        if (found / "commondir").is_file():
            shared = (found / "commondir").read_text("utf-8", "replace").strip()
            common = (found / shared).resolve()
    except (OSError, ValueError):
        return None
    if not (_inside(found, root) and _inside(common, root)):
        return None
    if not _alternates_inside(common / "objects", root):
        return None
    return found


def _check(args: tuple[str, ...]) -> None:
    """Refuse a sub-command or argument that could run a program or write (a bug, not input)."""
    if not args or args[0] not in READ_ONLY:
        raise WorkspaceError(f"git {args[0] if args else ''} is not a read-only command")
    refused = [a for a in args if a.startswith(_REFUSED_ARGS)]
    if refused:
        raise WorkspaceError(f"git argument {refused[0]} could run a program or write files")


def git_command(root: Path, *args: str) -> list[str] | None:
    """The argument list that runs ``git args`` on root with every safeguard applied.

    None when the tree's ``.git`` leads outside it: such a repository is not read.
    """
    _check(args)
    resolved = root.resolve()
    cmd = ["git", *pinned_options(resolved)]
    found = git_dir(resolved)
    if found is not None:
        # Explicit: git does no discovery of its own, so nothing else is followed.
        cmd += [f"--git-dir={found}", f"--work-tree={resolved}"]
    elif os.path.lexists(resolved / ".git"):
        return None
    sub, rest = args[0], args[1:]
    return [*cmd, "-C", str(resolved), sub, *_FORCED_FLAGS.get(sub, ()), *rest]


def git_bytes(root: Path, *args: str, timeout: float = 30.0,
              max_bytes: int | None = None) -> bytes | None:
    """Run a read-only git command in ``root``; its raw output, None when git fails, is
    missing or passes the deadline.

    Raises WorkspaceError for output over ``max_bytes`` (default MAX_OUTPUT_BYTES): the
    audit must say it could not read it, not go on with part of it. Also for a sub-command
    or argument that is never allowed (a programming error, not the repository's doing).
    """
    cmd = git_command(root, *args)
    if cmd is None:
        return None
    cap = MAX_OUTPUT_BYTES if max_bytes is None else max_bytes
    try:
        done = run(cmd, {**git_env(), **NO_FETCH_ENV}, timeout=timeout, max_bytes=cap)
    except OSError:
        return None
    if done.stopped == "output":
        raise WorkspaceError(f"git {args[0]} printed more than {cap / 1e6:g} MB, the cap; "
                             "it was stopped and nothing it printed was used")
    if done.stopped is not None or done.returncode != 0:
        return None
    return done.output


def run_git(root: Path, *args: str, timeout: float = 30.0,
            max_bytes: int | None = None) -> str | None:
    """``git_bytes`` as text (undecodable bytes replaced); None when git fails or is missing."""
    out = git_bytes(root, *args, timeout=timeout, max_bytes=max_bytes)
    return None if out is None else out.decode("utf-8", errors="replace")
