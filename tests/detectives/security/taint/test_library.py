"""The library's sinks: every sink kind is reached from request data."""

from __future__ import annotations

import pytest

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
