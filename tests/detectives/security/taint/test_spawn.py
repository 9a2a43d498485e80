"""The exec/spawn families: input that scripts a shell or names the program is shell
injection; an argument handed to another program, or a constant script, is not."""

from __future__ import annotations

import pytest

from courtroom.detectives.security.taint.spawn import command
from courtroom.detectives.security.taint.values import CLEAN, Val, const
from detectives.security.taint.programs import route

X = 'x = request.args.get("x")\n'


def confirmed(call: str) -> list[str]:
    return route(X + call + "\nreturn 'ok'")


@pytest.mark.parametrize("call", [
    'os.execv("/bin/sh", ["sh", "-c", {}])',
    'os.execve("/bin/bash", ["bash", "-c", {}], {{}})',
    'os.execl("/bin/sh", "sh", "-c", {})',
    'os.execle("/bin/sh", "sh", "-c", {}, {{}})',
    'os.execvp("sh", ["sh", "-c", {}])',
    'os.spawnl(os.P_WAIT, "/bin/sh", "sh", "-c", {})',
    'os.spawnv(os.P_WAIT, "/bin/sh", ["sh", "-c", {}])',
    'os.posix_spawn("/bin/sh", ["sh", "-c", {}], {{}})',
    'shell = "/bin/sh"\nargv = ["sh", "-c"]\nargv.append({})\nos.execv(shell, argv)',
])
def test_input_scripting_a_shell_is_confirmed(call: str) -> None:
    assert confirmed(call.format("x")) == ["shell-injection"]
    assert confirmed(call.format('"ls -l"')) == []


@pytest.mark.parametrize("call", [
    'os.execv(x, ["prog"])',
    'os.execlp(x, "prog")',
    'os.spawnvp(os.P_WAIT, x, ["prog"])',
])
def test_input_naming_the_program_is_confirmed(call: str) -> None:
    assert confirmed(call) == ["shell-injection"]


@pytest.mark.parametrize("call", [
    'os.execv("/bin/ls", ["ls", x])',
    'os.execl("/usr/bin/grep", "grep", "-e", x, "/srv/log")',
    'os.spawnv(os.P_WAIT, "/bin/cat", ["cat", x])',
    'os.execv("/bin/sh", [x])',
])
def test_an_argument_to_another_program_is_not_a_command_line(call: str) -> None:
    assert confirmed(call) == []


def test_the_layout_of_each_family_is_read_from_its_name() -> None:
    shell, script, env = const("/bin/sh"), Val(kinds=frozenset({"shell"})), Val(
        kinds=frozenset({"sql"}))
    argv = Val(seq=(const("sh"), const("-c"), script))
    assert command("os.execle", [shell, const("sh"), script, env]) == (shell, script)
    assert command("os.spawnve", [const(0), shell, argv, env]) == (shell, script)
    assert command("os.posix_spawnp", [shell, argv, env]) == (shell, script)
    assert command("os.spawnl", [const(0)]) == (CLEAN, CLEAN)
