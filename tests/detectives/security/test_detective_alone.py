"""build_report(release=cache): a scan nothing else reads releases the trees, same findings."""

from __future__ import annotations

from courtroom.detectives.parsing import SourceIndex, TreeCache, parse_bytes
from courtroom.detectives.security.detective import build_report

APP = b'''import os

from flask import Flask, request

app = Flask(__name__)
TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


@app.route("/run")
def run():
    os.system("ls " + request.args["dir"])
    return "done"
'''


def _index() -> SourceIndex:
    files = [parse_bytes("app.py", APP), parse_bytes("tests/test_app.py", b"import app\n")]
    return SourceIndex(files, [], len(files))


def test_a_scan_alone_releases_the_trees_and_finds_the_same() -> None:
    held, released = _index(), _index()
    shared = build_report(held)
    cache = TreeCache(budget=1)  # one tree kept: the analysis parses the files again
    alone = build_report(released, release=cache)
    assert all(sf.tree is cache for sf in released.files) and cache.parsed > 0
    assert not any(isinstance(sf.tree, TreeCache) for sf in held.files)
    assert alone == shared
    confirmed = {f.rule_id for f in alone.findings if f.confirmed}
    assert "courtroom/shell-injection" in confirmed and len(confirmed) >= 2
