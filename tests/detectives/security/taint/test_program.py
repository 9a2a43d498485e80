"""definition_at: a function or class found again by the byte its definition begins at."""

from __future__ import annotations

import pytest

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint.program import definition_at

SOURCE = b'''@route("/x")
async def view(a=lambda: lambda: 1):
    class Inner(Base):
        def method(self):
            return (lambda y: y)(1)
    return Inner
'''


@pytest.mark.parametrize(("marker", "kind"), [
    (b"async def", "function_definition"),
    (b"lambda: lambda", "lambda"),
    (b"lambda: 1", "lambda"),
    (b"class Inner", "class_definition"),
    (b"def method", "function_definition"),
    (b"lambda y", "lambda"),
])
def test_each_kind_of_definition_is_found_where_it_begins(marker: bytes, kind: str) -> None:
    sf = parse_bytes("m.py", SOURCE)
    start = SOURCE.index(marker)
    node = definition_at(sf.root, start)
    assert (node.type, node.start_byte) == (kind, start)


def test_a_byte_where_no_definition_begins_is_an_error_not_the_module() -> None:
    sf = parse_bytes("m.py", SOURCE)
    with pytest.raises(LookupError):
        definition_at(sf.root, SOURCE.index(b"return Inner"))
    with pytest.raises(LookupError):
        definition_at(sf.root, SOURCE.index(b'"/x"'))
