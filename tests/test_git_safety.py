"""Git never runs a program the audited repository names, and reads only the tree's own
repository (issue 12 items 1 and 6, issue 10 item 3).

Every attack is first shown to work against a plain ``git`` (the control), so a test
here fails if the safeguard it covers is removed.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
from pathlib import Path

import pytest
from builders import make_repo
from detectives.hostile import Attack, hostile_repo, plain_git, unauthorised_server

from courtroom import git
from courtroom.detectives import Case, open_workspace, run_detectives
from courtroom.detectives.repo import clone as clone_module
from courtroom.detectives.repo.history import read_log
from courtroom.errors import WorkspaceError
from courtroom.git import READ_ONLY, git_command, git_dir, git_env, run_git
from courtroom.models import Evidence
from courtroom.pipeline import audit
from courtroom.problems import error_lines
from courtroom.settings.config import AuditConfig

PROGRAM = "./evil.sh"
HOOK = ("commit", "--allow-empty", "-q", "-m", "x")
ATTACKS = [
    Attack("log.showSignature+gpg.program",
           {"log.showSignature": "true", "gpg.program": PROGRAM}, ("log",),
           signature="PGP SIGNATURE"),
    Attack("gpg.openpgp.program",
           {"log.showSignature": "true", "gpg.openpgp.program": PROGRAM}, ("log",),
           signature="PGP SIGNATURE"),
    Attack("gpg.x509.program", {"log.showSignature": "true", "gpg.x509.program": PROGRAM},
           ("log",), signature="SIGNED MESSAGE"),
    Attack("gpg.ssh.program",
           {"log.showSignature": "true", "gpg.format": "ssh", "gpg.ssh.program": PROGRAM,
            "gpg.ssh.allowedSignersFile": "/dev/null"}, ("log",), signature="SSH SIGNATURE"),
    Attack("diff.<driver>.textconv", {"diff.x.textconv": PROGRAM}, ("log", "-p"),
           attributes="*.py diff=x"),
    Attack("diff.<driver>.command", {"diff.y.command": PROGRAM},
           ("log", "-p", "--ext-diff"), attributes="*.py diff=y"),
    Attack("diff.external", {"diff.external": PROGRAM}, ("log", "-p", "--ext-diff")),
    Attack("core.fsmonitor", {"core.fsmonitor": PROGRAM}, ("ls-files",)),
    Attack("filter.<driver>.clean via ls-files -m", {"filter.m.clean": PROGRAM},
           ("ls-files", "-m"), attributes="*.py filter=m"),
    Attack("core.pager", {"core.pager": PROGRAM}, ("log",), tty=True),
    Attack("pager.<command>", {"pager.log": PROGRAM}, ("log",), tty=True),
    Attack("filter.<driver>.clean", {"filter.c.clean": PROGRAM}, ("status",),
           attributes="*.py filter=c"),
    Attack("filter.<driver>.process", {"filter.p.process": PROGRAM}, ("status",),
           attributes="*.py filter=p"),
    Attack("filter.<driver>.smudge", {"filter.s.smudge": PROGRAM},
           ("checkout", "HEAD~1", "--", "a.py"), attributes="*.py filter=s"),
    Attack("core.hooksPath", {"core.hooksPath": "hooks"}, HOOK, programs=("hooks/pre-commit",)),
    Attack("hooks", {}, HOOK, programs=(".git/hooks/pre-commit",)),
    Attack("core.sshCommand", {"core.sshCommand": PROGRAM},
           ("fetch", "ssh://example.invalid/x")),
    Attack("core.gitProxy", {"core.gitProxy": PROGRAM}, ("fetch", "git://example.invalid/x")),
    Attack("credential.helper", {"credential.helper": "!" + PROGRAM}, ("fetch", "{url}"),
           needs_auth=True),
    Attack("core.askPass", {"core.askPass": PROGRAM}, ("fetch", "{url}"), needs_auth=True),
]


def _history_read(evidence: list[Evidence]) -> bool:
    return next(e for e in evidence if e.goal == "Git commit history").found


def _run_safely(repo: Path, attack: Attack, url: str) -> None:
    """What Courtroom does with the same command: refuse it or run it with safeguards."""
    args = [a.replace("{url}", url) for a in attack.control]
    try:
        cmd = git_command(repo, *args)
    except WorkspaceError:
        assert args[0] not in READ_ONLY or any(a.startswith("--ext-diff") for a in args)
        return
    assert cmd is not None
    if attack.tty:
        # The pinned options alone must hold even where a pager would start.
        primary, secondary = pty.openpty()
        try:
            subprocess.run(cmd, stdout=secondary, stderr=subprocess.DEVNULL, env=git_env(),
                           stdin=subprocess.DEVNULL, timeout=20, check=False)
        finally:
            os.close(primary)
            os.close(secondary)
    else:
        run_git(repo, *args, timeout=20)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_no_program_named_by_the_repository_runs(tmp_path: Path, attack: Attack) -> None:
    marker = tmp_path / "MARKER"
    repo = hostile_repo(tmp_path / "repo", marker, [attack])
    with unauthorised_server() as url:
        plain_git(repo, attack, url)
        assert marker.exists(), "control: plain git should have run the program"
        marker.unlink()
        shutil.rmtree(repo)
        repo = hostile_repo(tmp_path / "repo", marker, [attack])
        _run_safely(repo, attack, url)
    with open_workspace(str(repo), timeout=30) as ws:
        assert ws.commit is not None
        commits = read_log(ws.root)
        assert commits is not None and len(commits) >= 2
        found = run_detectives(Case(workspace=ws), only=["history"])
        evidence, errors = found.evidence, found.problems
    assert errors == [] and _history_read(evidence)
    assert not marker.exists()


def test_whole_audit_and_clone_of_a_hostile_repository(tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    packhook = Attack("uploadpack.packObjectsHook",
                      {"uploadpack.packObjectsHook": PROGRAM}, ("log",))
    repo = hostile_repo(tmp_path / "repo", marker, [*ATTACKS, packhook])
    for target in (str(repo), repo.as_uri()):
        outcome = audit(AuditConfig(target=target, out_dir=tmp_path / "out"))
        assert outcome.verdict is not None
        assert _history_read(list(outcome.verdict.evidences.values()))
    assert not marker.exists()


def test_write_commands_are_refused() -> None:
    for args in (("status",), ("diff",), ("checkout", "x"), ("fetch",), ("commit",),
                 ("ls-files", "-m"), ()):
        with pytest.raises(WorkspaceError):
            git_command(Path("."), *args)
    for bad in ("--textconv", "--filters", "--output=/tmp/x", "--show-signature", "--ext-diff"):
        with pytest.raises(WorkspaceError):
            git_command(Path("."), "log", bad)


def test_relative_path_entries_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    # git starts helpers from inside the tree: "." or "" on PATH would find ./git-* there.
    monkeypatch.setenv("PATH", f".:bin::{os.environ['PATH']}")
    parts = git_env()["PATH"].split(os.pathsep)
    assert parts and all(os.path.isabs(p) for p in parts)


def test_checkout_owned_by_another_uid_is_read(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(tmp_path / "repo", ["one", "two", "three"])
    env = {**git_env(), "HOME": str(tmp_path)}
    if os.geteuid() == 0:
        for dirpath, dirnames, filenames in os.walk(tmp_path):
            for name in [*dirnames, *filenames]:
                os.lchown(os.path.join(dirpath, name), 1001, 1001)
        os.lchown(tmp_path, 1001, 1001)
    else:
        # Without root the tree cannot change owner; git's own test switch makes it
        # treat every repository as someone else's.
        env["GIT_TEST_ASSUME_DIFFERENT_OWNER"] = "1"
        monkeypatch.setattr(git, "git_env", lambda: env)
    plain = subprocess.run(["git", "-C", str(repo), "log"], capture_output=True, text=True,
                           env=env)
    assert "dubious ownership" in plain.stderr
    with open_workspace(str(repo), timeout=30) as ws:
        assert ws.commit is not None
        commits = read_log(ws.root)
    assert commits is not None and len(commits) == 3
    # Discovery from the top itself (no explicit git dir) is trusted for that path only.
    assert (run_git(repo, "rev-parse", "--show-toplevel") or "").strip() == str(repo.resolve())


def test_a_git_file_pointing_elsewhere_is_not_followed(tmp_path: Path) -> None:
    other = make_repo(tmp_path / "other", ["secret history one", "secret history two"])
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n")
    (tree / ".git").write_text(f"gitdir: {other / '.git'}\n")
    assert git_dir(tree) is None
    assert run_git(tree, "log", "--format=%s") is None
    with open_workspace(str(tree), timeout=30) as ws:
        assert ws.commit is None
        found = run_detectives(Case(workspace=ws), only=["history"])
        evidence, errors = found.evidence, found.problems
    assert not _history_read(evidence)
    assert "secret" not in evidence[0].model_dump_json()
    assert any(".git" in e and "outside" in e for e in error_lines(errors))


def test_a_git_symlink_pointing_elsewhere_is_not_followed(tmp_path: Path) -> None:
    other = make_repo(tmp_path / "other", ["secret history"])
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / ".git").symlink_to(other / ".git")
    assert git_dir(tree) is None
    assert run_git(tree, "log", "--format=%s") is None


def test_a_git_file_inside_the_tree_is_followed(tmp_path: Path) -> None:
    tree = make_repo(tmp_path / "tree", ["one", "two"])
    (tree / ".git").rename(tree / "gitdir")
    (tree / ".git").write_text("gitdir: gitdir\n")
    assert git_dir(tree) == (tree / "gitdir").resolve()
    commits = read_log(tree)
    assert commits is not None and len(commits) == 2


def test_borrowed_objects_from_outside_are_not_read(tmp_path: Path) -> None:
    other = make_repo(tmp_path / "other", ["outside one"])
    repo = make_repo(tmp_path / "repo", ["inside one"])
    (repo / ".git" / "objects" / "info" / "alternates").write_text(
        str(other / ".git" / "objects") + "\n")
    assert git_dir(repo) is None and read_log(repo) is None


def test_a_clone_keeps_the_users_credential_helper(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh clone has no repository config to distrust; a private repository needs the
    # user's own helper. Everything else stays pinned.
    seen: list[list[str]] = []

    def capture(cmd: list[str], *args: object, **kwargs: object) -> int:
        seen.append(cmd)
        return 1

    monkeypatch.setattr(clone_module, "_run_capped", capture)
    with pytest.raises(WorkspaceError):
        clone_module.clone("https://example.invalid/o/r.git", tmp_path / "d", timeout=5)
    assert "credential.helper=" not in seen[0]
    assert "core.hooksPath=/dev/null" in seen[0] and "core.fsmonitor=false" in seen[0]
    assert "credential.helper=" in (git_command(tmp_path, "log") or [])
