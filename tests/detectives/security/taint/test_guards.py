"""Guards: allow-lists, path containment and '..' refusals clear what they defend."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route


@pytest.mark.parametrize("body", [
    "x = request.form['a']\nif x not in ('ls', 'pwd'):\n    return 'no'\nos.system(x)",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


@pytest.mark.parametrize("body", [
    "from pathlib import Path\nbase = Path('/srv')\np = (base / request.args['f']).resolve()\n"
    "if not str(p).startswith(str(base)):\n    return 'no'\nreturn p.read_text()",
    "x = request.args['f']\nif '..' in x:\n    return 'no'\nreturn open('/srv/' + x).read()",
])
def test_sanitised_responses_and_safe_apis(body: str) -> None:
    assert route(body, prelude="") == []


def test_an_unresolved_prefix_check_does_not_sanitise_a_path() -> None:
    body = ("from pathlib import Path\nbase = Path('/srv')\np = base / request.args['f']\n"
            "if not str(p).startswith(str(base)):\n    return 'no'\nreturn p.read_text()")
    assert route(body, prelude="") == ["path-traversal"]
