"""The web's sinks: each reached from request data, each beside a twin that is safe."""

from __future__ import annotations

import pytest

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint import Engine
from detectives.security.taint.programs import ROUTE, flows, route

_SAX = "import xml.sax, xml.sax.handler, xml.dom.minidom\np = xml.sax.make_parser()\n"
_MONGO = "from pymongo import MongoClient\ndb = MongoClient().shop\n"


@pytest.mark.parametrize(("body", "rule"), [
    ("import requests\nrequests.post(request.args['u'], data={})", "server-side-request-forgery"),
    ("import requests\ns = requests.Session()\ns.get(url=request.args['u'])",
     "server-side-request-forgery"),
    ("import httpx\nwith httpx.Client() as c:\n    c.request('GET', request.args['u'])",
     "server-side-request-forgery"),
    ("import urllib.request\nurllib.request.urlopen(request.args['u'])",
     "server-side-request-forgery"),
    ("import aiohttp\nsession = aiohttp.ClientSession()\nsession.get(request.args['u'])",
     "server-side-request-forgery"),
    ("from lxml import etree\np = etree.XMLParser(resolve_entities=True)\n"
     "etree.fromstring(request.data, p)", "xml-external-entities"),
    (_SAX + "p.setFeature(xml.sax.handler.feature_external_ges, True)\n"
     "xml.dom.minidom.parseString(request.data, p)", "xml-external-entities"),
    (_SAX + "p.setFeature(xml.sax.handler.feature_external_ges, True)\np.parse(request.data)",
     "xml-external-entities"),
    ("from flask import render_template_string\nrender_template_string(request.args['t'])",
     "template-injection"),
    ("import jinja2\njinja2.Template(request.args['t'])", "template-injection"),
    ("from jinja2 import Environment\nEnvironment().from_string(request.args['t'])",
     "template-injection"),
    ("import json\n" + _MONGO + "db.users.find_one(json.loads(request.data))",
     "nosql-injection"),
    (_MONGO + "db.get_collection('u').find({'$where': 'this.n == ' + request.args['n']})",
     "nosql-injection"),
])
def test_each_sink_is_confirmed(body: str, rule: str) -> None:
    assert route(body + "\nreturn 'ok'", prelude="") == [rule]


@pytest.mark.parametrize("body", [
    "import requests\nrequests.get('https://api.example.com/users/' + request.args['u'])",
    "from lxml import etree\netree.fromstring(request.data)",
    "from lxml import etree\netree.fromstring(request.data, etree.XMLParser())",
    _SAX + "xml.dom.minidom.parseString(request.data, p)",
    _SAX + "p.setFeature(xml.sax.handler.feature_external_ges, False)\np.parse(request.data)",
    "from flask import render_template_string\nrender_template_string('<p>{{ q }}</p>', "
    "q=request.args['q'])",
    _MONGO + "db.users.find({'name': request.args['n']})",
    _MONGO + "db.users.find({'$where': 'this.n > 3', 'name': request.args['n']})",
])
def test_safe_twins_are_not_confirmed(body: str) -> None:
    assert route(body + "\nreturn 'ok'", prelude="") == []


@pytest.mark.parametrize(("body", "found"), [
    ("from flask import redirect\nreturn redirect(request.args['next'])", ["open-redirect"]),
    ("from flask import redirect, url_for\nreturn redirect(url_for('home', q=request.args['q']))",
     []),
    ("from django.http import HttpResponse\nreturn HttpResponse(request.args['q'])",
     ["cross-site-scripting"]),
    ("from django.http import HttpResponse\n"
     "return HttpResponse(request.args['q'], content_type='text/plain')", []),
    ("from django.http import JsonResponse\nreturn JsonResponse({'q': request.args['q']})", []),
    ("from django.template.loader import render_to_string\nfrom django.http import "
     "HttpResponse\nreturn HttpResponse(render_to_string('p.html', {'q': request.args['q']}))",
     []),
    ("from aiohttp import web\nreturn web.Response(text=request.args['q'], "
     "content_type='text/html')", ["cross-site-scripting"]),
    ("from aiohttp import web\nreturn web.Response(text=request.args['q'])", []),
    ("from starlette.responses import HTMLResponse\nreturn HTMLResponse(request.args['q'])",
     ["cross-site-scripting"]),
    ("from fastapi.responses import JSONResponse\nreturn JSONResponse({'q': request.args['q']})",
     []),
    ("from pyramid.response import Response\nreturn Response(request.args['q'])",
     ["cross-site-scripting"]),
    ("from pyramid.response import Response\n"
     "return Response(request.args['q'], content_type='application/json')", []),
    ("from litestar import MediaType, Response\n"
     "return Response(request.args['q'], media_type=MediaType.HTML)", ["cross-site-scripting"]),
    ("from litestar import MediaType, Response\n"
     "return Response(request.args['q'], media_type=MediaType.JSON)", []),
    ("import cherrypy\nraise cherrypy.HTTPRedirect(request.args['next'])", ["open-redirect"]),
    ("from jinja2 import Environment\n"
     "return Environment().from_string('<p>{{ q }}</p>').render(q=request.args['q'])",
     ["cross-site-scripting"]),
    ("from jinja2 import Environment\nenv = Environment(autoescape=True)\n"
     "return env.from_string('<p>{{ q }}</p>').render(q=request.args['q'])", []),
])
def test_redirects_and_response_bodies(body: str, found: list[str]) -> None:
    assert route(body, prelude="") == found


