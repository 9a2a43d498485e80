"""Source detectives: state types, reducers, structured output, personas, chief justice."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.source import (
    chief_justice,
    persona_prompts,
    python_overview,
    state_facts,
    structured_output,
)
from detectives.conftest import OpenCase, by_goal
from detectives.submissions import JUDGES, exemplary_submission, flawed_submission


def test_state_types_and_reducers(tmp_path: Path, open_case: OpenCase) -> None:
    ev = state_facts(open_case(exemplary_submission(tmp_path / "r")))
    state = by_goal(ev, "Typed model AgentState(TypedDict)")[0]
    assert state.location == "src/state.py:21" and "state" in state.tags
    reducers = {e.content for e in by_goal(ev, "State field with a reducer")}
    assert reducers == {"AgentState.evidences: operator.ior", "AgentState.opinions: operator.add"}
    assert by_goal(ev, "Typed model JudicialOpinion(BaseModel)")
    assert by_goal(ev, "State type holding evidence and opinions")[0].found


def test_no_state_types(tmp_path: Path, open_case: OpenCase) -> None:
    ev = state_facts(open_case(flawed_submission(tmp_path / "r")))
    assert len(ev) == 1 and not ev[0].found


def test_plain_state_without_reducers(tmp_path: Path, open_case: OpenCase) -> None:
    code = "from typing import TypedDict\n\nclass S(TypedDict):\n    opinions: list[str]\n"
    ev = state_facts(open_case(make_repo(tmp_path / "r", files={"s.py": code})))
    missing = by_goal(ev, "State field with a reducer")[0]
    assert not missing.found and missing.location == "s.py:3"


def test_structured_output_with_retry(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(open_case(exemplary_submission(tmp_path / "r")))
    item = by_goal(ev, "Structured output via with_structured_output")[0]
    assert item.location == "src/nodes/judges.py:25"
    assert "with retry handling" in item.rationale


def test_anthropic_parse_and_tools(tmp_path: Path, open_case: OpenCase) -> None:
    code = (
        "def ask(client, Opinion):\n"
        "    a = client.messages.parse(model='m', output_format=Opinion, messages=[])\n"
        "    b = client.messages.create(model='m', tools=[{'name': 'x'}], messages=[])\n"
        "    c = llm.bind_tools([search])\n"
        "    d = client.messages.create(model='m', messages=[])\n"
    )
    ev = structured_output(open_case(make_repo(tmp_path / "r", files={"a.py": code})))
    kinds = sorted(e.goal for e in ev)
    assert kinds == ["Structured output via bind_tools", "Structured output via messages.create"
                     "(tools=...)", "Structured output via messages.parse"]
    assert all("no retry handling" in e.rationale for e in ev)


def test_no_structured_output(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(open_case(flawed_submission(tmp_path / "r")))
    assert len(ev) == 1 and not ev[0].found and "missing" in ev[0].tags


def test_persona_prompts_and_similarity(tmp_path: Path, open_case: OpenCase) -> None:
    ev = persona_prompts(open_case(exemplary_submission(tmp_path / "r")))
    for persona in ("Prosecutor", "Defense", "TechLead"):
        item = by_goal(ev, f"{persona} persona prompt")[0]
        assert item.found and item.location.startswith("src/nodes/judges.py:")
    sim = by_goal(ev, "Persona prompt distinctness")[0]
    assert "distinct prompts" in sim.rationale
    values = [float(line.split(": ")[1]) for line in (sim.content or "").splitlines()]
    assert len(values) == 3 and all(v < 0.2 for v in values)


def test_near_duplicate_personas_and_prompt_files(tmp_path: Path, open_case: OpenCase) -> None:
    base = ("Evaluate the evidence for the criterion carefully and return a score from one "
            "to five with an argument citing evidence ids.")
    files = {
        "prompts/prosecutor.md": "You are the prosecutor. " + base,
        "prompts/defense.md": "You are the defense. " + base,
        "prompts/tech_lead.md": "You are the tech lead. " + base,
    }
    ev = persona_prompts(open_case(make_repo(tmp_path / "r", files=files)))
    assert by_goal(ev, "Defense persona prompt")[0].location == "prompts/defense.md:1"
    sim = by_goal(ev, "Persona prompt distinctness")[0]
    assert "near-duplicate" in sim.rationale


def test_missing_personas(tmp_path: Path, open_case: OpenCase) -> None:
    ev = persona_prompts(open_case(flawed_submission(tmp_path / "r")))
    assert len(ev) == 3 and not any(e.found for e in ev)


def test_chief_justice_rules_vs_llm(tmp_path: Path, open_case: OpenCase) -> None:
    good = chief_justice(open_case(exemplary_submission(tmp_path / "a")))
    assert "applies deterministic rules" in good[0].rationale
    assert good[0].location == "src/justice.py:5" and "synthesis" in good[0].tags
    bad = chief_justice(open_case(flawed_submission(tmp_path / "b")))
    assert "delegates the verdict to an LLM call" in bad[0].rationale


def test_syntax_errors_are_reported_and_parsing_goes_on(tmp_path: Path,
                                                        open_case: OpenCase) -> None:
    files = {"ok.py": JUDGES, "bad.py": "def broken(:\n    return 1\nclass X(BaseModel):\n"
             "    a: int\n", "latin.py": "s = 'caf\xe9'\n".encode("latin-1"),
             "blob.py": b"\x00\x00\x00binary"}
    case = open_case(make_repo(tmp_path / "r", files=files))
    ev = python_overview(case)
    errors = by_goal(ev, "Python file with syntax errors")
    assert [e.location for e in errors] == ["bad.py:1"]
    assert "parse_error" in errors[0].tags
    assert "3 Python files" in by_goal(ev, "Python sources present")[0].rationale
    # the class after the syntax error is still seen
    assert by_goal(state_facts(case), "Typed model X(BaseModel)")


def test_no_python_files(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(make_repo(tmp_path / "r", files={"README.md": "# docs only\n"}))
    for fn in (python_overview, state_facts, structured_output, chief_justice):
        ev = fn(case)
        assert len(ev) == 1 and not ev[0].found and "missing" in ev[0].tags


def test_huge_python_file_is_skipped(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"big.py": "x = 1\n" * 150_000, "small.py": "y = 2\n"}
    ev = python_overview(open_case(make_repo(tmp_path / "r", files=files)))
    assert "1 skipped" in ev[0].rationale


def test_schema_enforced_through_a_retry_wrapper(tmp_path: Path, open_case: OpenCase) -> None:
    code = (
        "from tenacity import Retrying, stop_after_attempt\n\n"
        "def send(client, schema):\n"
        "    transport = Retrying(stop=stop_after_attempt(3))\n"
        "    return transport(client.messages.create, model='m', messages=[],\n"
        "                     output_config={'format': {'schema': schema}})\n"
    )
    ev = structured_output(open_case(make_repo(tmp_path / "r", files={"b.py": code})))
    assert [e.goal for e in ev] == ["Structured output via messages.create(output_config=...)"]
    assert ev[0].location == "b.py:5" and "with retry handling" in ev[0].rationale


def test_persona_prompts_in_tests_are_ignored(tmp_path: Path, open_case: OpenCase) -> None:
    sample = "You are the Prosecutor. " + "Be harsh about every missing piece of evidence. " * 3
    files = {"tests/test_p.py": f"PROSECUTOR_PROMPT = {sample!r}\n"}
    ev = persona_prompts(open_case(make_repo(tmp_path / "r", files=files)))
    assert not by_goal(ev, "Prosecutor persona prompt")[0].found
