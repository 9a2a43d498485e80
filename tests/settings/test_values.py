"""Each kind of setting value: the file's check, the flag's parsing, the input's, and the
rules by which a file's value joins the flags' (tighter, both, or not at all)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest

from courtroom.errors import ConfigError
from courtroom.resources import bundled_rubrics
from courtroom.settings.values import Choice, File, Gate, Globs, Number, Switch, Value


def _flag(value: Value, *argv: str) -> object:
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--x", dest="x", **value.flag_keywords())
    return value.from_flag(parser.parse_args(list(argv)).x)


def test_a_number_has_its_bounds_where_it_comes_from() -> None:
    number = Number(file=(60, 3600), flag=(1, 3600))
    assert number.check(90) == 90
    with pytest.raises(ValueError, match="must be between 60 and 3600, got 30"):
        number.check(30)
    with pytest.raises(ValueError, match="must be a number"):
        number.check(True)
    assert _flag(number, "--x", "30") == 30.0  # the flag's bounds are wider than the file's
    parse = number.flag_keywords()["type"]
    with pytest.raises(argparse.ArgumentTypeError, match="must be between 1 and 3600"):
        parse("0.5")
    with pytest.raises(argparse.ArgumentTypeError, match="not a number: 'soon'"):
        parse("soon")
    assert number.from_input("", "t") is None
    assert number.from_input("5", "t") == 5.0  # an input: any number over 0
    with pytest.raises(ConfigError, match=r"input t must be greater than 0, got -1\.0"):
        number.from_input("-1", "t")


def test_a_whole_number_with_input_bounds_says_them() -> None:
    number = Number(file=(1, 64), input=(1, 64), integer=True)
    with pytest.raises(ValueError, match=r"must be a whole number, got 2\.5"):
        number.check(2.5)
    with pytest.raises(ConfigError, match="input n must be between 1 and 64, got 65"):
        number.from_input("65", "n")
    with pytest.raises(ConfigError, match="input n must be a number, got 'many'"):
        number.from_input("many", "n")
    assert Number(input=(-math.inf, math.inf), integer=True).from_input("0", "n") == 0


def test_a_tighten_only_number_takes_the_higher_and_says_so() -> None:
    assert Number(file=(0, 5)).stricter(3.0, 4.0, "f") == (4.0, "flag, raised by f")
    assert Number(file=(0, 5)).stricter(3.0, 3.0, "f") is None


def test_a_choice_is_strictest_first() -> None:
    choice = Choice(options=("all", "new"))
    assert choice.check("new") == "new"
    with pytest.raises(ValueError, match="must be one of all, new, got 'some'"):
        choice.check("some")
    assert choice.from_input("NEW", "f") == "new" and choice.from_input("", "f") is None
    with pytest.raises(ConfigError, match="input f must be one of all, new, got 'some'"):
        choice.from_input("Some", "f")
    assert choice.stricter("new", "all", "f") == ("all", "flag, tightened by f")
    assert choice.stricter("all", "new", "f") is None
    assert choice.loosens("new") and not choice.loosens("all") and Choice.may_loosen
    assert _flag(choice, "--x", "all") == "all"


def test_a_switch_flag_sets_only_one_way_and_an_absent_one_is_none() -> None:
    off = Switch(flag_sets=False)
    assert _flag(off) is None and _flag(off, "--x") is False
    assert _flag(Switch(), "--x") is True
    assert Switch().from_input("Yes", "s") is True and Switch().from_input("off", "s") is False
    assert Switch().from_input("", "s") is None
    with pytest.raises(ConfigError, match="input s must be true or false, got 'maybe'"):
        Switch().from_input("maybe", "s")
    with pytest.raises(ValueError, match="must be true or false"):
        Switch().check("yes")
    assert Switch().stricter(False, True, "f") is None  # a flag or input that set it wins


def test_globs_repeat_as_flags_and_join_from_a_file() -> None:
    globs = Globs()
    assert _flag(globs) is None and _flag(globs, "--x", "a/**", "--x", "b") == ("a/**", "b")
    assert globs.check("vendor/**") == ("vendor/**",)
    with pytest.raises(ValueError, match="must be one line"):
        globs.check(["a\nb"])
    assert globs.added(("a",), ("b",), "f") == (("a", "b"), "flag and f")
    assert Globs.may_loosen and not Value.may_loosen


def test_a_gate_takes_the_higher_minimum_of_each_criterion() -> None:
    gate = Gate()
    assert gate.check({"a": 3}) == {"a": 3.0}
    with pytest.raises(ValueError, match="b: must be between 0 and 5"):
        gate.check({"b": 6})
    joined = gate.stricter({"a": 3.0, "b": 2.0}, {"a": 2.0, "c": 1.0}, "f")
    assert joined == ({"a": 3.0, "b": 2.0, "c": 1.0}, "flag and f")


def test_text_and_paths() -> None:
    assert Value().check("  claude  ") == "claude" and Value().from_input("", "m") is None
    with pytest.raises(ValueError, match="non-empty string"):
        Value().check("")
    assert _flag(File(), "--x", "r.pdf") == Path("r.pdf")
    name, path = next(iter(bundled_rubrics().items()))  # a bare name: a rubric we ship
    assert _flag(File(bundled=True), "--x", name) == path
    assert _flag(File(), "--x", name) == Path(name)
