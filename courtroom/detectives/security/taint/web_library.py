"""What the engine knows about the web's own sinks, as data: outgoing HTTP requests (SSRF),
XML parsers, template compilers, redirects, MongoDB queries and response bodies.

Library objects the engine follows through a variable (``s = requests.Session()`` then
``s.get(url)``) are named by their type: a constructor in ``OBJECTS`` gives a value whose
``ref`` is that type, so its methods resolve to ``<type>.<method>`` as a module function's
name would. Adding a library is adding rows here.
"""

from __future__ import annotations

from dataclasses import dataclass

from courtroom.detectives.security.taint.library import Sink
from courtroom.detectives.security.taint.values import NOSQL, REDIRECT, SSRF, SSTI, XSS, XXE

SSRF_SINK = Sink(SSRF, "server-side-request-forgery", 918)
XXE_SINK = Sink(XXE, "xml-external-entities", 611)
NOSQL_SINK = Sink(NOSQL, "nosql-injection", 943)
XSS_SINK = Sink(XSS, "cross-site-scripting", 79)

#: Constructors of library objects whose methods are sinks -> the type their value carries.
OBJECTS = {
    "requests.Session": "requests.Session", "requests.session": "requests.Session",
    "requests.sessions.Session": "requests.Session",
    "httpx.Client": "httpx.Client", "httpx.AsyncClient": "httpx.Client",
    "aiohttp.ClientSession": "aiohttp.ClientSession",
    "jinja2.Environment": "jinja2.Environment", "jinja2.Template": "jinja2.Template",
    "jinja2.Environment.get_template": "jinja2.Template",
    "jinja2.Environment.from_string": "jinja2.Template",
    "xml.sax.make_parser": "xml.sax.XMLReader", "lxml.etree.XMLParser": "lxml.etree.XMLParser",
    "pymongo.MongoClient": "pymongo.MongoClient",
    "motor.motor_asyncio.AsyncIOMotorClient": "pymongo.MongoClient",
    "flask_pymongo.PyMongo": "pymongo.MongoClient",
    **dict.fromkeys(("starlette.templating.Jinja2Templates",
                     "fastapi.templating.Jinja2Templates"),
                    "starlette.templating.Jinja2Templates"),
}

def _table(sink: Sink, keywords: dict[str, str]) -> dict[str, Sink]:
    """Calls whose first argument (or the keyword named) reaches ``sink``."""
    return {name: Sink(sink.kind, sink.rule, sink.cwe, keyword=keyword)
            for name, keyword in keywords.items()}


_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_CLIENTS = ("requests", "httpx", "requests.Session", "httpx.Client", "aiohttp.ClientSession")
#: Calls that fetch the URL they are given (``request(method, url)`` as the second).
FETCHES: dict[str, Sink] = {
    **_table(SSRF_SINK, {f"{c}.{v}": "url" for c in _CLIENTS for v in _VERBS}),
    **_table(SSRF_SINK, dict.fromkeys((
        "aiohttp.ClientSession.ws_connect", "urllib.request.urlopen",
        "urllib.request.urlretrieve", "urllib2.urlopen", "urllib.urlopen"), "url")),
    # A ``Request`` is not fetched until it is opened: ``urlopen`` reports it.
    **{f"{c}.{m}": Sink(SSRF, SSRF_SINK.rule, 918, arg=1, keyword="url")
       for c in (*_CLIENTS, "aiohttp") for m in ("request", "stream")},
}

#: Calls that send the client to the location they are given.
REDIRECTS = _table(Sink(REDIRECT, "open-redirect", 601), {
    "flask.redirect": "location", "quart.redirect": "location",
    "werkzeug.utils.redirect": "location", "django.shortcuts.redirect": "to",
    "django.http.HttpResponseRedirect": "redirect_to",
    "django.http.HttpResponsePermanentRedirect": "redirect_to",
    "starlette.responses.RedirectResponse": "url", "fastapi.responses.RedirectResponse": "url",
    **{f"aiohttp.web.{c}": "location" for c in (
        "HTTPFound", "HTTPSeeOther", "HTTPMovedPermanently", "HTTPTemporaryRedirect",
        "HTTPPermanentRedirect")},
    "pyramid.httpexceptions.HTTPFound": "location", "bottle.redirect": "url",
    "sanic.response.redirect": "to", "tornado.web.RequestHandler.redirect": "url",
    "litestar.response.Redirect": "path", "cherrypy.HTTPRedirect": "urls",
})
#: Calls that compile the text they are given as a template (its code runs on the server).
TEMPLATES = _table(Sink(SSTI, "template-injection", 1336), {
    "flask.render_template_string": "source", "quart.render_template_string": "source",
    "jinja2.Template": "source", "jinja2.Environment.from_string": "source",
    "django.template.Template": "template_string", "mako.template.Template": "text",
    "tornado.template.Template": "template_string",
})

