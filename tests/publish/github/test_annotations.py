"""Check-run annotations and workflow commands: located findings, most severe first, as
plain text that mentions no one and cannot break out of its line."""

from __future__ import annotations

from verdict_builders import make_findings, make_verdict

from courtroom.publish.github.annotations import (
    escape_data,
    escape_property,
    findings,
    parse_location,
    plain,
    workflow_command,
    workflow_commands,
)


def test_findings_and_locations() -> None:
    notes = findings(make_verdict(findings=120))
    assert len(notes) >= 120
    assert notes[0].level == "failure"  # most severe first
    assert all(not n.path.startswith("pdf") for n in notes)
    assert parse_location("src/a.py:12-14") == ("src/a.py", 12, 14)
    assert parse_location("pdf:page 3") is None and parse_location("3f9c2ab") is None


def test_workflow_commands_are_escaped() -> None:
    assert escape_data("50%\r\nnext") == "50%25%0D%0Anext"
    assert escape_property("a:b,c") == "a%3Ab%2Cc"
    note = findings(make_verdict(findings=1))[0]
    line = workflow_command(note)
    assert line.startswith("::error file=pkg/mod000.py,line=1,endLine=1,title=")
    assert "\n" not in line
    many = workflow_commands(findings(make_verdict(findings=80)), limit=50)
    assert len(many) == 51 and many[-1].startswith("::notice::")


def test_annotation_text_mentions_no_one_and_hides_nothing() -> None:
    assert plain("ping @octocat and\n@org/team\u202e\x1b[31m") == (
        "ping \uff20octocat and \uff20org/team[31m"
    )
    verdict = make_verdict(findings=1)
    (finding,) = make_findings(1)
    hostile = finding.model_copy(
        update={"goal": "shell @admins\nnew line", "rationale": "see \u2066@org/sec\u2069"}
    )
    verdict = verdict.model_copy(update={"evidences": {**verdict.evidences, finding.id: hostile}})
    notes = [n for n in findings(verdict) if "shell" in n.title]
    assert notes, "the hostile finding is annotated"
    for note in notes:
        for text in (note.title, note.message):
            assert "@a" not in text and "@o" not in text
            assert not any(ch in text for ch in "\u2066\u2069\u202e\x1b")
        assert "\n" not in note.title and note.message.count("\n") == 1
