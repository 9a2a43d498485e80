"""Functions as real code writes them: static and class methods called through their class
from another module, async helpers awaited, decorated functions. Each is interpreted like a
plain function; a constant argument confirms nothing."""

from __future__ import annotations

import pytest

from detectives.security.taint.programs import app, flows

FLASK = "from flask import Flask, request\nimport os\nimport sqlite3\napp = Flask(__name__)\n\n"
CREATE = """class Student:
    @staticmethod
    async def create(conn, name):
        q = "INSERT INTO students (name) VALUES ('%(name)s')" % {'name': name}
        async with conn.cursor() as cur:
            await cur.execute(q)
"""
FIND = """class Student:
    @classmethod
    def find(cls, conn, name):
        return cls.query(conn, "SELECT * FROM students WHERE name = '%s'" % name)

    @staticmethod
    def query(conn, q):
        return conn.execute(q)
"""


@pytest.mark.parametrize("dao, call, line", [
    (CREATE, "await Student.create(conn, {})", 6),
    (FIND, "Student.find(conn, {})", 8),
])
def test_a_static_or_class_method_called_through_its_class(dao: str, call: str,
                                                            line: int) -> None:
    view = (FLASK + "from models.dao import Student\n\n@app.route('/a')\nasync def a():\n"
            "    conn = sqlite3.connect('db')\n    " + call + "\n    return 'ok'\n")
    files = {"models/__init__.py": "", "models/dao.py": dao}
    assert app({**files, "app.py": view.format("request.args.get('name')")}) == [
        ("models/dao.py", line, "sql-injection")]
    assert app({**files, "app.py": view.format("'alice'")}) == []


def test_an_awaited_helper_returns_its_taint() -> None:
    helper = "async def command(v):\n    return 'ls ' + v\n\n"
    view = ("@app.route('/a')\nasync def a():\n    c = await command({})\n    os.system(c)\n"
            "    return 'ok'\n")
    assert [r for _p, _l, r in app({"app.py": FLASK + helper + view.format(
        "request.args['d']")})] == ["shell-injection"]
    assert app({"app.py": FLASK + helper + view.format("'/tmp'")}) == []


@pytest.mark.parametrize("decorator", ["@functools.lru_cache(maxsize=8)",
                                       "@functools.wraps(print)",
                                       "@functools.lru_cache\n@functools.wraps(print)"])
def test_a_decorated_function_is_analysed_as_if_undecorated(decorator: str) -> None:
    helper = decorator + "\ndef run(v):\n    os.system('ls ' + v)\n\n"
    view = "@app.route('/a')\ndef a():\n    run({})\n    return 'ok'\n"
    code = FLASK + "import functools\n\n" + helper + view
    [found] = flows({"app.py": code.format("request.args['d']")})
    assert found.rule == "shell-injection"
    assert "passed to run()" in [s.note for s in found.steps]
    assert "reads request data" in found.steps[0].note
    assert app({"app.py": code.format("'/tmp'")}) == []
