"""Test, fixture and example code: proposed by the path, overruled by a production import."""

from __future__ import annotations

import json
from pathlib import Path

from builders import make_repo

from courtroom.cli import main
from courtroom.detectives.parsing import SourceFile, parse_bytes
from courtroom.detectives.security.report import nonproduction_paths

RUNNER = (
    "import subprocess\nimport sys\n\n\ndef run():\n    subprocess.run(sys.argv[1], shell=True)\n"
)


def _files(sources: dict[str, str]) -> dict[str, SourceFile]:
    return {path: parse_bytes(path, text.encode()) for path, text in sources.items()}


def test_a_module_production_imports_is_production_code() -> None:
    files = _files({
        "app/main.py": "from .examples import runner\n",
        "app/examples/runner.py": RUNNER,
        "app/examples/demo.py": RUNNER,
        "lib/core.py": "import lib.fixtures.data as data\n",
        "lib/fixtures/data.py": "X = 1\n",
        "tests/test_app.py": "from app.examples import demo\n",
        "tests/helpers.py": "Y = 2\n",
        # An import nested in a function and a try block loads its module all the same;
        # one written in a string loads nothing.
        "app/lazy.py": "def load():\n    try:\n        from app.examples import lazy\n"
                       "    except ImportError:\n        pass\n"
                       "HELP = 'import app.examples.quoted'\n",
        "app/examples/lazy.py": RUNNER,
        "app/examples/quoted.py": RUNNER,
    })
    expected = {"app/examples/demo.py", "tests/test_app.py", "tests/helpers.py",
                "app/examples/quoted.py"}
    assert nonproduction_paths(files) == expected


def test_an_injection_hidden_in_an_examples_folder_still_fails_the_gate(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", files={
        "app/__init__.py": "",
        "app/main.py": "from app.examples.runner import run\n\nrun()\n",
        "app/examples/__init__.py": "",
        "app/examples/runner.py": RUNNER,
    })
    code = main(["audit", str(repo), "--out", str(tmp_path / "out"), "--quiet"])
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text(encoding="utf-8"))
    confirmed = [f for f in verdict["security"]["findings"] if f["confirmed"]]
    assert [f["path"] for f in confirmed] == ["app/examples/runner.py"]
    assert code == 1 and verdict["conclusion"] == "failure"