_TORNADO = ("import tornado.web\n\n\nclass Base(tornado.web.RequestHandler):\n    pass\n\n\n"
            "class Mixin:\n    pass\n\n\n"
            "class Hello(Mixin, Base):\n    def get(self):\n        q = self.get_argument('q')\n"
            "        self.{call}\n")


@pytest.mark.parametrize(("call", "found"), [
    ("write('<p>' + q + '</p>')", ["cross-site-scripting"]),
    ("write({'name': q + '!'})", []),
    ("redirect(q)", ["open-redirect"]),
    ("redirect('/search?q=' + q)", []),
])
def test_methods_a_handler_inherits_from_the_framework(call: str, found: list[str]) -> None:
    assert [f.rule for f in flows({"h.py": _TORNADO.format(call=call)})] == found


@pytest.mark.parametrize("body", [
    "row = sqlite3.connect(os.environ['DB']).execute('SELECT p FROM jobs WHERE id = ?', "
    "(request.args['id'],)).fetchone()\nsubprocess.run([row[0], '--now'])",
    "cur = sqlite3.connect(os.environ['DB']).cursor()\ncur.execute('SELECT p FROM t WHERE k = ?', "
    "[request.args['k']])\nfor (program,) in cur.fetchall():\n    subprocess.run([program])",
])
def test_a_databases_rows_are_not_the_requests_data(body: str) -> None:
    assert route(body + "\nreturn 'ok'", prelude="import os\nimport sqlite3\nimport subprocess\n") \
        == []


def test_a_command_list_from_the_request_still_names_its_program() -> None:
    assert route("subprocess.run([request.args['p'], '--now'])\nreturn 'ok'") == \
        ["shell-injection"]


@pytest.mark.parametrize(("body", "found"), [
    ("from django.contrib.auth.models import User\n"
     "User.objects.raw(\"SELECT * FROM u WHERE n = '%s'\" % request.args['n'])",
     ["sql-injection"]),
    ("from django.contrib.auth.models import User\n"
     "User.objects.raw('SELECT * FROM u WHERE n = %s', [request.args['n']])", []),
    ("import re\nre.search(request.args['p'], 'text')", []),
])
def test_a_query_method_of_an_imported_object(body: str, found: list[str]) -> None:
    assert route(body + "\nreturn 'ok'", prelude="") == found


@pytest.mark.parametrize(("texts", "parse", "found"), [
    ({"requirements.txt": "lxml==4.9.3\n"}, "etree.fromstring(request.data)",
     ["xml-external-entities"]),
    ({"requirements.txt": "lxml==4.9.3\n"}, "etree.fromstring(request.data, etree.XMLParser())",
     ["xml-external-entities"]),
    ({"requirements.txt": "lxml==4.9.3\n"},
     "etree.fromstring(request.data, etree.XMLParser(resolve_entities=False))", []),
    ({"requirements.txt": "lxml==5.2.1\n"}, "etree.fromstring(request.data)", []),
    ({}, "etree.fromstring(request.data)", []),
])
def test_lxml_resolves_by_default_before_5(texts: dict[str, str], parse: str,
                                            found: list[str]) -> None:
    code = ROUTE + f"    {parse}\n    return 'ok'\n"
    engine = Engine([parse_bytes("app.py", ("from lxml import etree\n" + code).encode())], texts)
    assert [f.rule for f in engine.run()] == found


def test_a_request_object_is_reported_where_it_is_opened() -> None:
    body = ("import urllib.request\nreq = urllib.request.Request(request.args['u'])\n"
            "urllib.request.urlopen(req)\nreturn 'ok'")
    found = flows({"app.py": "from flask import Flask, request\napp = Flask(__name__)\n\n\n"
                             "@app.route('/x')\ndef x():\n" +
                             "".join(f"    {line}\n" for line in body.splitlines())})
    assert [(f.rule, f.line) for f in found] == [("server-side-request-forgery", 9)]
