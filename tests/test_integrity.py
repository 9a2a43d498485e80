"""The verdict's SHA-256 chain, its HMAC, and `courtroom verify`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from verdict_builders import make_verdict

from courtroom import cli
from courtroom.integrity import chain, seal, signing_key, verify
from courtroom.models import Verdict
from courtroom.problems import Problem

KEY = b"correct horse battery staple"


@pytest.fixture()
def sealed() -> Verdict:
    return seal(make_verdict())


def text_of(verdict: Verdict) -> str:
    return verdict.model_dump_json(indent=2) + "\n"


def run_verify(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "verdict.json"
    path.write_text(text, encoding="utf-8")
    code = cli.main(["verify", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_sealed_verdict_is_intact_and_the_digest_is_in_the_verdict(sealed: Verdict) -> None:
    assert sealed.integrity is not None
    digest = sealed.integrity["digest"]
    assert isinstance(digest, str) and len(digest) == 64
    assert verify(text_of(sealed)) == []
    assert seal(sealed).integrity == sealed.integrity  # sealing ignores the old block


def test_reformatting_the_file_does_not_break_the_chain(sealed: Verdict) -> None:
    compact = json.dumps(json.loads(text_of(sealed)), separators=(",", ":"))
    assert verify(compact) == []


def test_every_part_of_the_verdict_is_covered(sealed: Verdict) -> None:
    parts = sealed.integrity["parts"]  # type: ignore[index]
    assert "header" in parts and "evidence" in parts
    for criterion in sealed.criteria:
        assert f"criterion {criterion.criterion_id} opinions" in parts
        assert f"criterion {criterion.criterion_id} result" in parts


def one_char_edit(text: str, old: str, new: str) -> str:
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new, strict=True)) == 1
    assert text.count(old) >= 1
    return text.replace(old, new, 1)


def test_verify_catches_a_one_character_score_edit(
    sealed: Verdict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = text_of(sealed)
    first = sealed.criteria[0].opinions[0]
    tampered = one_char_edit(text, f'"score": {first.score},', f'"score": {first.score % 5 + 1},')
    problems = verify(tampered)
    assert problems and "opinions does not match" in problems[0]
    code, out = run_verify(tmp_path, tampered, capsys)
    assert code == 1
    lines = out.strip().splitlines()
    assert all(": TAMPERED: " in line for line in lines)  # one line per problem
    assert f"criterion {sealed.criteria[0].criterion_id} opinions" in lines[0]


def test_verify_catches_a_one_character_argument_edit(
    sealed: Verdict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = text_of(sealed)
    argument = sealed.criteria[1].opinions[0].argument
    edited = argument[:-1] + ("!" if argument[-1] != "!" else "?")
    code, out = run_verify(tmp_path, one_char_edit(text, argument, edited), capsys)
    assert code == 1 and "safe_tool_engineering opinions" in out


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ('"final_score": 4', '"final_score": 5', "result"),
        ('"overall_score": ', '"overall_score":  ', None),  # whitespace only: still intact
        ('"found": false', '"found": true ', "evidence"),
        ('"conclusion": "failure"', '"conclusion": "success"', "header"),
    ],
)
def test_verify_names_what_changed(sealed: Verdict, old: str, new: str, where: str | None) -> None:
    problems = verify(text_of(sealed).replace(old, new, 1))
    if where is None:
        assert problems == []
    else:
        assert problems and where in problems[0]


def test_a_recomputed_chain_without_the_key_fails_the_signature(sealed: Verdict) -> None:
    signed = seal(make_verdict(), KEY)
    assert verify(text_of(signed), KEY) == []
    data = json.loads(text_of(signed))
    data["criteria"][0]["final_score"] = 1
    forged = {**chain(data), "signature": data["integrity"]["signature"]}
    data["integrity"] = forged
    problems = verify(json.dumps(data), KEY)
    assert problems[0] == "signature does not match the digest under the given key"
    # Without a key the chain holds, but the edited score is not what the rules give.
    assert verify(json.dumps(data)) == problems[1:] != []
    assert "not signed" in verify(text_of(sealed), KEY)[0]


def test_verify_command_checks_the_signature_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COURTROOM_SIGNING_KEY", KEY.decode())
    assert signing_key() == KEY
    code, out = run_verify(tmp_path, text_of(seal(make_verdict(), signing_key())), capsys)
    assert code == 0 and "intact" in out and "signature checked" in out
    assert KEY.decode() not in out
    monkeypatch.setenv("COURTROOM_SIGNING_KEY", "another key")
    code, out = run_verify(tmp_path, text_of(seal(make_verdict(), KEY)), capsys)
    assert code == 1 and "signature" in out


def test_unsealed_verdict_is_not_reported_intact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_verify(tmp_path, text_of(make_verdict()), capsys)
    assert code == 1 and "no integrity chain" in out


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", b"\xff\xfe\x00",
                                     '{"a": ' + "[" * 30_000 + "]" * 30_000 + "}"],
                         ids=["not-json", "not-object", "not-utf8", "nested-30000"])
def test_unreadable_verdict_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes
) -> None:
    path = tmp_path / "verdict.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 2
    assert "unreadable" in capsys.readouterr().err
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2


def test_verify_command_intact_exit_0(
    sealed: Verdict, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COURTROOM_SIGNING_KEY", raising=False)
    code, out = run_verify(tmp_path, text_of(sealed), capsys)
    assert code == 0 and str(sealed.integrity["digest"]) in out  # type: ignore[index]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_one_character_edit_of_an_argument_or_score_is_caught(data: st.DataObject) -> None:
    verdict = seal(make_verdict())
    raw = json.loads(text_of(verdict))
    criterion = data.draw(st.integers(0, len(raw["criteria"]) - 1))
    opinions = raw["criteria"][criterion]["opinions"]
    target = opinions[data.draw(st.integers(0, len(opinions) - 1))]
    if data.draw(st.booleans()):
        target["score"] = data.draw(st.integers(1, 5).filter(lambda s: s != target["score"]))
    else:
        text = target["argument"]
        at = data.draw(st.integers(0, len(text) - 1))
        new = data.draw(st.characters(codec="utf-8").filter(lambda c: c != text[at]))
        target["argument"] = text[:at] + new + text[at + 1:]
    problems = verify(json.dumps(raw, indent=2))
    cid = raw["criteria"][criterion]["criterion_id"]
    assert problems and problems[0] == f"criterion {cid} opinions does not match its recorded hash"


def rechained(data: dict[str, Any]) -> str:
    """What a hand-editor without the key can do: recompute the chain after an edit."""
    data["integrity"] = chain(data)
    return json.dumps(data)


def test_a_raised_score_and_flipped_conclusion_fail_although_rechained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(text_of(seal(make_verdict())))
    capped = data["criteria"][1]
    score, overall = capped["final_score"], data["overall_score"]
    assert capped["security_override"] and data["conclusion"] == "failure"
    capped["final_score"], capped["security_override"] = 5, False
    data["overall_score"], data["conclusion"] = 4.5, "success"
    code, out = run_verify(tmp_path, rechained(data), capsys)
    cid = capped["criterion_id"]
    assert code == 1
    assert [line.split(": TAMPERED: ")[1] for line in out.strip().splitlines()] == [
        f"criterion {cid}: final_score 5 recorded, {score} recomputed",
        f"criterion {cid}: security_override False recorded, True recomputed",
        f"overall score: 4.5 recorded, {overall:g} recomputed",
        "conclusion: success recorded, failure recomputed",
    ]


def test_a_rechained_object_that_is_not_a_verdict_does_not_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(text_of(seal(make_verdict())))
    data["criteria"][0]["final_score"] = 15
    code, out = run_verify(tmp_path, rechained(data), capsys)
    assert code == 1
    assert out.strip().splitlines() == [
        f"courtroom: {tmp_path / 'verdict.json'}: TAMPERED: not a valid verdict, so nothing "
        "was recomputed (criteria.0.final_score: Input should be less than or equal to 5)"]


def test_errors_edited_apart_from_their_problems_do_not_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gap = Problem(kind="pdf", location="report.pdf", message="the file is not a PDF")
    data = json.loads(text_of(seal(make_verdict().model_copy(update={"problems": [gap]}))))
    data["errors"] = ["pdf report.pdf: fine"]  # the readable lines, rewritten
    code, out = run_verify(tmp_path, rechained(data), capsys)
    assert code == 1 and "errors are not the lines of problems" in out
