"""List a repository's files once: any name, bounded, source files never crowded out.

File names are hostile: not valid UTF-8, newlines, terminal escapes, bidi overrides. Each
is listed under an escaped *display name* (valid UTF-8, one line, injective) that every
detective and report uses, while reads go through the real name. Limits never silently
drop a file: possible Python files (by name, ``may_be_python``, or by shebang) and other
files have separate caps, and whatever a cap or an unreadable folder leaves out is counted
so the verdict can say so (and fail closed when the security scan could not see every source file).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from courtroom.tree_paths import matcher

#: Folders that usually hold third-party or generated code (so do ``*.egg-info``). They
#: are skipped only when the commit provably holds nothing under them (a local virtualenv
#: or build output git does not track): a committed one is the author's code whatever its
#: name, and no file the author controls (a pyvenv.cfg) decides otherwise.
SKIP_DIRS = frozenset(
    {".venv", "venv", "node_modules", "site-packages", "build", "dist", "__pycache__",
     ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache", "env", ".eggs"}
)
#: Never listed: the repository's database, not a file of the commit.
GIT_DIR = ".git"
#: What the parsing reads by name (extensionless Python scripts are found by their
#: shebang, in detectives.parsing).
SOURCE_SUFFIXES = (".py", ".pyw")
#: Names the interpreter runs as Python source (mod_wsgi loads ``*.wsgi`` as a module).
PYTHON_SUFFIXES = (*SOURCE_SUFFIXES, ".wsgi")
#: Compiled Python the import system loads without its source.
BYTECODE_SUFFIXES = (".pyc", ".pyo")
#: Zip applications: the interpreter runs them by name, and what they hold is not examined.
ZIPAPP_SUFFIXES = (".pyz", ".pyzw")
_NAMED = (*PYTHON_SUFFIXES, *BYTECODE_SUFFIXES, *ZIPAPP_SUFFIXES)
#: Most possible source files listed (see ``may_be_python``): a repository with more is
#: audited on the first ones only, and the scan is marked incomplete.
MAX_SOURCE_FILES = 20_000
#: Most other files listed: padding can fill this cap, never the source one.
MAX_OTHER_FILES = 20_000
#: Directory entries examined before the walk stops (a tree of millions of entries).
MAX_WALK_ENTRIES = 500_000

#: What no detective may list: ignore globs (see courtroom.tree_paths), or a predicate
#: over display names (AuditConfig.skips(), which keeps Python source the tree asks to hide).
Ignore = tuple[str, ...] | Callable[[str], bool]


def extensionless(rel: str) -> bool:
    """Whether a file name has no extension (a script whose shebang may name Python)."""
    return "." not in rel.rsplit("/", 1)[-1]


def may_be_python(rel: str) -> bool:
    """Whether the security scan may treat a file as Python, judged by name alone.

    Extensionless names count because a shebang can make them Python: counting them all
    keeps the source cap name-only for them and only ever errs towards it (which fails
    closed). Any other name is Python only by its shebang (``Listing.scripts``).
    """
    return rel.lower().endswith(_NAMED) or extensionless(rel)


def python_shebang(path: str) -> bool:
    """Whether a regular file's first line starts the interpreter (``#!/usr/bin/env python3``).

    Opened without blocking and read only when regular (a FIFO would stall the walk); the
    kernel reads at most 256 bytes of a shebang line, so that is all that is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        first = os.read(fd, 256).split(b"\n", 1)[0]
    except OSError:
        return False
    finally:
        os.close(fd)
    return first.startswith(b"#!") and (b"python" in first or b"pypy" in first)


def bytecode_without_source(files: list[str]) -> list[str]:
    """Compiled files (``.pyc``, ``.pyo``) whose source is not listed beside them.

    ``import views`` loads a lone ``views.pyc``; bytecode in ``__pycache__`` belongs to
    ``../<name>.py``. Bytecode with its source is only a cache of code that is examined.
    """
    listed = set(files)
    out = []
    for rel in files:
        if not rel.lower().endswith(BYTECODE_SUFFIXES):
            continue
        folder, _, name = rel.rpartition("/")
        stem = name.rsplit(".", 1)[0]
        if folder.rsplit("/", 1)[-1] == "__pycache__":
            folder = folder.rpartition("/")[0]
            stem = name.split(".", 1)[0]
        base = f"{folder}/{stem}" if folder else stem
        if not {f"{base}.py", f"{base}.pyw"} & listed:
            out.append(rel)
    return out


def skipper(ignore: Ignore) -> Callable[[str], bool]:
    """The predicate of an ``Ignore``: globs are compiled once."""
    return ignore if callable(ignore) else matcher(ignore)


# C0/C1 controls, DEL, bidi embeddings/overrides/isolates/marks, line/paragraph separators.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\\]")


def shown_name(real: str) -> str:
    """A file name as shown: undecodable bytes and control characters as escapes.

    ``\\xNN`` is the byte NN (an ASCII control or an undecodable byte), ``\\uNNNN`` the
    character (a C1 control or a format character, so U+0085 never shows as the byte
    0x85), and backslashes are escaped too: two different names never show the same, and
    ``real_bytes`` gives the name back.
    """
    text = os.fsencode(real).decode("utf-8", errors="surrogateescape")

    def escape(match: re.Match[str]) -> str:
        ch = match.group(0)
        if ch == "\\":
            return "\\\\"
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"

    shown = _UNSAFE.sub(escape, text)
    # Undecodable bytes came through as lone surrogates (U+DC80..U+DCFF): show the byte.
    return re.sub(r"[\udc80-\udcff]", lambda m: f"\\x{ord(m.group(0)) - 0xDC00:02x}", shown)


