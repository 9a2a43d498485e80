"""The sandboxed workspace: local paths, URL validation, clones, safe reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.workspace import (
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
        from courtroom.detectives.history import read_log

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


def test_vendored_folders_are_skipped(tmp_path: Path) -> None:
    files = {f"{d}/m.py": "x = 1\n" for d in (".venv", "venv", "node_modules", "build", "dist",
                                              "lib/site-packages", "__pycache__")}
    repo = make_repo(tmp_path / "r", files={**files, "src/app.py": "y = 1\n"})
    assert Workspace(repo, "r").files() == ["src/app.py"]


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


def test_memo_computes_once(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, "t")
    calls: list[int] = []
    assert ws.memo("k", lambda: calls.append(1) or 5) == 5
    assert ws.memo("k", lambda: calls.append(1) or 6) == 5
    assert calls == [1]
