"""State shared between functions: a global one function writes and another reads, an
attribute written on a class or a module. Writing a constant there confirms nothing."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import app

FLASK = "from flask import Flask, request\nimport os\napp = Flask(__name__)\n"


@pytest.mark.parametrize("reader_first", [True, False])
def test_a_global_written_in_one_function_reaches_a_sink_in_another(reader_first: bool) -> None:
    reader = "def run():\n    os.system(CMD)\n\n"
    writer = ("@app.route('/a')\ndef a():\n    global CMD\n    CMD = {}\n    run()\n"
              "    return 'ok'\n\n")
    code = FLASK + "CMD = 'ls'\n\n" + (reader + writer if reader_first else writer + reader)
    assert [r for _p, _l, r in app({"app.py": code.format("request.args.get('x')")})] == [
        "shell-injection"]
    assert app({"app.py": code.format("'pwd'")}) == []


def test_a_local_of_the_same_name_is_not_the_global() -> None:
    code = FLASK + ("CMD = 'ls'\n\ndef run():\n    os.system(CMD)\n\n@app.route('/a')\n"
                    "def a():\n    CMD = request.args.get('x')\n    run()\n    return CMD\n")
    assert [r for _p, _l, r in app({"app.py": code})] == ["cross-site-scripting"]


@pytest.mark.parametrize("write", ["Settings.cmd = {}", "setattr(Settings, 'cmd', {})"])
def test_a_class_attribute_carries_what_was_written_on_it(write: str) -> None:
    settings = "class Settings:\n    cmd = 'ls'\n\n    def run(self):\n" \
               "        os.system(self.cmd)\n"
    view = FLASK + "from settings import Settings\n\n@app.route('/a')\ndef a():\n" \
                   f"    {write}\n    Settings().run()\n    os.system(Settings.cmd)\n" \
                   "    return 'ok'\n"
    found = app({"settings.py": "import os\n\n" + settings,
                 "app.py": view.format("request.args.get('x')")})
    assert found == [("app.py", 10, "shell-injection"), ("settings.py", 7, "shell-injection")]
    assert app({"settings.py": "import os\n\n" + settings, "app.py": view.format("'pwd'")}) == []


def test_a_module_attribute_written_elsewhere_is_read_back() -> None:
    config = "CMD = 'ls'\n"
    runner = "import os\nimport config\n\ndef run():\n    os.system(config.CMD)\n"
    view = FLASK + ("import config\nfrom runner import run\n\n@app.route('/a')\ndef a():\n"
                    "    config.CMD = {}\n    run()\n    return 'ok'\n")
    files = {"config.py": config, "runner.py": runner}
    assert app({**files, "app.py": view.format("request.args['x']")}) == [
        ("runner.py", 5, "shell-injection")]
    assert app({**files, "app.py": view.format("'pwd'")}) == []
