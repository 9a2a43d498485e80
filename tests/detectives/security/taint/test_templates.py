"""Rendering a template file: escaped unless the template prints a variable unescaped."""

from __future__ import annotations

import pytest

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint import Engine
from courtroom.detectives.security.taint.templates import find, unescaped

_FLASK = ("from flask import Flask, request, render_template\napp = Flask(__name__)\n\n\n"
          "@app.route('/n')\ndef note():\n"
          "    return render_template('note.html', body=request.args['b'], title='t')\n")
_STARLETTE = ("from fastapi import FastAPI, Request\n"
              "from fastapi.templating import Jinja2Templates\n"
              "app = FastAPI()\ntemplates = Jinja2Templates(directory='templates')\n\n\n"
              "@app.get('/n')\nasync def note(request: Request, b: str = ''):\n"
              "    context = {'request': request, 'body': b}\n"
              "    return templates.TemplateResponse('note.html', context)\n")
_DJANGO = ("from django.shortcuts import render\n\n\ndef note(request):\n"
           "    return render(request, 'notes/note.html', {'body': request.GET['b']})\n")


def _rules(code: str, template: str, path: str) -> list[tuple[str, str, int]]:
    engine = Engine([parse_bytes("views.py", code.encode())], {path: template})
    return [(f.rule, f.steps[-2].path, f.steps[-2].line) for f in engine.run()]


@pytest.mark.parametrize(("code", "path"), [(_FLASK, "templates/note.html"),
                                            (_DJANGO, "notes/templates/notes/note.html"),
                                            (_STARLETTE, "templates/note.html")])
def test_a_variable_marked_safe_is_xss(code: str, path: str) -> None:
    template = "<h1>{{ title|safe }}</h1>\n<div>{{ body | safe }}</div>\n"
    assert _rules(code, template, path) == [("cross-site-scripting", path, 2)]
    assert _rules(code, template.replace("safe", "e"), path) == []


@pytest.mark.parametrize("template", [
    "<div>{{ body }}</div>",
    "<div>{{ title|safe }}</div><div>{{ body|e }}</div>",
    "{% autoescape true %}{{ body }}{% endautoescape %}",
])
def test_an_escaped_variable_is_not(template: str) -> None:
    assert _rules(_FLASK, template, "templates/note.html") == []


def test_what_a_template_prints_unescaped() -> None:
    text = ("{{ a|safe }}\n{% autoescape false %}\n{{ b }} {{ c|upper }}\n{% endautoescape %}"
            "\n{{ d }}\n{% autoescape off %}{{ e.x }}{% endautoescape %}\n{{ f|safeseq }}")
    assert unescaped(text) == {"a": 1, "b": 3, "c": 3, "e": 6, "f": 7}


def test_a_template_is_found_by_the_end_of_its_path() -> None:
    files = {"app/templates/note.html": "", "other/mynote.html": "", "note.html": ""}
    assert sorted(find(files, "note.html")) == ["app/templates/note.html", "note.html"]