#: MongoDB collection methods whose first argument is a query filter.
QUERIES = frozenset({"find", "find_one", "find_one_and_update", "find_one_and_delete",
                     "find_one_and_replace", "update_one", "update_many", "delete_one",
                     "delete_many", "count_documents", "replace_one", "aggregate"})
#: Query operators whose value runs as JavaScript on the server.
JS_OPERATORS = ("$where", "$function", "$accumulator")

#: XML parsing calls -> the argument holding the parser (the document is argument 0).
XML_PARSES: dict[str, tuple[int, str]] = {
    **{f"lxml.etree.{f}": (1, "parser") for f in ("fromstring", "XML", "parse", "iterparse",
                                                  "XMLID", "fromstringlist")},
    **{f"xml.dom.{m}.{f}": (1, "parser") for m in ("minidom", "pulldom")
       for f in ("parse", "parseString")},
}
#: SAX features that make a reader fetch external entities when switched on.
EXTERNAL_FEATURES = frozenset({
    "xml.sax.handler.feature_external_ges", "xml.sax.handler.feature_external_pes",
    "http://xml.org/sax/features/external-general-entities",
    "http://xml.org/sax/features/external-parameter-entities",
})


@dataclass(frozen=True)
class Body:
    """A response constructor: where its body is, and whether that body is sent as HTML."""

    arg: int | None
    keyword: str
    #: The keyword naming the content type (None: the class fixes it).
    content_type: str | None
    #: Whether the body is HTML when no content type is given.
    html: bool


_DJANGO = Body(0, "content", "content_type", True)
_STARLETTE = Body(0, "content", "media_type", False)
#: Response constructors. A body of a non-HTML type (JSON, plain text) is no XSS.
RESPONSES: dict[str, Body] = {
    **{f"django.http.{c}": _DJANGO for c in (
        "HttpResponse", "HttpResponseBadRequest", "HttpResponseNotFound",
        "HttpResponseForbidden", "HttpResponseServerError", "HttpResponseGone")},
    **{f"{p}.HTMLResponse": Body(0, "content", None, True)
       for p in ("starlette.responses", "fastapi.responses")},
    **{f"{p}.Response": _STARLETTE for p in ("starlette.responses", "fastapi.responses",
                                             "fastapi")},
    "aiohttp.web.Response": Body(None, "text", "content_type", False),
    "sanic.response.html": Body(0, "body", None, True),
    **dict.fromkeys(("pyramid.response.Response", "webob.Response"),
                    Body(0, "body", "content_type", True)),
    "bottle.HTTPResponse": Body(0, "body", None, True),
    **dict.fromkeys(("litestar.Response", "litestar.response.Response"),
                    Body(0, "content", "media_type", False)),
    "tornado.web.RequestHandler.write": Body(0, "chunk", None, True),
    "tornado.web.RequestHandler.finish": Body(0, "chunk", None, True),
}
#: Calls whose result is no HTML made of their arguments: JSON, plain text, a template that
#: escapes what it is given, a URL of the application's own.
NOT_HTML = frozenset({
    "django.http.JsonResponse", "starlette.responses.JSONResponse",
    "fastapi.responses.JSONResponse", "starlette.responses.PlainTextResponse",
    "fastapi.responses.PlainTextResponse", "aiohttp.web.json_response",
    "sanic.response.json", "sanic.response.text", "django.template.loader.render_to_string",
})
#: Calls that build a URL of the application itself: never an open redirect or SSRF.
OWN_URLS = frozenset({"flask.url_for", "quart.url_for", "django.urls.reverse",
                      "django.shortcuts.resolve_url", "django.urls.reverse_lazy"})
#: What a modelled call's result no longer carries: a redirect, a JSON or plain-text body
#: and a sent response have no HTML to inject into, a template compiled from attacker text
#: is reported once (as template injection), the application's own URLs go nowhere else.
CLEARS: dict[str, frozenset[str]] = {
    **dict.fromkeys([*REDIRECTS, *NOT_HTML, *RESPONSES], frozenset({XSS})),
    **dict.fromkeys([n for n in TEMPLATES if n not in OBJECTS], frozenset({XSS})),
    **dict.fromkeys(OWN_URLS, frozenset({SSRF, REDIRECT})),
}
