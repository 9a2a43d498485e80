"""The engine: roots, local input, uncalled APIs, test functions, broken files."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import flows, route


@pytest.mark.parametrize("body", [
    "return {'q': request.args['q']}",
])
def test_sanitised_responses_and_safe_apis(body: str) -> None:
    assert route(body, prelude="") == []


def test_cli_input_reaches_the_shell_but_is_no_path_traversal() -> None:
    code = ("import os\nimport sys\n\n\ndef main():\n    os.system('echo ' + sys.argv[1])\n"
            "    for root, _, names in os.walk(sys.argv[2]):\n"
            "        for name in names:\n            open(os.path.join(root, name)).read()\n")
    assert [f.rule for f in flows({"cli.py": code})] == ["shell-injection"]


def test_an_uncalled_api_is_injection_only_when_it_builds_the_command() -> None:
    code = ("import os\n\n\ndef run(cmd):\n    os.system(cmd)\n\n\n"
            "def clone(url):\n    os.system('git clone ' + url)\n")
    assert [(f.rule, f.line) for f in flows({"lib.py": code})] == [("shell-injection", 9)]


def test_a_file_with_syntax_errors_is_still_examined() -> None:
    code = "import os\nimport sys\n\ndef broken(:\n    pass\n\nos.system(sys.argv[1])\n"
    assert [f.line for f in flows({"bad.py": code})] == [7]


def test_a_test_function_is_no_api_whose_arguments_are_input() -> None:
    test = ("import os\n\n\ndef test_run(tmp_path):\n"
            "    os.system('ls ' + str(tmp_path))\n")
    assert flows({"tests/test_lib.py": test}) == []
