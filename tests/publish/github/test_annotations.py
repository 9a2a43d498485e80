"""Check-run annotations and workflow commands: located findings, most severe first, as
plain text that mentions no one and cannot break out of its line."""

from __future__ import annotations

from verdict_builders import (
    make_criterion,
    make_evidence,
    make_findings,
    make_opinion,
    make_verdict,
)

from courtroom.models import JUDGES, Evidence, Verdict
from courtroom.publish.github.annotations import (
    MAX_ANNOTATIONS,
    as_api,
    batches,
    escape_data,
    escape_property,
    findings,
    parse_location,
    plain,
    workflow_command,
    workflow_commands,
)
from courtroom.publish.protocol import Annotation


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


def test_a_hostile_file_name_cannot_forge_a_legacy_command_in_ours() -> None:
    assert escape_data("x ##[add-mask]y") == "x ##\uff3badd-mask]y"
    hostile = Annotation("##[error]x.py", 1, 1, "failure", "t ##[set-output name=a]b", "m\n::x")
    line = workflow_command(hostile)
    assert "##[" not in line and "\n" not in line and line.endswith("::m%0A::x")
    assert line.startswith("::error file=##\uff3berror]x.py,line=1,")


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


def _verdict_citing(facts: list[Evidence], score: int) -> Verdict:
    """A verdict whose one criterion, scored ``score`` by every judge, cites ``facts``."""
    pool = {e.id: e for e in facts}
    opinions = [make_opinion(j, "c", score, cites=list(pool)) for j in JUDGES]
    base = make_verdict()
    # The score is set, not synthesised: a penalty for citing a missing fact would move it.
    criterion = make_criterion("c", "Criterion", opinions, pool).model_copy(
        update={"final_score": score})
    return base.model_copy(update={"evidences": pool, "criteria": [criterion]})


def test_the_level_says_how_much_a_fact_weighs() -> None:
    cited = make_evidence("graph wired", location="src/graph.py:3")
    weak = _verdict_citing([cited], 2)
    (note,) = findings(weak)
    assert (note.path, note.start_line, note.level) == ("src/graph.py", 3, "warning")
    assert note.message.endswith("Relevant to: Criterion (2/5).")
    (fine,) = findings(_verdict_citing([cited], 4))
    assert fine.level == "notice"
    absent = make_evidence("retries on failure", location="src/retry.py:1", found=False)
    (missing,) = findings(_verdict_citing([absent], 4))
    assert missing.level == "warning" and "not found" in missing.message


def test_only_located_repository_facts_a_judge_cited_or_security_found_are_annotated() -> None:
    facts = [
        make_evidence("cited in the PDF", location="pdf:page 2"),
        make_evidence("never cited", location="src/a.py:1"),
        make_evidence("Finding: shell=True", location="src/b.py:9", tags=("security",)),
        make_evidence("Finding looked for", location="src/c.py:4", tags=("security",),
                      found=False),
    ]
    verdict = _verdict_citing(facts[:1], 4)
    verdict = verdict.model_copy(update={"evidences": {e.id: e for e in facts}})
    (note,) = findings(verdict)
    assert (note.path, note.level) == ("src/b.py", "failure")
    assert note.message.endswith("Relevant to: security review.")


def test_locations_outside_the_repository_lines_are_not_places() -> None:
    assert parse_location("src/a.py:0") is None
    assert parse_location("/etc/passwd:1") is None
    assert parse_location("src/a.py:9-3") == ("src/a.py", 9, 9)
    assert parse_location("  src/a.py:5 ") == ("src/a.py", 5, 5)


def test_the_api_shape_caps_title_and_message() -> None:
    note = Annotation("a.py", 1, 2, "notice", "t" * 300, "m" * 9000)
    shown = as_api(note)
    assert len(str(shown["title"])) == 255 and len(str(shown["message"])) == 8000
    assert (shown["path"], shown["start_line"], shown["end_line"]) == ("a.py", 1, 2)
    assert shown["annotation_level"] == "notice"


def test_batches_of_fifty_and_a_cap_on_the_whole() -> None:
    many = findings(make_verdict(findings=MAX_ANNOTATIONS + 20))
    assert len(many) == MAX_ANNOTATIONS
    assert [len(b) for b in batches(many[:120])] == [50, 50, 20]
    assert list(batches([])) == []


def test_a_hostile_path_cannot_add_properties_to_a_workflow_command() -> None:
    note = Annotation("a,title=x::y.py", 3, 3, "warning", "T", "line one\nline two")
    line = workflow_command(note)
    assert line == ("::warning file=a%2Ctitle=x%3A%3Ay.py,line=3,endLine=3,title=T"
                    "::line one%0Aline two")


def test_an_annotation_says_whether_it_lies_in_the_change() -> None:
    facts = [make_evidence(f"Finding {n}", location=f"src/b.py:{n}", tags=("security",))
             .model_copy(update={"in_diff": n == 9}) for n in (9, 20)]
    verdict = _verdict_citing(facts[:1], 4).model_copy(
        update={"evidences": {e.id: e for e in facts}})
    notes = {n.start_line: n for n in findings(verdict)}
    assert notes[9].in_diff is True and notes[9].message.endswith("In the lines this change adds.")
    assert notes[20].in_diff is False and "Outside the lines" in notes[20].message
    (plain_note,) = findings(_verdict_citing(facts[:1], 2).model_copy(
        update={"evidences": {facts[0].id: facts[0].model_copy(update={"in_diff": None})}}))
    assert plain_note.in_diff is None and "change" not in plain_note.message
