"""Web frameworks as data: how a handler is recognised and what in a request is attacker data.

Each framework is one TOML file in ``frameworks/`` read into :class:`Framework`; adding a
framework is adding a file. The engine reads only the union of these files
(:data:`FRAMEWORKS`), so no module of the engine names a framework.

A decorator pattern ``".route"`` matches any dotted decorator ending in ``.route`` (the
router object is named by the application); ``"route"`` or ``"strawberry.field"`` match that
exact name. A method pattern ending in ``*`` is a prefix (``resolve_*``).
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from courtroom.errors import CourtroomError

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PATTERN = rf"^\.?{_NAME}(\.{_NAME})*\*?$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Handlers(_Strict):
    """How a framework's handlers are recognised."""

    #: Decorators that expose the decorated function (see the module docstring).
    decorators: tuple[str, ...] = ()
    #: Calls (by last name) whose function arguments become handlers (``add_url_rule``).
    registrars: tuple[str, ...] = ()
    #: Base classes whose ``methods`` are handlers; empty with ``methods`` set means any class
    #: of a file that imports the framework (a Falcon resource has no base).
    bases: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    #: In a file importing the framework, a function whose first parameter is named as a
    #: request (``def index(request, pk)``) is a view.
    views: bool = False
    #: Parameters that are not attacker data: by name (``info``, ``resp``), and those whose
    #: default is one of these calls (``Depends(get_db)``: the server supplies them).
    trusted: tuple[str, ...] = ()
    trusted_defaults: tuple[str, ...] = ()


class Request(_Strict):
    """Where a handler finds the request and which of its parts the attacker sends."""

    #: Module-level request objects (``flask.request``).
    objects: tuple[str, ...] = ()
    #: Handler parameters holding the request object, by name or by annotation
    #: (``req: Request``, by the annotation's last name).
    parameters: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    #: Attributes of a handler class's ``self`` holding the request (``self.request``).
    self_request: tuple[str, ...] = ()
    #: Attributes and methods of ``self`` that are attacker data (``self.get_argument``).
    self_data: tuple[str, ...] = ()
    #: Attributes and methods of the request object that are attacker data.
    data: tuple[str, ...] = ()


class Framework(_Strict):
    """One framework's spec file."""

    name: str = Field(pattern=rf"^{_NAME}$")
    #: Top-level modules whose import marks a file as using the framework.
    imports: tuple[Annotated[str, Field(pattern=rf"^{_NAME}$")], ...] = Field(min_length=1)
    #: Whether the handler patterns hold only in files importing the framework (their names
    #: are common words: ``path``, ``field``); otherwise they hold in every file.
    scoped: bool = False
    #: Whether what a handler returns is sent as HTML (FastAPI and GraphQL send JSON).
    html: bool = True
    handlers: Handlers = Handlers()
    request: Request = Request()

    def imported_by(self, source: bytes) -> bool:
        """Whether a module's source imports the framework."""
        return not imported_modules(source).isdisjoint(self.imports)

    def applies(self, source: bytes) -> bool:
        """Whether the framework's handler patterns hold in a module."""
        return not self.scoped or self.imported_by(source)


#: The first name of each module a file imports at the start of a line (``from x.y import``
#: and ``import x`` give ``x``).
_IMPORT = re.compile(rb"^[ \t]*(?:from|import)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)


@lru_cache(maxsize=64)
def imported_modules(source: bytes) -> frozenset[str]:
    """The top-level modules a module's source imports (asked for every function: cached)."""
    return frozenset(m.decode() for m in _IMPORT.findall(source))


def matches(pattern: str, name: str) -> bool:
    """Whether a (decorator or method) name matches a pattern of a spec."""
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    if pattern.startswith("."):
        return name.endswith(pattern) and name != pattern
    return name == pattern


def parse(name: str, text: str) -> Framework:
    """One spec file's framework; a spec that does not validate is an error."""
    try:
        spec = Framework.model_validate(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise CourtroomError(f"framework spec {name}: {exc}") from exc
    patterns = (*spec.handlers.decorators, *spec.handlers.methods)
    bad = [p for p in patterns if re.fullmatch(_PATTERN, p) is None]
    if bad:
        raise CourtroomError(f"framework spec {name}: not a name pattern: {bad[0]!r}")
    return spec


def load() -> tuple[Framework, ...]:
    """Every framework spec shipped with the package, by file name."""
    folder = resources.files(__package__).joinpath("frameworks")
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".toml")),
                   key=lambda f: f.name)
    return tuple(parse(f.name, f.read_text(encoding="utf-8")) for f in files)


FRAMEWORKS = load()
