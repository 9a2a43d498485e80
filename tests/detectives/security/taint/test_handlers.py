"""Handlers named elsewhere: registrations across modules, handler classes through bases."""

from __future__ import annotations

from courtroom.detectives.parsing import captures, parse_bytes
from courtroom.detectives.security.taint.handlers import Registration, Registry, registrations
from courtroom.detectives.security.taint.program import ClassRef, Program


def _registrations(path: str, code: str) -> list[tuple[str, str, list[str]]]:
    sf = parse_bytes(path, code.encode())
    found = registrations(sf, captures("taint", sf.root).get("call", []))
    return [(r.name, r.module, [f.name for f in r.frameworks]) for r in found]


def test_a_registration_names_the_module_the_function_was_imported_from() -> None:
    code = ("from django.urls import path\nfrom . import views\n"
            "from .pages import home as start\nimport shop.admin as adm\n\n"
            "urlpatterns = [path('', start), path('v', views.show), path('a', adm.panel)]\n")
    assert _registrations("shop/urls.py", code) == [
        ("home", "pages", ["django"]), ("show", "views", ["django"]),
        ("panel", "admin", ["django"])]


def test_a_function_of_the_registering_module_is_its_own() -> None:
    code = "def run(req):\n    pass\n\n\napp.add_url_rule('/', view_func=run)\n"
    assert _registrations("web/app.py", code) == [("run", "app", ["flask"])]


def test_a_scoped_registrar_holds_only_where_its_framework_is_imported() -> None:
    code = "def show(x):\n    pass\n\n\npath('/', show)\n"
    assert _registrations("tool.py", code) == []


def test_a_local_registrar_registers_without_a_framework() -> None:
    code = "def step(state):\n    pass\n\n\ngraph.add_node('step', step)\n"
    assert _registrations("flow.py", code) == [("step", "flow", [])]


def _registry(files: dict[str, str]) -> tuple[Registry, Program]:
    parsed = [parse_bytes(p, t.encode()) for p, t in files.items()]
    program = Program()
    for sf in parsed:
        program.add(sf, sf.root)
    classes = [d for m in program.modules.values() for d in m.defs.values()
               if isinstance(d, ClassRef)]
    return Registry([], classes), program


def test_a_method_is_a_handler_through_a_base_class_of_another_module() -> None:
    registry, program = _registry({
        "web/base.py": "from tornado.web import RequestHandler\n\n\n"
                       "class Base(RequestHandler):\n    pass\n",
        "web/run.py": "from web.base import Base\n\n\nclass Run(Base):\n"
                      "    def get(self):\n        pass\n\n    def helper(self):\n"
                      "        pass\n"})
    run = program.resolve("web.run.Run")
    assert isinstance(run, ClassRef)
    assert [f.name for f in registry.handler_of(run.sf, run.node, "get")] == ["tornado"]
    assert registry.handler_of(run.sf, run.node, "helper") == []


def test_a_registration_matches_a_function_by_name_and_module() -> None:
    registry = Registry([Registration("show", "views", ())], [])
    views = parse_bytes("shop/views.py", b"def show():\n    pass\n")
    other = parse_bytes("shop/tasks.py", b"def show():\n    pass\n")
    assert registry.registered(views, "show") and not registry.registered(other, "show")


def test_a_cycle_of_bases_ends() -> None:
    registry, program = _registry({
        "web/a.py": "from tornado.web import RequestHandler\n\n\n"
                    "class A(B, RequestHandler):\n    def get(self):\n        pass\n",
        "web/b.py": "class B(A):\n    def get(self):\n        pass\n"})
    b = program.resolve("web.b.B")
    assert isinstance(b, ClassRef)
    assert [f.name for f in registry.handler_of(b.sf, b.node, "get")] == ["tornado"]
