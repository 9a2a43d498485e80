"""Guards: allow-lists, path containment and '..' refusals clear what they defend."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import flows, route


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


DJANGO = "from django.http import HttpResponse\nfrom django.views.decorators.csrf import " \
         "csrf_exempt\nimport os\n\n\n"


@pytest.mark.parametrize("test", [
    "request.method == 'POST'", "request.user.is_authenticated", "request.GET['mode'] == 'run'",
    "request.method.isalpha()", "request.POST.get('kind') in ('a', 'b')",
])
@pytest.mark.parametrize("decorator", ["", "@csrf_exempt\n"])
def test_a_test_of_one_part_of_the_request_keeps_the_other_parts_tainted(
        test: str, decorator: str) -> None:
    view = (f"{decorator}def view(request):\n    if {test}:\n"
            "        eval(request.POST.get('val'))\n    return HttpResponse('ok')\n")
    assert [f.rule for f in flows({"views.py": DJANGO + view})] == ["code-injection"]


@pytest.mark.parametrize("guard", [
    "if not cmd.isalnum():\n        return 'no'",
    "if not cmd.strip().isdigit():\n        return 'no'",
    "if cmd not in ('ls', 'pwd'):\n        return 'no'",
])
def test_a_test_of_the_exact_value_still_sanitises_it(guard: str) -> None:
    body = f"cmd = request.args['c']\n{guard}\nos.system(cmd)"
    assert route(body + "\nreturn 'ok'") == []


def test_a_library_conversion_tests_its_argument() -> None:
    body = ("base = '/srv/'\np = os.path.realpath(base + request.args['f'])\n"
            "if not os.path.realpath(p).startswith(base):\n    return 'no'\n"
            "return open(p).read()")
    assert route(body, prelude="import os\n") == []
    assert route(body.replace("realpath(base", "join(base"), prelude="import os\n") == [
        "path-traversal"]
