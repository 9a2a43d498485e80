"""The engine on an index whose trees were released: the same flows, parsing files again."""

from __future__ import annotations

from courtroom.detectives.parsing import SourceFile, SourceIndex, TreeCache, parse_bytes
from courtroom.detectives.security.taint import analyse

STORE = '''import os


class Store:
    table = "items"

    def __init__(self, conn, prefix="SELECT * FROM "):
        self.conn = conn
        self.prefix = prefix

    @classmethod
    def clean(cls, command):
        return cls.run("ls " + command.replace(";", ""))

    def find(self, name, limit=10):
        query = self.prefix + self.table + " WHERE name = '" + name + "' LIMIT " + str(limit)
        return self.conn.execute(query)

    @staticmethod
    def run(command):
        wrap = lambda c: os.system(c)
        return wrap(command)
'''
APP = '''import sqlite3

from flask import Flask, request

from helpers.store import Store

app = Flask(__name__)


@app.route("/find")
def find():
    Store(sqlite3.connect("x.db")).find(request.args["name"])
    return "found"


@app.route("/run")
def run():
    Store.run(request.args["command"])
    Store.clean(request.args["other"])
    return "done"
'''
FILES = {"helpers/__init__.py": "", "helpers/store.py": STORE, "app.py": APP}


def _parsed() -> list[SourceFile]:
    return [parse_bytes(path, text.encode()) for path, text in FILES.items()]


def test_released_trees_give_the_same_flows_as_held_ones() -> None:
    held = analyse(_parsed())
    files = _parsed()
    # A budget of one byte keeps a single tree: nearly every read parses its file again.
    cache = TreeCache(budget=1)
    SourceIndex(files, [], len(files)).release(cache)
    released = analyse(files)
    assert sorted({f.rule for f in held}) == ["shell-injection", "sql-injection"]
    assert released == held
    assert cache.parsed > len(files)
