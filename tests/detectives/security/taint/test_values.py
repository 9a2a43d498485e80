"""Abstract values: built by hand-written initialisers, still frozen dataclasses that
compare without their paths; merges keep taint, the first path and only the path flag."""

from __future__ import annotations

import dataclasses

import pytest

from courtroom.detectives.security.taint.values import (
    CLEAN,
    NONE,
    PATH,
    SHELL,
    SQL,
    UNKNOWN,
    Step,
    Val,
    const,
    merge,
    tainted,
)

AT = Step("app.py", 3, 5, "read")


def test_a_value_has_every_default_and_stays_frozen() -> None:
    value = Val()
    assert (value.kinds, value.const, value.items, value.seq, value.ref, value.inst,
            value.flags, value.steps) == (NONE, UNKNOWN, None, None, None, None, NONE, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.ref = "os"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        AT.line = 4  # type: ignore[misc]


def test_values_compare_and_hash_without_their_path() -> None:
    a, b = tainted(frozenset({SQL}), AT), tainted(frozenset({SQL}), Step("b.py", 1, 1, "x"))
    assert a == b and hash(a) == hash(b)
    assert a != tainted(frozenset({SHELL}), AT)
    assert dataclasses.replace(a, ref="db") == Val(kinds=frozenset({SQL}), ref="db")
    assert Step("app.py", 3, 5, "read") == AT and hash(Step("app.py", 3, 5, "read")) == hash(AT)


def test_step_and_clean_keep_every_other_field() -> None:
    value = Val(kinds=frozenset({SQL, PATH}), ref="r", flags=frozenset({"path"}), steps=(AT,))
    later = Step("app.py", 4, 1, "copied")
    stepped = value.step(later)
    assert (stepped.ref, stepped.flags, stepped.steps) == ("r", value.flags, (AT, later))
    cleaned = value.clean(frozenset({SQL}))
    assert (cleaned.kinds, cleaned.ref, cleaned.flags, cleaned.steps) == (
        frozenset({PATH}), "r", value.flags, (AT,))
    assert CLEAN.step(later) is CLEAN


def test_merge_unites_taint_keeps_the_first_path_and_only_the_path_flag() -> None:
    first = tainted(frozenset({SQL}), AT)
    second = Val(kinds=frozenset({SHELL}), flags=frozenset({"path", "list"}),
                 steps=(Step("b.py", 1, 1, "x"),))
    out = merge([const(1), first, second])
    assert out.kinds == frozenset({SQL, SHELL})
    assert out.steps == (AT,) and out.flags == frozenset({"path"}) and not out.known()
    assert merge([const("a"), CLEAN]) == CLEAN and merge([]).flags == NONE
