"""Memo keys: a freed object's key is never a later object's."""

from __future__ import annotations

from courtroom.detectives.parsing import parse_bytes
from courtroom.detectives.security.taint.dynamic import Method, MethodCaller, Partial
from courtroom.detectives.security.taint.keys import identity
from courtroom.detectives.security.taint.program import Bound, ClassRef, FuncRef, Instance
from courtroom.detectives.security.taint.values import CLEAN


def test_objects_freed_one_after_another_never_share_a_key() -> None:
    sf = parse_bytes("m.py", b"class A:\n    def f(self):\n        pass\n")
    cls = ClassRef(sf, 0, "m", "A", {"f": 14}, ())
    func = FuncRef(sf, 14, "m", "f", cls)
    builders = [lambda: Instance(cls), lambda: Bound(func, Instance(cls)),
                lambda: Partial(CLEAN, ([], {})), lambda: MethodCaller("f", ([], {})),
                lambda: Method(CLEAN, "f")]
    for build in builders:
        # Each object is freed before the next is made: CPython hands the same address,
        # hence the same id(), to the next one.
        keys = {identity(build(), True) for _ in range(50)}
        assert len(keys) == 50


def test_a_function_is_one_key_however_often_it_is_looked_up() -> None:
    sf = parse_bytes("m.py", b"def f():\n    pass\n")
    assert identity(FuncRef(sf, 0, "m", "f"), True) == identity(FuncRef(sf, 0, "m", "f"), True)
