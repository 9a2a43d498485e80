"""FastAPI, Litestar, Starlette, aiohttp, Sanic and Tornado handlers and sources."""

from __future__ import annotations

import pytest

from detectives.security.taint.apps import SINKS, assert_twins, confirmed, twins

FASTAPI = ("from fastapi import Depends, FastAPI, Request\napp = FastAPI()\n\n\n"
           "def settings():\n    return 'x'\n\n\n"
           "@app.post('/run/{name}')\nasync def run(name: str, request: Request, q: str = '',"
           " cfg: str = Depends(settings)):\n    SINK\n    return {}\n")
FASTAPI_TYPED = ("from fastapi import FastAPI, Request\napp = FastAPI()\n\n\n"
                 "@app.get('/run')\nasync def run(req: Request):\n    SINK\n    return {}\n")
LITESTAR = ("from litestar import Litestar, Request, get\n\n\n@get('/run/{d:str}')\n"
            "async def run(d: str, request: Request) -> dict:\n    SINK\n    return {}\n\n\n"
            "app = Litestar([run])\n")
STARLETTE = ("from starlette.applications import Starlette\nfrom starlette.routing import Route\n"
             "\n\nasync def run(request):\n    SINK\n\n\n"
             "app = Starlette(routes=[Route('/run', endpoint=run)])\n")
AIOHTTP = ("from aiohttp import web\n\n\nasync def run(request):\n    data = await request.post()\n"
           "    SINK\n    return web.Response(text='ok')\n\n\n"
           "app = web.Application()\napp.router.add_post('/run', run)\n")
AIOHTTP_TABLE = ("from aiohttp import web\nroutes = web.RouteTableDef()\n\n\n"
                 "@routes.get('/run/{d}')\nasync def run(request):\n    SINK\n"
                 "    return web.Response(text='ok')\n")
SANIC = ("from sanic import Sanic, response\napp = Sanic('a')\n\n\n@app.route('/run')\n"
         "async def run(request):\n    SINK\n    return response.text('ok')\n")
TORNADO = ("import tornado.web\n\n\nclass Run(tornado.web.RequestHandler):\n"
           "    def post(self, slug):\n        SINK\n        self.write('ok')\n")

CASES = [
    ("fastapi path parameter", FASTAPI, "name"),
    ("fastapi query parameter", FASTAPI, "q"),
    ("fastapi request", FASTAPI, "(await request.json())['d']"),
    ("fastapi query params", FASTAPI, "request.query_params['d']"),
    ("fastapi annotated request", FASTAPI_TYPED, "req.query_params['d']"),
    ("litestar path parameter", LITESTAR, "d"),
    ("litestar request", LITESTAR, "request.query_params['q']"),
    ("starlette query", STARLETTE, "request.query_params['d']"),
    ("starlette form", STARLETTE, "(await request.form())['d']"),
    ("aiohttp post", AIOHTTP, "data['d']"),
    ("aiohttp query", AIOHTTP, "request.query['d']"),
    ("aiohttp match_info", AIOHTTP_TABLE, "request.match_info['d']"),
    ("aiohttp json", AIOHTTP_TABLE, "(await request.json())['d']"),
    ("aiohttp text", AIOHTTP_TABLE, "await request.text()"),
    ("sanic args", SANIC, "request.args.get('d')"),
    ("sanic json", SANIC, "request.json['d']"),
    ("tornado get_argument", TORNADO, "self.get_argument('d')"),
    ("tornado body", TORNADO, "self.request.body.decode()"),
    ("tornado path group", TORNADO, "slug"),
]


@pytest.mark.parametrize("sink", sorted(SINKS))
@pytest.mark.parametrize(("name", "template", "source"), CASES, ids=[c[0] for c in CASES])
def test_a_source_reaching_a_sink_is_confirmed_and_its_sanitised_twin_is_not(
        name: str, template: str, source: str, sink: str) -> None:
    assert_twins(name, template, source, sink)


def test_a_fastapi_dependency_is_the_servers() -> None:
    raw, _ = twins(FASTAPI, "cfg")
    assert raw == []


def test_a_parameter_annotated_as_the_request_is_the_request_object() -> None:
    raw, _ = twins(FASTAPI_TYPED, "req.method", "path")
    assert raw == []


def test_a_handler_registered_by_a_router_call_is_an_entry_point() -> None:
    code = ("from aiohttp import web\n\n\nasync def run(req):\n"
            "    return open('/srv/' + req.match_info['d']).read()\n\n\n"
            "app = web.Application()\napp.router.add_get('/run/{d}', run)\n")
    assert confirmed({"app.py": code}) == ["path-traversal"]
