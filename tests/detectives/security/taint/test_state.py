"""Shared state: a write joins into what was there and is noted only when it adds taint."""

from __future__ import annotations

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint.program import ClassRef, Program
from courtroom.detectives.security.taint.state import Shared
from courtroom.detectives.security.taint.values import API, SHELL, SQL, Val, const


def test_a_write_joins_and_notes_only_new_taint() -> None:
    shared, cells = Shared(), {"g": const("ls")}
    shared.write(cells, "g", const("pwd"))
    assert (cells["g"].known(), shared.grown) == (False, set())
    shared.write(cells, "g", Val(kinds=frozenset({SHELL})))
    assert (cells["g"].kinds, shared.grown) == ({SHELL}, {"g"})
    shared.grown.clear()
    shared.write(cells, "g", Val(kinds=frozenset({SHELL})))
    shared.write(cells, "api", Val(kinds=frozenset({SQL}), flags=frozenset({API})))
    assert shared.grown == set()
    assert cells["api"].kinds == {SQL}
    shared.write(cells, "new", Val(kinds=frozenset({SQL})))
    assert shared.grown == {"new"}


def test_each_class_has_its_own_attributes() -> None:
    sf = parse_bytes("m.py", b"class A:\n    pass\n\n\nclass B:\n    pass\n")
    program = Program()
    program.add(sf, sf.root)
    a, b = program.resolve("m.A"), program.resolve("m.B")
    assert isinstance(a, ClassRef) and isinstance(b, ClassRef)
    shared = Shared()
    shared.of_class(a)["x"] = const(1)
    assert shared.of_class(b) == {}
    assert shared.of_class(a) == {"x": const(1)}
