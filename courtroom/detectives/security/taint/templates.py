"""Rendering a template file: escaped, except where the template says not to escape.

Jinja (with autoescaping, as Flask and Starlette configure it for HTML) and Django escape
every variable they print, so rendering request data is no XSS, unless the template marks
a variable ``|safe`` (``|safeseq``) or prints it inside ``{% autoescape false %}``
(``off`` in Django). The engine reads the template the view names, from the audited tree
only, and reports the render call when such a variable is given attacker data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom.detectives.parsing import Node
from courtroom.detectives.security.taint import web_library
from courtroom.detectives.security.taint.frame import Args, Frame
from courtroom.detectives.security.taint.values import CLEAN, XSS, Step, Val, merge

#: Suffixes of the files read as templates.
SUFFIXES = (".html", ".htm", ".jinja", ".jinja2", ".j2", ".djhtml", ".tpl")
_SAFE = re.compile(r"\{\{-?\s*([A-Za-z_]\w*)[^{}]*?\|\s*safe(?:seq)?\b")
_UNESCAPED = re.compile(r"\{%-?\s*autoescape\s+(?:false|off)\s*-?%\}(.*?)"
                        r"\{%-?\s*endautoescape\s*-?%\}", re.S | re.I)
_PRINTED = re.compile(r"\{\{-?\s*([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Renderer:
    """A call that renders a template file: where its name and its context are."""

    name_arg: int
    name_keyword: str
    #: The context's position and keyword (None: the context is the call's keywords).
    context_arg: int | None = None
    context_keyword: str | None = None


_FLASK = Renderer(0, "template_name_or_list")
RENDERERS: dict[str, Renderer] = {
    "flask.render_template": _FLASK, "quart.render_template": _FLASK,
    "django.shortcuts.render": Renderer(1, "template_name", 2, "context"),
    "django.shortcuts.render_to_response": Renderer(0, "template_name", 1, "context"),
    "django.template.loader.render_to_string": Renderer(0, "template_name", 1, "context"),
    "aiohttp_jinja2.render_template": Renderer(0, "template_name", 2, "context"),
    "starlette.templating.Jinja2Templates.TemplateResponse": Renderer(0, "name", 1,
                                                                      "context"),
}


def unescaped(text: str) -> dict[str, int]:
    """The variables a template prints without escaping them, with the first such line."""
    found = [(m.group(1), m.start()) for m in _SAFE.finditer(text)]
    for block in _UNESCAPED.finditer(text):
        found += [(m.group(1), block.start(1) + m.start())
                  for m in _PRINTED.finditer(block.group(1))]
    names: dict[str, int] = {}
    for variable, offset in sorted(found, key=lambda f: f[1]):
        names.setdefault(variable, text.count("\n", 0, offset) + 1)
    return names


def find(files: dict[str, str], name: str) -> list[str]:
    """Paths of the templates a name may denote (loaders search several folders)."""
    wanted = name.lstrip("/")
    return [path for path in files if path == wanted or path.endswith("/" + wanted)]


def call(frame: Frame, node: Node, name: str, args: Args) -> Val | None:
    """A template rendered: its result escapes the context, unless the template does not."""
    spec = RENDERERS.get(name)
    if spec is None:
        return None
    positional, keywords = args
    names = [v.const for v in (keywords.get(spec.name_keyword), *positional)
             if v is not None and v.known() and isinstance(v.const, str)]
    if spec.context_arg is None:
        context = Val(items=tuple(keywords.items()))
    elif spec.context_keyword in keywords:
        context = keywords[spec.context_keyword]
    else:
        context = positional[spec.context_arg] if len(positional) > spec.context_arg \
            else CLEAN
    files = frame.engine.texts
    for path in (p for n in names[:1] for p in find(files, n)):
        for variable, line in sorted(unescaped(files[path]).items()):
            value = dict(context.items).get(variable, CLEAN) if context.items is not None \
                else context
            shown = value.step(Step(path, line, 1, f"printed unescaped: {variable}"))
            frame.engine.sink(frame, node, web_library.XSS_SINK, shown, name)
    return merge([*positional, *keywords.values()]).clean(frozenset({XSS}))