_ESCAPE = re.compile(r"\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|\\)")


def real_bytes(shown: str) -> bytes:
    """The file name's bytes behind a display name: the inverse of ``shown_name``."""
    out = bytearray()
    done = 0
    for match in _ESCAPE.finditer(shown):
        out += shown[done:match.start()].encode("utf-8")
        byte, char = match.group(1), match.group(2)
        if byte:
            out.append(int(byte, 16))
        else:
            out += chr(int(char, 16)).encode("utf-8") if char else b"\\"
        done = match.end()
    return bytes(out + shown[done:].encode("utf-8"))


@dataclass
class Listing:
    """The files of a tree under display names, and what the limits left out."""

    files: list[str] = field(default_factory=list)
    #: display name -> real (surrogate-escaped) relative name, where they differ.
    real: dict[str, str] = field(default_factory=dict)
    #: Listed files not named like Python whose shebang runs the interpreter (``run.cgi``,
    #: ``bin/deploy``).
    scripts: list[str] = field(default_factory=list)
    source_left_out: int = 0
    other_left_out: int = 0
    ignored: int = 0
    #: Ignored files whose shebang makes them Python: the scan did not see them.
    ignored_scripts: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    walk_stopped: bool = False

    @property
    def source_incomplete(self) -> bool:
        """Whether some source file may be missing from the listing."""
        return bool(self.source_left_out or self.unreadable or self.walk_stopped
                    or self.ignored_scripts)

    def notes(self) -> list[str]:
        """One line per limit that left files unread (ignored files are not a limit, unless
        their shebang makes them Python)."""
        out: list[str] = []
        if self.source_left_out:
            out.append(f"{self.source_left_out} possible Python source file(s) (named "
                       "like Python, extensionless or with a Python shebang) beyond the "
                       f"{MAX_SOURCE_FILES}-file cap were not listed or scanned")
        if self.other_left_out:
            out.append(f"{self.other_left_out} other file(s) beyond the {MAX_OTHER_FILES}-file "
                       "cap were not listed")
        if self.walk_stopped:
            out.append(f"the listing stopped after {MAX_WALK_ENTRIES} entries; later files "
                       "were not listed or scanned")
        if self.ignored_scripts:
            out.append(f"{len(self.ignored_scripts)} Python script(s) (by their shebang) "
                       f"matched the ignore globs and were not scanned "
                       f"({', '.join(self.ignored_scripts[:5])})")
        if self.unreadable:
            shown = ", ".join(self.unreadable[:5])
            out.append(f"{len(self.unreadable)} folder(s) could not be read ({shown})")
        return out


#: Whether the audited commit holds a folder (repo-relative real name); None when that
#: cannot be known (no readable git history), and then no folder is skipped by its name.
Committed = Callable[[str], bool] | None


def _keep_dir(root: str, dirpath: str, name: str, committed: Committed) -> bool:
    full = os.path.join(dirpath, name)
    if os.path.islink(full) or name == GIT_DIR:
        return False
    if name in SKIP_DIRS or name.endswith(".egg-info"):
        return committed is None or committed(os.path.relpath(full, root).replace(os.sep, "/"))
    return True


class _Walk:
    """Accumulates one walk: per-kind caps, escaped names, counts of what was left out."""

    def __init__(self, root: str, ignore: Ignore, inside: Callable[[str], bool]) -> None:
        self.root, self.skip, self.inside = root, skipper(ignore), inside
        self.listing = Listing()
        self.source: list[str] = []
        self.other: list[str] = []
        self.seen = 0

    def add(self, dirpath: str, name: str) -> None:
        full = os.path.join(dirpath, name)
        if os.path.islink(full) and not self.inside(full):
            return
        real = os.path.relpath(full, self.root).replace(os.sep, "/")
        shown = shown_name(real)
        if self.skip(shown):
            self.listing.ignored += 1
            # Globs (the tree's own among them) may hide any name not like Python: a script
            # its shebang makes Python would go unscanned, so the scan is incomplete.
            if not may_be_python(shown) and python_shebang(full):
                self.listing.ignored_scripts.append(shown)
            return
        named = shown.lower().endswith(_NAMED)
        script = not named and python_shebang(full)
        is_source = script or may_be_python(shown)
        bucket, cap = (self.source, MAX_SOURCE_FILES) if is_source else \
            (self.other, MAX_OTHER_FILES)
        if len(bucket) >= cap:
            if is_source:
                self.listing.source_left_out += 1
            else:
                self.listing.other_left_out += 1
            return
        bucket.append(shown)
        if script:
            self.listing.scripts.append(shown)
        if shown != real:
            self.listing.real[shown] = real


def walk(root: str, inside: Callable[[str], bool], ignore: Ignore = (),
         committed: Committed = None) -> Listing:
    """List ``root`` once (sorted, deterministic), pruning linked folders and those named
    like third-party code that the commit does not hold."""
    state = _Walk(root, ignore, inside)

    def unreadable(error: OSError) -> None:
        where = os.path.relpath(error.filename or root, root) if error.filename else "."
        state.listing.unreadable.append(shown_name(where))

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable, followlinks=False):
        # Prune in place so os.walk never descends into vendored or linked folders.
        dirnames[:] = sorted(d for d in dirnames if _keep_dir(root, dirpath, d, committed))
        state.seen += len(dirnames) + len(filenames)
        if state.seen > MAX_WALK_ENTRIES:
            state.listing.walk_stopped = True
            break
        for name in sorted(filenames):
            state.add(dirpath, name)
    state.listing.files = sorted(state.source + state.other)
    state.listing.scripts.sort()
    return state.listing
