"""Methods on values of unknown type: string formatting, container updates, parsers, queries."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import route


@pytest.mark.parametrize("body", [
    "x = request.cookies.get('a')\nos.system('echo {}'.format(x))",
    "xs = ['safe']\nxs.append(request.form['a'])\nos.system(xs[1])",
])
def test_propagation_reaches_the_shell(body: str) -> None:
    assert route(body) == ["shell-injection"]


@pytest.mark.parametrize("body", [
    "xs = ['safe', request.form['a'], 'more']\nxs.pop(0)\nos.system(xs[1])",
    "import configparser\nc = configparser.ConfigParser()\nc.add_section('s')\n"
    "c.set('s', 'a', 'safe')\nc.set('s', 'b', request.form['a'])\nos.system(c.get('s', 'a'))",
])
def test_decoys_and_sanitisers_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'") == []


@pytest.mark.parametrize("body", [
    "import sqlite3\nsqlite3.connect('d').execute('SELECT ?', (request.form['a'],))\nreturn 'ok'",
])
def test_sanitised_responses_and_safe_apis(body: str) -> None:
    assert route(body, prelude="") == []


@pytest.mark.parametrize(("body", "confirmed"), [
    ("d = {'a': 'ls'}\nfor k in d.keys():\n    os.system(k)", False),
    ("d = {'a': request.form['a']}\nfor v in d.values():\n    os.system(v)", True),
    ("xs = ['ls']\nxs.insert(0, request.form['a'])\nos.system(xs[1])", False),
    ("xs = ['ls']\nxs.insert(0, request.form['a'])\nos.system(xs[0])", True),
])
def test_dict_views_and_list_inserts_keep_elements_apart(body: str, confirmed: bool) -> None:
    assert route(body + "\nreturn 'ok'") == (["shell-injection"] if confirmed else [])


@pytest.mark.parametrize(("body", "found"), [
    ("import re\nPAT = re.compile(r'no')\nx = request.form['a']\nm = PAT.search(x)\n"
     "PAT.search(x, max(0, m.start() - 60), m.end())\nreturn 'ok'", []),
    ("import ldap3\nconn = ldap3.Connection('s')\nx = request.form['a']\n"
     "conn.search('dc=x', '(uid=' + x + ')')\nreturn 'ok'", ["ldap-injection"]),
])
def test_a_compiled_pattern_searching_is_no_ldap_query(body: str, found: list[str]) -> None:
    assert route(body) == found
