"""A URL whose host the code fixed or checked sends nobody elsewhere."""

from __future__ import annotations

import pytest

from courtroom.detectives.security.taint.url_guards import fixes_host
from detectives.security.taint.programs import route

_PARSE = "from urllib.parse import urlparse\nfrom flask import redirect\nu = request.args['u']\n"


@pytest.mark.parametrize(("prefix", "fixed"), [
    ("https://api.example.com/", True), ("//cdn.example.com/x?", True), ("/users/", True),
    ("https://api.example.com", False), ("/", False), ("https://user@", False),
    ("", False), ("/\\evil", False), (None, False),
])
def test_a_prefix_fixes_the_host_only_when_it_names_it_whole(prefix: object,
                                                             fixed: bool) -> None:
    assert fixes_host(prefix) is fixed


@pytest.mark.parametrize(("url", "found"), [
    ("'https://api.example.com/u/' + request.args['u']", []),
    ("f'https://api.example.com/u/{request.args[\"u\"]}'", []),
    ("'https://api.example.com/u/{}'.format(request.args['u'])", []),
    ("'https://api.example.com/u/%s' % request.args['u']", []),
    ("'https://api.example.com' + request.args['u']", ["server-side-request-forgery"]),
    ("f'https://{request.args[\"h\"]}/x'", ["server-side-request-forgery"]),
    ("'https://api.example.com{}'.format(request.args['u'])", ["server-side-request-forgery"]),
])
def test_a_constant_scheme_and_host_is_no_ssrf(url: str, found: list[str]) -> None:
    assert route(f"import requests\nrequests.get({url})\nreturn 'ok'", prelude="") == found


@pytest.mark.parametrize(("check", "found"), [
    ("p = urlparse(u)\nif p.netloc not in ['example.com']:\n    return 'no'", []),
    ("if urlparse(u).hostname != 'example.com':\n    return 'no'", []),
    ("if not u.startswith('https://example.com/'):\n    return 'no'", []),
    ("from django.utils.http import url_has_allowed_host_and_scheme\n"
     "if not url_has_allowed_host_and_scheme(u, {'example.com'}):\n    return 'no'", []),
    ("p = urlparse(u)\nu = request.args['v']\nif p.netloc not in ['example.com']:\n"
     "    return 'no'", ["open-redirect"]),
    ("if urlparse(u).scheme != 'https':\n    return 'no'", ["open-redirect"]),
    ("if not u.startswith('https://example.com'):\n    return 'no'", ["open-redirect"]),
    ("if urlparse(u).netloc not in request.args['ok']:\n    return 'no'", ["open-redirect"]),
])
def test_a_checked_host_is_no_open_redirect(check: str, found: list[str]) -> None:
    assert route(_PARSE + check + "\nreturn redirect(u)", prelude="") == found


@pytest.mark.parametrize(("location", "found"), [
    ("url_for('login') + '?next=' + request.url", []),
    ("f\"{url_for('login')}?next={request.args['n']}\"", []),
    ("'https://example.com/' + request.args['a'] + '/' + request.args['b']", []),
    ("url_for('index') + request.args['p']", ["open-redirect"]),
    ("f\"{url_for('index')}{request.args['p']}\"", ["open-redirect"]),
])
def test_the_applications_own_url_fixes_the_host_once_a_query_follows(
        location: str, found: list[str]) -> None:
    body = f"from flask import redirect, url_for\nreturn redirect({location})"
    assert route(body, prelude="") == found
