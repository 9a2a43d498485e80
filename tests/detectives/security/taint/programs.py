"""Builders of small programs for the taint engine, and the flows it finds in them."""

from __future__ import annotations

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint import Flow, analyse

ROUTE = "from flask import Flask, request\napp = Flask(__name__)\n\n\n" \
        "@app.route('/x', methods=['POST'])\ndef handler():\n"


def flows(files: dict[str, str]) -> list[Flow]:
    """The flows found in a repository of ``path -> source`` files."""
    return analyse([parse_bytes(path, text.encode()) for path, text in files.items()])


def route(body: str, prelude: str = "import os\nimport subprocess\n") -> list[str]:
    """Rules confirmed in one route handler whose body is ``body`` (indented by us)."""
    code = prelude + ROUTE + "".join(f"    {line}\n" for line in body.strip().splitlines())
    return [f.rule for f in flows({"app.py": code})]


def app(files: dict[str, str]) -> list[tuple[str, int, str]]:
    """(path, line, rule) of every flow found in a repository of ``path -> source`` files."""
    return [(f.path, f.line, f.rule) for f in flows(files)]
