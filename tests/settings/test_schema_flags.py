"""The settings' flags are built from the schema: dest is the field, absent is None."""

from __future__ import annotations

import argparse

from courtroom.settings.schema import SETTINGS, add_flags, flag_values


def _parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_flags(parser, command)
    return parser


def test_every_flag_lands_on_its_field_and_an_absent_one_is_none() -> None:
    values = flag_values(_parser("audit").parse_args([]), "audit")
    assert set(values) == {s.field for s in SETTINGS if s.flag}
    assert set(values.values()) == {None}


def test_the_flags_set_their_fields() -> None:
    argv = ["--judge-timeout", "90", "--no-cache", "--ignore", "a", "--ignore", "b",
            "--fail-on-findings", "new", "--fail-on-uncovered"]
    values = flag_values(_parser("audit").parse_args(argv), "audit")
    assert (values["judge_timeout"], values["use_cache"], values["ignore"]) == (90, False,
                                                                               ("a", "b"))
    assert values["fail_on_findings"] == "new" and values["fail_on_uncovered"] is True


def test_a_batch_takes_only_the_settings_submissions_share() -> None:
    values = flag_values(_parser("batch").parse_args([]), "batch")
    assert {"pdf", "base", "court", "fail_on_findings"}.isdisjoint(values)
    assert "judge_timeout" in values
