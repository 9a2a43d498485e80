"""A pull request cannot run code in the audit's child processes (issue 19 §0).

The audited tree plants a package under the name of every module this process has
imported (ours, bandit's, the PDF libraries', the standard library's); each one, when
imported, leaves a marker file outside the tree. A whole audit then runs with the tree as
the working directory and fake secrets in the environment: no marker may appear, and no
child may be handed a secret, the tree as its working directory, or a non-isolated
interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from builders import make_pdf, make_repo

from courtroom.detectives.security import scanner
from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

SECRETS = {
    "ANTHROPIC_API_KEY": "sk-ant-planted-0001",
    "GITHUB_TOKEN": "ghs_planted0002",
    "INPUT_GITHUB_TOKEN": "ghs_planted0003",
    "ACTIONS_RUNTIME_TOKEN": "planted-0004",
    "AWS_SECRET_ACCESS_KEY": "planted-0005",
    "GOOGLE_API_KEY": "planted-0006",
    "DEPLOY_PASSWORD": "planted-0007",
}


def _planted_names() -> list[str]:
    """Every top-level module imported so far: any of them a child might import."""
    names = {name.partition(".")[0] for name in sys.modules}
    return sorted(n for n in names if n.isidentifier() and n != "__main__")


def _marker(path: Path) -> str:
    # posix is built in (no file can shadow it) and usable before open() exists, which
    # a planted encodings package needs: it is imported while the interpreter starts.
    return (f"import posix\nposix.close(posix.open({str(path)!r}, "
            "posix.O_CREAT | posix.O_WRONLY, 0o644))\n")


def _plant(files: dict[str, str], markers: Path) -> None:
    for name in _planted_names():
        files[f"{name}/__init__.py"] = _marker(markers / name)
    for name in ("sitecustomize", "usercustomize"):
        files[f"{name}.py"] = _marker(markers / name)


class _Launches:
    """Records every child process started through subprocess.Popen."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], dict[str, Any]]] = []

    def spy(self) -> type[subprocess.Popen[bytes]]:
        calls = self.calls

        class Spy(subprocess.Popen[bytes]):
            def __init__(self, args: Any, *rest: Any, **kwargs: Any) -> None:
                calls.append(([str(a) for a in args], dict(kwargs)))
                super().__init__(args, *rest, **kwargs)

        return Spy


def _inside(path: object, root: Path) -> bool:
    return path is None or Path(str(path)).resolve().is_relative_to(root.resolve())


@pytest.fixture(params=["cwd", "cwd+PYTHONPATH"])
def planted(request: pytest.FixtureRequest, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    markers = tmp_path / "markers"
    markers.mkdir()
    files = {"app.py": "import subprocess, sys\nsubprocess.run(sys.argv[1], shell=True)\n"}
    _plant(files, markers)
    repo = make_repo(tmp_path / "repo", files=files)
    make_pdf(repo / "report.pdf", ["The detectives run in parallel, then the judges."])
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    if request.param == "cwd+PYTHONPATH":
        # An isolated child ignores every PYTHON* variable.
        monkeypatch.setenv("PYTHONPATH", str(repo))
    monkeypatch.chdir(repo)
    return repo, markers


def test_no_planted_package_is_imported_by_any_child(
        planted: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _repo, markers = planted
    # The bandit child is used for large trees only; lowered so this small tree uses it.
    monkeypatch.setattr(scanner, "PARALLEL_BYTES", 1)
    launches = _Launches()
    monkeypatch.setattr(subprocess, "Popen", launches.spy())
    outcome = audit(AuditConfig(target=".", pdf=Path("report.pdf"), out_dir=tmp_path / "out"))
    assert outcome.verdict is not None
    assert sorted(p.name for p in markers.iterdir()) == []
    commands = [" ".join(args) for args, _ in launches.calls]
    assert any("courtroom.detectives.security.scanner" in c for c in commands), commands
    assert any("pdf_worker" in c for c in commands), commands
    assert any(args[0] == "git" for args, _ in launches.calls), commands
    # The PDF was read and bandit's child answered: the audit is complete.
    assert outcome.verdict.errors == []


def test_every_child_gets_no_secret_and_a_working_directory_outside_the_tree(
        planted: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, _markers = planted
    monkeypatch.setattr(scanner, "PARALLEL_BYTES", 1)
    launches = _Launches()
    monkeypatch.setattr(subprocess, "Popen", launches.spy())
    audit(AuditConfig(target=str(repo), pdf=repo / "report.pdf", out_dir=tmp_path / "out"))
    assert launches.calls
    for args, kwargs in launches.calls:
        env = kwargs.get("env")
        assert env is not None, args
        leaked = {k for k, v in env.items() if k in SECRETS or v in SECRETS.values()}
        assert not leaked, (args, leaked)
        assert "PYTHONPATH" not in env, args
        assert not _inside(kwargs.get("cwd"), repo), args
        if args[0] == sys.executable:
            assert args[1] == "-I", args
