"""Framework specs: every shipped file validates, a malformed one is refused."""

from __future__ import annotations

from importlib import resources

import pytest

from courtroom.detectives.security.taint import spec
from courtroom.detectives.security.taint.spec import FRAMEWORKS, matches, parse
from courtroom.errors import CourtroomError


def test_every_shipped_spec_file_is_loaded_under_its_own_name() -> None:
    folder = resources.files(spec.__package__).joinpath("frameworks")
    files = sorted(f.name.removesuffix(".toml") for f in folder.iterdir()
                   if f.name.endswith(".toml"))
    assert [f.name for f in FRAMEWORKS] == files
    assert len(files) >= 14


def test_a_spec_is_read_from_its_text() -> None:
    found = parse("shop.toml", 'name = "shop"\nimports = ["shop"]\nscoped = true\n'
                               '[handlers]\ndecorators = [".page"]\n'
                               '[request]\nparameters = ["rq"]\ndata = ["fields"]\n')
    assert found.handlers.decorators == (".page",)
    assert found.request.data == ("fields",)
    assert found.applies(b"import shop.web\n") and not found.applies(b"import shopping\n")


@pytest.mark.parametrize("text", [
    'name = "x"\nimports = ["x"]\nroutes = ["get"]\n',  # an unknown key
    'name = "x"\nimports = []\n',  # a framework nothing imports
    'name = "x"\nimports = ["x.web"]\n',  # a submodule: the top-level name decides
    'name = "x"\nimports = ["x"]\n[handlers]\ndecorators = ["@app.get"]\n',  # not a name
    'name = "x"\nimports = ["x"\n',  # not TOML
])
def test_a_malformed_spec_is_refused_with_its_file_name(text: str) -> None:
    with pytest.raises(CourtroomError, match=r"bad\.toml"):
        parse("bad.toml", text)


def test_an_unscoped_framework_applies_to_every_module() -> None:
    found = parse("x.toml", 'name = "x"\nimports = ["x"]\n')
    assert found.applies(b"import os\n")
    assert not found.imported_by(b"# import x\nimport os\n")


@pytest.mark.parametrize(("pattern", "name", "expected"), [
    (".route", "app.route", True),
    (".route", "route", False),
    (".route", "app.router", False),
    ("route", "route", True),
    ("route", "app.route", False),
    ("strawberry.field", "strawberry.field", True),
    ("resolve_*", "resolve_user", True),
    ("resolve_*", "user", False),
])
def test_a_pattern_matches_as_the_spec_format_says(pattern: str, name: str,
                                                   expected: bool) -> None:
    assert matches(pattern, name) is expected
