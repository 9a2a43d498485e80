"""Handlers and sources of Flask, Django, DRF, Bottle, CherryPy, Falcon and Pyramid."""

from __future__ import annotations

import pytest

from detectives.security.taint.apps import SINKS, assert_twins, confirmed, twins

FLASK_BLUEPRINT = ("from flask import Blueprint, request\nbp = Blueprint('b', __name__)\n\n\n"
                   "@bp.route('/run')\ndef run():\n    SINK\n    return 'ok'\n")
FLASK_METHOD_VIEW = ("from flask import request\nfrom flask.views import MethodView\n\n\n"
                     "class Run(MethodView):\n    def post(self):\n        SINK\n"
                     "        return 'ok'\n")
DJANGO_DECORATED = (
    "from django.http import HttpResponse\n"
    "from django.views.decorators.csrf import csrf_exempt\n\n\n"
    "@csrf_exempt\ndef run(request):\n    if request.user.is_authenticated:\n"
    "        if request.method == 'POST':\n            try:\n                SINK\n"
    "            except OSError:\n                pass\n    return HttpResponse('ok')\n")
DJANGO_CLASS = ("from django.views import View\nfrom django.http import HttpResponse\n\n\n"
                "class Run(View):\n    def get(self, request, *args, **kwargs):\n"
                "        SINK\n        return HttpResponse('ok')\n")
DRF_API_VIEW = ("from rest_framework.views import APIView\n\n\n"
                "class Run(APIView):\n    def post(self, request):\n        SINK\n")
DRF_VIEWSET = ("from rest_framework import viewsets\n\n\n"
               "class Runs(viewsets.ModelViewSet):\n    def list(self, request):\n"
               "        SINK\n")
DRF_FUNCTION = ("from rest_framework.decorators import api_view\n\n\n"
                "@api_view(['POST'])\ndef run(request):\n    SINK\n")
BOTTLE = ("from bottle import route, request\n\n\n@route('/run')\ndef run():\n    SINK\n"
          "    return 'ok'\n")
FALCON = ("import falcon\n\n\nclass Run:\n    def on_get(self, req, resp):\n        SINK\n"
          "        resp.text = 'ok'\n")
CHERRYPY = ("import cherrypy\n\n\nclass Root:\n    @cherrypy.expose\n"
            "    def run(self, d=None):\n        SINK\n        return 'ok'\n")
PYRAMID = ("from pyramid.view import view_config\n\n\n@view_config(route_name='run')\n"
           "def run(request):\n    SINK\n    return {}\n")

CASES = [
    ("flask blueprint", FLASK_BLUEPRINT, "request.args.get('d')"),
    ("flask MethodView", FLASK_METHOD_VIEW, "request.form['d']"),
    ("flask json", FLASK_BLUEPRINT, "request.get_json()['d']"),
    ("django decorated view", DJANGO_DECORATED, "request.POST.get('d')"),
    ("django body", DJANGO_DECORATED, "request.body.decode()"),
    ("django class view", DJANGO_CLASS, "self.request.GET.get('d')"),
    ("django class view kwargs", DJANGO_CLASS, "self.kwargs['slug']"),
    ("django class view request", DJANGO_CLASS, "request.COOKIES['d']"),
    ("drf APIView", DRF_API_VIEW, "request.data['d']"),
    ("drf viewset", DRF_VIEWSET, "request.query_params.get('d')"),
    ("drf api_view", DRF_FUNCTION, "request.data.get('d')"),
    ("bottle", BOTTLE, "request.query.d"),
    ("bottle forms", BOTTLE, "request.forms.get('d')"),
    ("falcon", FALCON, "req.get_param('d')"),
    ("falcon media", FALCON, "req.media['d']"),
    ("cherrypy parameter", CHERRYPY, "d"),
    ("cherrypy request", CHERRYPY, "cherrypy.request.params['d']"),
    ("pyramid", PYRAMID, "request.params['d']"),
    ("pyramid matchdict", PYRAMID, "request.matchdict['d']"),
]


@pytest.mark.parametrize("sink", sorted(SINKS))
@pytest.mark.parametrize(("name", "template", "source"), CASES, ids=[c[0] for c in CASES])
def test_a_source_reaching_a_sink_is_confirmed_and_its_sanitised_twin_is_not(
        name: str, template: str, source: str, sink: str) -> None:
    assert_twins(name, template, source, sink)


def test_what_the_server_sets_on_the_request_is_no_attacker_data() -> None:
    raw, _ = twins(DJANGO_DECORATED, "request.method + request.user.username")
    assert raw == []


def test_falcon_response_object_is_the_servers() -> None:
    raw, _ = twins(FALCON, "resp.content_type")
    assert raw == []


def test_a_view_registered_in_another_modules_urlconf_is_an_entry_point() -> None:
    views = "def run(req, name):\n    return open('/srv/files/' + name).read()\n"
    urls = ("from django.urls import path\nfrom . import views\n\n"
            "urlpatterns = [path('run/<name>', views.run)]\n")
    assert confirmed({"shop/__init__.py": "", "shop/views.py": views,
                      "shop/urls.py": urls}) == ["path-traversal"]


def test_a_registration_names_the_function_of_its_own_module_only() -> None:
    tasks = ("import os\n\n\ndef run(name):\n    os.system('ls ' + name)\n\n\n"
             "run('docs')\n")
    views = "def run(req):\n    return 'ok'\n"
    urls = ("from django.urls import path\nfrom shop import views\n\n"
            "urlpatterns = [path('run/', views.run)]\n")
    assert confirmed({"shop/__init__.py": "", "shop/tasks.py": tasks, "shop/views.py": views,
                      "shop/urls.py": urls}) == []


def test_a_class_view_deriving_through_a_repository_base_is_a_handler() -> None:
    base = "from django.views import View\n\n\nclass Base(View):\n    pass\n"
    view = ("from shop.base import Base\n\n\nclass Run(Base):\n"
            "    def post(self, request):\n        open(request.POST['d'])\n")
    assert confirmed({"shop/__init__.py": "", "shop/base.py": base,
                      "shop/run.py": view}) == ["path-traversal"]
