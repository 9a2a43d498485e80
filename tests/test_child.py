"""The one child launcher: isolated interpreter, private directory, allowlisted
environment, output cap and a deadline that kills the whole process group."""

from __future__ import annotations

import ast
import json
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from courtroom import child
from courtroom.child import child_env, python_file, run

_REPORT = """\
import json, os, sys
print(json.dumps({"env": sorted(os.environ), "cwd": os.getcwd(), "path": sys.path,
                  "isolated": sys.flags.isolated}))
"""


PACKAGE = Path(child.__file__).parent
#: Calls that start a process; only courtroom/child.py may make them.
_STARTERS = {("subprocess", n) for n in ("Popen", "run", "call", "check_call", "check_output",
                                          "getoutput", "getstatusoutput")} | \
    {("os", n) for n in ("system", "popen", "execv", "execve", "execvp", "execvpe", "execl",
                         "execlp", "spawnv", "spawnve", "spawnl", "posix_spawn", "fork")}


def _starters(path: Path) -> list[str]:
    """Where a module calls a process starter directly (``subprocess.run(...)`` and kin)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) \
                and (node.func.value.id, node.func.attr) in _STARTERS:
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def _pid_alive(pid: int) -> bool:
    """Whether a process still runs (a zombie nobody reaped has stopped running)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_the_environment_is_an_allowlist(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-x")
    monkeypatch.setenv("INPUT_PDF", "report.pdf")
    monkeypatch.setenv("SOMETHING_ELSE", "1")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("PATH", os.pathsep.join(["relative/bin", "/usr/bin", "."]))
    env = child_env(keep=("GITHUB_TOKEN", "SOMETHING_ELSE"), EXTRA="set")
    assert env["PATH"] == "/usr/bin"
    assert env["LC_ALL"] == "C.UTF-8" and env["EXTRA"] == "set"
    assert env["SOMETHING_ELSE"] == "1"
    # Asking to keep a credential does not keep it.
    assert not {"ANTHROPIC_API_KEY", "INPUT_PDF", "GITHUB_TOKEN"} & set(env)


@pytest.mark.parametrize("name", ["GITHUB_TOKEN", "AWS_ACCESS_KEY_ID", "INPUT_ANYTHING",
                                  "ACTIONS_ID_TOKEN_REQUEST_URL", "MY_DB_PASSWORD",
                                  "GOOGLE_APPLICATION_CREDENTIALS", "ANTHROPIC_BASE_URL"])
def test_credentials_and_action_inputs_are_secret(name: str) -> None:
    assert child.is_secret(name)


def test_a_python_child_is_isolated_and_starts_outside_the_caller_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    script = tmp_path / "report_env.py"
    script.write_text(_REPORT)
    monkeypatch.chdir(tree)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_x")
    monkeypatch.setenv("PYTHONPATH", str(tree))
    done = run(python_file(str(script)), child_env(), timeout=30, max_bytes=1 << 20)
    assert (done.returncode, done.stopped) == (0, None)
    seen = json.loads(done.output)
    assert seen["isolated"] == 1
    assert "GITHUB_TOKEN" not in seen["env"] and "PYTHONPATH" not in seen["env"]
    assert seen["cwd"] == child.workdir() and not Path(seen["cwd"]).is_relative_to(tmp_path)
    assert not [p for p in seen["path"] if p in ("", str(tree), str(tmp_path))]
    assert os.listdir(child.workdir()) == []


def test_output_past_the_cap_stops_the_child() -> None:
    cmd = [sys.executable, "-I", "-c", "import sys\nwhile True: sys.stdout.write('x' * 4096)"]
    done = run(cmd, child_env(), timeout=30, max_bytes=100_000)
    assert done.stopped == "output"
    assert len(done.output) <= 100_000 and done.returncode < 0


def test_a_deadline_kills_the_child_and_every_process_it_started() -> None:
    # The child leaves a grandchild holding its output open and exits: the read must not
    # wait for the grandchild, and the grandchild must not outlive the deadline.
    code = ("import subprocess, sys\n"
            "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            "print(p.pid, flush=True)\n")
    began = time.monotonic()
    done = run([sys.executable, "-I", "-c", code], child_env(), timeout=2, max_bytes=1000)
    assert time.monotonic() - began < 10
    assert done.stopped == "time"
    grandchild = int(done.output)
    deadline = time.monotonic() + 5
    while _pid_alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _pid_alive(grandchild)


def test_a_program_that_cannot_start_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        run([str(tmp_path / "missing")], child_env(), timeout=5, max_bytes=10)


def test_the_private_directory_is_made_again_when_removed() -> None:
    first = child.workdir()
    os.rmdir(first)
    second = child.workdir()
    assert os.path.isdir(second) and second != first


def test_no_other_module_starts_a_process() -> None:
    modules = [p for p in sorted(PACKAGE.rglob("*.py")) if p != Path(child.__file__)]
    assert [where for p in modules for where in _starters(p)] == []


def test_the_fork_server_starts_outside_the_caller_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ``python -c`` (how the fork server and resource tracker start) puts its working
    # directory first on sys.path; a tree holding "multiprocessing" would run in its place.
    tree, marker = tmp_path / "tree", tmp_path / "marker"
    (tree / "multiprocessing").mkdir(parents=True)
    (tree / "multiprocessing" / "__init__.py").write_text(
        f"import posix\nposix.close(posix.open({str(marker)!r}, posix.O_CREAT, 0o644))\n")
    monkeypatch.chdir(tree)
    child.start_forkserver()
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        assert pool.submit(os.getcwd).result() == str(tree)
    assert not marker.exists()
    assert os.getcwd() == str(tree)
