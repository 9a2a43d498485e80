"""The sandboxed workspace: local paths, URL validation, clones, safe reads."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.parsing import python_paths
from courtroom.detectives.repo import listing
from courtroom.detectives.repo.workspace import (
    Workspace,
    display_name,
    open_workspace,
    validate_url,
)
from courtroom.errors import TargetError, WorkspaceError


def test_local_path_is_read_in_place(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\n", "docs/b.md": "# b\n"})
    with open_workspace(str(repo), timeout=10) as ws:
        assert ws.root == repo.resolve()
        assert ws.display == str(repo)
        assert ws.files() == ["a.py", "docs/b.md"]
        assert ws.files((".py",)) == ["a.py"]
        assert ws.commit is not None and len(ws.commit) == 40
    assert (repo / "a.py").exists()


def test_missing_path_is_a_target_error(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match="not found"):
        with open_workspace(str(tmp_path / "nope"), timeout=5):
            pass


def test_file_target_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(TargetError, match="not a directory"):
        with open_workspace(str(tmp_path / "f.txt"), timeout=5):
            pass


@pytest.mark.parametrize("target", ["--upload-pack=evil", "-c", "-"])
def test_option_like_relative_target_is_refused(target: str) -> None:
    with pytest.raises(TargetError, match="starts with '-'"):
        with open_workspace(target, timeout=5):
            pass


@pytest.mark.parametrize(
    "url",
    [
        "http://github.com/a/b",
        "ext::sh -c touch% /tmp/pwned",
        "ssh://host/repo",
        "git://host/repo",
        "https://github.com/a/b c",
        "https://",
        "file://remotehost/x",
        "git@github.com:--upload-pack=x",
        "ftp://x/y",
    ],
)
def test_refused_urls(url: str) -> None:
    with pytest.raises(TargetError):
        validate_url(url)


@pytest.mark.parametrize(
    "url",
    ["https://github.com/owner/name.git", "git@github.com:owner/name.git", "file:///tmp/x"],
)
def test_accepted_urls(url: str) -> None:
    assert validate_url(url) == url


def test_display_name_hides_credentials() -> None:
    assert display_name("https://user:tok@github.com/owner/name.git") == "owner/name"
    assert display_name("git@github.com:owner/name.git") == "owner/name"
    assert "tok" not in display_name("https://user:tok@gitlab.example/g/p.git")


def test_file_url_clone_works_and_is_cleaned_up(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "src", ["one", "two", "three"])
    with open_workspace(repo.resolve().as_uri(), timeout=30) as ws:
        root = ws.root
        assert root != repo.resolve()
        assert "NOTES.md" in ws.files()
        assert ws.commit is not None
        # full history is kept for the history detective
        from courtroom.detectives.repo.history import read_log

        log = read_log(root)
        assert log is not None and len(log) == 3
    assert not root.exists()
    assert not root.parent.exists()


def test_clone_of_repo_named_like_an_option(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "--upload-pack=evil", files={"a.py": "x = 1\n"})
    with open_workspace(repo.resolve().as_uri(), timeout=30) as ws:
        assert ws.files() == ["a.py"]
    # and read in place via an absolute path
    with open_workspace(str(repo.resolve()), timeout=30) as ws:
        assert ws.files() == ["a.py"]
        assert ws.commit is not None


def test_failed_clone_is_a_workspace_error_and_cleans_up(tmp_path: Path) -> None:
    before = set(Path(os.environ.get("TMPDIR", "/tmp")).glob("courtroom-*"))
    with pytest.raises(WorkspaceError, match="failed"):
        with open_workspace((tmp_path / "missing").resolve().as_uri(), timeout=30):
            pass
    after = set(Path(os.environ.get("TMPDIR", "/tmp")).glob("courtroom-*"))
    assert after <= before


def test_clone_size_cap(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "big", files={"blob.bin": os.urandom(200_000)})
    with pytest.raises(WorkspaceError, match="cap"):
        with open_workspace(repo.resolve().as_uri(), timeout=30, max_bytes=50_000):
            pass


def test_symlinks_out_of_the_tree_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("TOP SECRET")
    (tmp_path / "outdir").mkdir()
    (tmp_path / "outdir" / "x.py").write_text("y = 2\n")
    repo = make_repo(tmp_path / "r", files={"a.py": "x = 1\n"})
    (repo / "leak.txt").symlink_to(outside)
    (repo / "leakdir").symlink_to(tmp_path / "outdir")
    (repo / "inner.py").symlink_to(repo / "a.py")
    ws = Workspace(repo, "r")
    assert "leak.txt" not in ws.files()
    assert not any(f.startswith("leakdir") for f in ws.files())
    assert "inner.py" in ws.files()
    assert ws.read_text("leak.txt") is None
    assert ws.read_text("leakdir/x.py") is None
    assert ws.read_text("../secret.txt") is None
    assert ws.read_text("/etc/passwd") is None
    assert ws.read_text("inner.py") == "x = 1\n"


VENDORED = ("node_modules", "build", "dist", "lib/site-packages", "__pycache__", ".eggs",
            "pkg.egg-info", ".venv", "venv", "env")


def test_untracked_vendored_folders_of_a_checkout_are_skipped(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"src/app.py": "y = 1\n"})
    for folder in VENDORED:
        (repo / folder).mkdir(parents=True)
        (repo / folder / "m.py").write_text("x = 1\n")
    (repo / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    with open_workspace(str(repo), timeout=10) as ws:
        assert ws.files() == ["src/app.py"]


def test_committed_vendored_folders_are_read(tmp_path: Path) -> None:
    # Only what the commit does not hold is provably someone else's code: a committed
    # build/ or a folder with a committed pyvenv.cfg is the author's, whatever its name.
    files = {f"{d}/m.py": "x = 1\n" for d in VENDORED}
    venvs = {f"{d}/pyvenv.cfg": "home = /usr/bin\n" for d in (".venv", "venv", "env")}
    repo = make_repo(tmp_path / "r", files={**files, **venvs, "src/app.py": "y = 1\n"})
    (repo / "build" / "untracked").mkdir()
    (repo / "build" / "untracked" / "x.py").write_text("x = 1\n")
    (repo / "dist" / "build").mkdir()
    (repo / "dist" / "build" / "x.py").write_text("x = 1\n")
    with open_workspace(str(repo), timeout=10) as ws:
        listed = ws.files((".py",))
    assert listed == sorted([*files, "src/app.py", "build/untracked/x.py"])
    # Without a readable history nothing is provably third-party: every folder is read.
    assert "dist/build/x.py" in Workspace(repo, "r").files()
    assert not any(f.startswith(".git/") for f in Workspace(repo, "r").files())


def test_binary_non_utf8_and_huge_files(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={
        "bin.dat": b"\x00\x01\x02binary",
        "latin.py": "name = 'caf\xe9'\n".encode("latin-1"),
        "huge.py": "x = 1\n" * 300_000,
    })
    ws = Workspace(repo, "r")
    assert ws.read_text("bin.dat") is None
    latin = ws.read_text("latin.py")
    assert latin is not None and latin.startswith("name = 'caf")
    assert ws.read_text("huge.py") is None
    assert ws.read_text("missing.py") is None


HOSTILE_NAMES = {
    b"bad\xff.py": "bad\\xff.py",
    b"new\nline.py": "new\\x0aline.py",
    b"esc\x1b[31m.py": "esc\\x1b[31m.py",
    "bidi\u202egnp.py".encode(): "bidi\\u202egnp.py",
    b"back\\xff.py": "back\\\\xff.py",
}


def test_any_file_name_is_listed_escaped_and_read(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    for raw in HOSTILE_NAMES:
        with open(os.path.join(os.fsencode(root), raw), "wb") as fh:
            fh.write(b"x = " + str(len(raw)).encode() + b"\n")
    ws = Workspace(root, "r")
    assert sorted(ws.files()) == sorted(HOSTILE_NAMES.values())
    for raw, shown in HOSTILE_NAMES.items():
        shown.encode("utf-8")  # valid UTF-8: no lone surrogates
        assert shown.isprintable()
        assert ws.read_text(shown) == f"x = {len(raw)}\n"
    # A name that merely looks like an escape is not confused with the real byte.
    assert ws.path_of("bad\\xff.py") != ws.path_of("back\\\\xff.py")


def test_a_display_name_gives_back_the_real_bytes() -> None:
    names = [*HOSTILE_NAMES, b"c1\xc2\x85.py", b"c1\x85.py", b"caf\xc3\xa9 #1?.py", b"\\u0041"]
    shown = [listing.shown_name(os.fsdecode(raw)) for raw in names]
    assert len(set(shown)) == len(names)  # a C1 control never shows as the raw byte
    assert [listing.real_bytes(name) for name in shown] == names


def test_other_files_cannot_crowd_out_source(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_OTHER_FILES", 30)
    root = tmp_path / "r"
    (root / "aaa").mkdir(parents=True)
    for i in range(100):
        (root / "aaa" / f"pad{i:03d}.txt").write_text("")
    (root / "zz_app.py").write_text("x = 1\n")
    ws = Workspace(root, "r")
    assert "zz_app.py" in ws.files((".py",))
    assert len(ws.files()) == 31
    assert ws.listing.other_left_out == 70 and not ws.listing.source_incomplete
    assert ws.listing.notes() == ["70 other file(s) beyond the 30-file cap were not listed"]


def test_padding_cannot_crowd_out_an_extensionless_script(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_OTHER_FILES", 30)
    root = tmp_path / "r"
    (root / "aaa").mkdir(parents=True)
    for i in range(100):
        (root / "aaa" / f"pad{i:03d}.txt").write_text("")
    (root / "zz" / "bin").mkdir(parents=True)
    (root / "zz" / "bin" / "deploy").write_text("#!/usr/bin/env python3\nx = 1\n")
    ws = Workspace(root, "r")
    assert "zz/bin/deploy" in ws.files()
    assert python_paths(ws) == ["zz/bin/deploy"]
    assert ws.listing.other_left_out == 70 and not ws.listing.source_incomplete


def test_extensionless_files_beyond_the_source_cap_leave_the_scan_incomplete(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_SOURCE_FILES", 5)
    root = tmp_path / "r"
    root.mkdir()
    for i in range(8):
        (root / f"tool{i}").write_text("plain text\n")
    (root / "README.md").write_text("# r\n")
    ws = Workspace(root, "r")
    assert ws.files() == ["README.md", *(f"tool{i}" for i in range(5))]
    assert ws.listing.source_left_out == 3 and ws.listing.source_incomplete


@pytest.mark.parametrize(("rel", "expected"), [
    ("a.py", True), ("pkg/GUI.PYW", True), ("bin/deploy", True), ("Makefile", True),
    ("notes.txt", False), ("pkg.d/readme", True), ("bin/.envrc", False),
])
def test_what_may_be_python_is_judged_by_the_name_alone(rel: str, expected: bool) -> None:
    assert listing.may_be_python(rel) is expected


def test_source_left_out_by_a_cap_is_reported(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_SOURCE_FILES", 5)
    root = tmp_path / "r"
    root.mkdir()
    for i in range(8):
        (root / f"m{i}.py").write_text("x = 1\n")
    ws = Workspace(root, "r")
    assert ws.files() == [f"m{i}.py" for i in range(5)]
    assert ws.listing.source_incomplete
    assert ws.listing.notes() == [
        "3 possible Python source file(s) (named like Python, extensionless or with a "
        "Python shebang) beyond the 5-file cap were not listed or scanned"]


def test_a_huge_tree_stops_the_walk_and_says_so(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "MAX_WALK_ENTRIES", 20)
    root = tmp_path / "r"
    for d in range(5):
        (root / f"d{d}").mkdir(parents=True)
        for i in range(10):
            (root / f"d{d}" / f"f{i}.txt").write_text("")
    ws = Workspace(root, "r")
    assert ws.listing.walk_stopped and ws.listing.source_incomplete
    assert any("stopped after 20 entries" in n for n in ws.listing.notes())


def test_ignore_globs_leave_files_out_and_are_counted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", files={"src/a.py": "x = 1\n", "gen/b.py": "y = 2\n",
                                            "gen/deep/c.py": "z = 3\n"})
    with open_workspace(str(repo), timeout=10, ignore=("gen",)) as ws:
        assert ws.files() == ["src/a.py"]
        assert ws.listing.ignored == 2
        assert ws.read_text("src/a.py") == "x = 1\n"


def test_file_url_of_a_non_repository_names_the_cause() -> None:
    with pytest.raises(WorkspaceError) as caught:
        with open_workspace("file:///etc", timeout=30):
            pass
    message = str(caught.value)
    assert message == ("clone of file:///etc failed: '/etc' does not appear to be a git "
                       "repository")


def _processes_mentioning(text: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        try:
            cmdline = Path("/proc", pid, "cmdline").read_bytes()
        except OSError:
            continue
        if pid.isdigit() and text.encode() in cmdline:
            found.append(cmdline.replace(b"\0", b" ").decode("utf-8", "replace"))
    return found


def test_a_hung_clone_is_killed_with_its_helpers(tmp_path: Path) -> None:
    # A "git server" that accepts the connection and never answers (TLS never starts).
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    url = f"https://127.0.0.1:{server.getsockname()[1]}/owner/hang.git"
    started = time.monotonic()
    try:
        with pytest.raises(WorkspaceError, match="timed out after 5s"):
            with open_workspace(url, timeout=5):
                pass
        took = time.monotonic() - started
        leftover = _processes_mentioning(url)
    finally:
        server.close()
    assert took < 10
    assert leftover == []
