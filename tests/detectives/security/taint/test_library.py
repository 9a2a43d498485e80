"""The library's sinks: every sink kind is reached from request data; which argument is read."""

from __future__ import annotations

import pytest

from courtroom.detectives.security.taint.library import Sink
from courtroom.detectives.security.taint.values import CLEAN, LDAP, LOCAL, Step, tainted
from detectives.security.taint.programs import route


@pytest.mark.parametrize(("body", "rule"), [
    ("return f'<p>{request.args[\"q\"]}</p>'", "cross-site-scripting"),
    ("eval(request.form['a'])", "code-injection"),
    ("import pickle\npickle.loads(request.get_data())", "insecure-deserialization"),
    ("import yaml\nyaml.load(request.data, Loader=yaml.Loader)", "insecure-deserialization"),
    ("import sqlite3\nsqlite3.connect('d').execute(\"SELECT '%s'\" % request.form['a'])",
     "sql-injection"),
    ("open(f'/srv/files/{request.cookies[\"f\"]}').read()", "path-traversal"),
])
def test_every_sink_kind(body: str, rule: str) -> None:
    assert rule in route(body)


def test_a_sinks_argument_is_its_keyword_else_its_position_else_clean() -> None:
    tainted_value = tainted(LOCAL, Step("a.py", 1, 1, "read"))
    search = Sink(LDAP, "ldap-injection", 90, arg=1, keyword="search_filter")
    assert search.argument([CLEAN, CLEAN], {"search_filter": tainted_value}) is tainted_value
    assert search.argument([CLEAN, tainted_value], {}) is tainted_value
    assert search.argument([tainted_value], {}) == CLEAN
