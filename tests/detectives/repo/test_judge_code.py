"""Judging detectives: structured output, retries, persona prompts, the chief justice's rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.repo.judge_code import justice_rules, persona_prompts, structured_output
from detectives.conftest import OpenCase, by_goal
from detectives.submissions import exemplary_submission, flawed_submission

CALLER_LOOP = '''
def judge(llm, prompt):
    return llm.with_structured_output(Opinion).invoke(prompt)


def run_judges(llm, prompts):
    out = []
    for prompt in prompts:
        for attempt in range(3):
            try:
                out.append(judge(llm, prompt))
                break
            except ValueError:
                continue
    return out
'''

POLICY = '''from langgraph.pregel import RetryPolicy


def build(builder, judge_node):
    builder.add_node("judge", judge_node, retry=RetryPolicy(max_attempts=3))
'''

FREE_TEXT = '''import json
import re


def judge(client, prompt):
    reply = client.chat(prompt)
    match = re.search(r"\\{.*\\}", reply, re.S)
    return json.loads(match.group(0))
'''


def _case(tmp_path: Path, open_case: OpenCase, files: dict[str, str]):
    return open_case(make_repo(tmp_path / "r", files=files))


def test_schema_bound_calls_with_retry(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(open_case(exemplary_submission(tmp_path / "r")))
    bound = by_goal(ev, "Judge output bound to a schema")[0]
    assert bound.location == "src/nodes/judges.py:25" and bound.direction == "supports"
    assert by_goal(ev, "Retry on failed or malformed output")[0].direction == "supports"


def test_retry_loop_in_the_caller_counts(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(_case(tmp_path, open_case, {"src/judges.py": CALLER_LOOP}))
    assert by_goal(ev, "Retry on failed or malformed output")[0].direction == "supports"


def test_retry_policy_on_the_graph_counts(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"src/judges.py": CALLER_LOOP.split("\n\n\ndef run_judges")[0],
             "src/graph.py": POLICY}
    ev = structured_output(_case(tmp_path, open_case, files))
    assert by_goal(ev, "Retry on failed or malformed output")[0].direction == "supports"


def test_no_retry_is_adverse(tmp_path: Path, open_case: OpenCase) -> None:
    files = {"src/judges.py": CALLER_LOOP.split("\n\n\ndef run_judges")[0]}
    retry = by_goal(structured_output(_case(tmp_path, open_case, files)), "Retry on")[0]
    assert retry.direction == "adverse" and not retry.found and retry.fix


def test_hand_parsed_free_text_is_adverse(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(_case(tmp_path, open_case, {"src/judges.py": FREE_TEXT}))
    assert by_goal(ev, "Judge output bound to a schema")[0].direction == "adverse"
    hand = by_goal(ev, "Free-text model output parsed by hand")[0]
    assert hand.found and hand.direction == "adverse" and hand.location == "src/judges.py:7"


def test_no_structured_output(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(open_case(flawed_submission(tmp_path / "r")))
    assert by_goal(ev, "Judge output bound to a schema")[0].direction == "adverse"


PERSONA_FILES = {
    "src/judges/prosecutor.py": '''class Prosecutor:
    def get_system_prompt(self) -> str:
        return """You are strict. Trust nothing, assume vibe coding, and hunt for every gap,
missing reducer, linear pipeline and security flaw. Charge what you can prove with cited
evidence and argue for the lowest score the facts allow, never for comfort or effort."""
''',
    "src/judges/config.py": '''NAME = "x"
PERSONA_CONFIG = {
    "Defense": {
        "philosophy": "Reward effort and intent; look for the spirit of the law.",
        "guidance": f"Credit partial work in {NAME} and iteration visible in the history, "
                    "explain mitigating circumstances, and argue for the highest score the "
                    "evidence can carry while staying honest about what is missing.",
    },
    "TechLead": {"philosophy": "Does it actually work? Is it maintainable by the team?",
                 "guidance": "Weigh architecture, error handling and technical debt, break "
                             "ties pragmatically, and give a remediation a junior could follow "
                             "without asking anyone for help."},
}
''',
}


def test_prompts_returned_by_methods_and_nested_configs(tmp_path: Path,
                                                        open_case: OpenCase) -> None:
    ev = persona_prompts(_case(tmp_path, open_case, PERSONA_FILES))
    for persona in ("Prosecutor", "Defense", "TechLead"):
        item = by_goal(ev, f"{persona} persona prompt")[0]
        assert item.found and item.direction == "supports", persona
    assert by_goal(ev, "Persona prompts are distinct")[0].direction == "supports"
    assert by_goal(ev, "Persona prompts give substantive")[0].direction == "supports"


def test_one_line_personas_are_adverse(tmp_path: Path, open_case: OpenCase) -> None:
    code = ('PROSECUTOR_PROMPT = "You are the Prosecutor. Find flaws, gaps and laziness, and '
            'score strictly."\nDEFENSE_PROMPT = "You are the Defense. Reward effort and intent, '
            'and score generously."\n')
    ev = persona_prompts(_case(tmp_path, open_case, {"src/judges.py": code}))
    short = by_goal(ev, "Persona prompts give substantive")[0]
    assert short.direction == "adverse" and "Defense, Prosecutor prompt(s)" in short.rationale
    missing = by_goal(ev, "TechLead persona prompt")[0]
    assert missing.direction == "adverse"
    # The fix names where the prompt belongs: beside the prompts the repository has.
    assert missing.location == "src/judges.py:1" and "`src/judges.py:1`" in (missing.fix or "")


def test_missing_personas_point_at_the_model_code(tmp_path: Path, open_case: OpenCase) -> None:
    code = "from anthropic import Anthropic\n\nclient = Anthropic()\n" \
           "reply = client.messages.create(model='m', max_tokens=9, messages=[])\n"
    ev = persona_prompts(_case(tmp_path, open_case, {"src/judge.py": code}))
    missing = by_goal(ev, "Defense persona prompt")[0]
    assert missing.location == "src/judge.py:1" and "which calls the model" in (missing.fix or "")


def test_near_duplicate_personas_and_prompt_files(tmp_path: Path, open_case: OpenCase) -> None:
    base = ("Evaluate the evidence for the criterion carefully and return a score from one "
            "to five with an argument citing evidence ids.")
    files = {"prompts/prosecutor.md": "You are the prosecutor. " + base,
             "prompts/defense.md": "You are the defense. " + base,
             "prompts/tech_lead.md": "You are the tech lead. " + base}
    ev = persona_prompts(_case(tmp_path, open_case, files))
    assert by_goal(ev, "Defense persona prompt")[0].location == "prompts/defense.md:1"
    sim = by_goal(ev, "Persona prompts are distinct")[0]
    assert "near-duplicate" in sim.rationale and sim.direction == "adverse"


def test_persona_prompts_in_tests_are_ignored(tmp_path: Path, open_case: OpenCase) -> None:
    sample = "You are the Prosecutor. " + "Be harsh about every missing piece of evidence. " * 3
    ev = persona_prompts(_case(tmp_path, open_case,
                               {"tests/test_p.py": f"PROSECUTOR_PROMPT = {sample!r}\n"}))
    assert not by_goal(ev, "Prosecutor persona prompt")[0].found


def test_chief_justice_rules_as_code(tmp_path: Path, open_case: OpenCase) -> None:
    good = justice_rules(open_case(exemplary_submission(tmp_path / "a")))
    assert good[0].goal == "Verdict by deterministic rules (no LLM call)"
    assert good[0].direction == "supports" and good[0].location == "src/justice.py:7"
    rules = by_goal(good, "Chief justice rule:")
    assert len(rules) == 5 and all(r.direction == "supports" for r in rules)


def test_a_rule_only_in_a_comment_is_no_rule(tmp_path: Path, open_case: OpenCase) -> None:
    code = ('"""Chief justice: applies dissent and variance re-evaluation."""\n\n\n'
            "def chief_justice(opinions):\n"
            "    # TODO: dissent summary and fact supremacy\n"
            "    scores = [o.score for o in opinions]\n"
            "    return round(sum(scores) / len(scores))\n")
    ev = justice_rules(_case(tmp_path, open_case, {"src/justice.py": code}))
    rules = {r.goal.split(": ")[1]: r.direction for r in by_goal(ev, "Chief justice rule:")}
    assert rules["dissent summary"] == "adverse" and rules["fact supremacy"] == "adverse"


def test_llm_chief_justice_is_adverse(tmp_path: Path, open_case: OpenCase) -> None:
    bad = justice_rules(open_case(flawed_submission(tmp_path / "b")))
    assert bad[0].goal == "Chief justice delegates the verdict to an LLM call"
    assert bad[0].found and bad[0].direction == "adverse"


def test_a_regex_quantifier_is_not_json_fishing(tmp_path: Path, open_case: OpenCase) -> None:
    code = ('import re\n\n\ndef judge(client, prompt):\n    reply = client.chat(prompt)\n'
            '    return re.findall(r"[a-z_]{3,}\\.py", reply)\n')
    ev = structured_output(_case(tmp_path, open_case, {"src/judges.py": code}))
    assert not by_goal(ev, "Free-text model output parsed by hand")


def test_a_model_that_only_words_the_remediation_decides_nothing(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("def chief_justice(opinions):\n"
            "    scores = sorted(o.score for o in opinions)\n"
            "    if scores[-1] - scores[0] > 2:\n        return scores[1]\n"
            "    return round(sum(scores) / len(scores))\n\n\n"
            "def generate_remediation(llm, final_score, opinions):\n"
            "    return llm.invoke(f'Advise how to raise {final_score}').content\n\n\n"
            "def report(llm, opinions):\n"
            "    score = chief_justice(opinions)\n"
            "    remediation = generate_remediation(llm, score, opinions)\n"
            "    return {'score': score, 'remediation': remediation}\n")
    ev = justice_rules(_case(tmp_path, open_case, {"src/justice.py": code}))
    assert not by_goal(ev, "Chief justice delegates the verdict")
    assert by_goal(ev, "Verdict by deterministic rules")[0].location == "src/justice.py:1"
    prose = by_goal(ev, "Model writes prose around the rule-made verdict")[0]
    assert prose.direction == "context" and prose.location == "src/justice.py:8"


def test_a_model_that_drafts_the_scores_cannot_be_the_rule(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("def chief_justice_node(llm, opinions):\n"
            "    report = llm.with_structured_output(Report).invoke(str(opinions))\n"
            "    if report.score > 4:\n        report.score = 4\n"
            "    return report\n")
    ev = justice_rules(_case(tmp_path, open_case, {"src/justice.py": code}))
    bad = by_goal(ev, "Chief justice delegates the verdict")[0]
    assert bad.direction == "adverse" and "unworkable" in bad.tags


def test_a_call_asked_again_from_its_except_clause_is_a_retry(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("def prosecutor(model, messages):\n"
            "    judge = model.with_structured_output(JudicialOpinion)\n"
            "    try:\n        return judge.invoke(messages)\n"
            "    except Exception as exc:\n"
            "        messages.append(f'Previous output was malformed: {exc}')\n"
            "        return judge.invoke(messages)\n")
    ev = structured_output(_case(tmp_path, open_case, {"src/judges.py": code}))
    assert by_goal(ev, "Retry on failed or malformed output")[0].direction == "supports"


def test_serialising_our_own_model_is_not_parsing_free_text(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("import json\n\n\ndef dump(llm, items):\n    llm.invoke('summarise')\n"
            "    return [json.loads(e.model_dump_json()) for e in items]\n")
    ev = structured_output(_case(tmp_path, open_case, {"src/main.py": code}))
    assert not by_goal(ev, "Free-text model output parsed by hand")


def test_a_pydantic_output_parser_validates_the_answer(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("from langchain_core.output_parsers import PydanticOutputParser\n\n\n"
            "def judge(llm, prompt):\n"
            "    parser = PydanticOutputParser(pydantic_object=JudicialOpinion)\n"
            "    return parser.parse(llm.invoke(prompt).content)\n")
    ev = structured_output(_case(tmp_path, open_case, {"src/judges.py": code}))
    checked = by_goal(ev, "Parsed output validated against a model")[0]
    assert checked.direction == "supports" and checked.location == "src/judges.py:5"


def test_personas_sharing_most_of_their_text_are_not_distinct(
        tmp_path: Path, open_case: OpenCase) -> None:
    block = ("Return JSON only: {\"criterion_id\": str, \"score\": int from 1 to 5, "
             "\"argument\": str citing evidence ids, \"cited_evidence\": [ids]}. " * 4)
    # Few shared words but many shared characters: word sets stay apart, the text does not.
    own = {name: f"You are the {name.title()}. " + " ".join(
        f"{name.lower()}{chr(97 + i)}" for i in range(26)) + ". "
        for name in ("PROSECUTOR", "DEFENSE", "TECH_LEAD")}
    code = "".join(f"{k}_PROMPT = {v + block!r}\n" for k, v in own.items())
    ev = persona_prompts(_case(tmp_path, open_case, {"src/judges.py": code}))
    item = by_goal(ev, "Persona prompts are distinct")[0]
    assert item.direction == "adverse" and "share most of their text" in item.rationale
    assert "`src/judges.py:" in (item.fix or "")


def test_a_model_named_for_prose_whose_answer_becomes_the_score_decides(
        tmp_path: Path, open_case: OpenCase) -> None:
    # The name is the author's to choose: where its answer goes decides.
    code = ("def chief_justice(opinions):\n"
            "    return round(sum(o.score for o in opinions) / len(opinions))\n\n\n"
            "def write_summary(llm, opinions):\n"
            "    return int(llm.invoke(str(opinions)).content)\n\n\n"
            "def report(llm, opinions):\n"
            "    final_score = write_summary(llm, opinions)\n"
            "    return final_score\n")
    ev = justice_rules(_case(tmp_path, open_case, {"src/justice.py": code}))
    bad = by_goal(ev, "Chief justice delegates the verdict")[0]
    assert bad.direction == "adverse" and "write_summary" in bad.rationale
    assert not by_goal(ev, "Model writes prose")


def _mandate(name: str) -> str:
    """A persona's own text: words no other persona uses."""
    return f"You are the {name.title()}. " + " ".join(
        f"{name.lower()}{chr(97 + i)}" for i in range(30)) + ". "


_PERSONAS = ("PROSECUTOR", "DEFENSE", "TECH_LEAD")
_SCAFFOLD = ("Review the evidence for the criterion, list what it shows and what it lacks, "
             "score it from one to five against the rubric levels, cite every evidence id "
             "you rely on, and return the opinion as JSON matching the schema. ") * 2


@pytest.mark.parametrize("shape", ["fstring", "template", "dump"])
def test_a_block_pasted_into_every_persona_prompt_counts_as_shared_text(
        tmp_path: Path, open_case: OpenCase, shape: str) -> None:
    # The shared text is written once and pasted into each prompt: the prompts as sent
    # share most of their text though each literal differs.
    if shape == "fstring":
        code = f"SCAFFOLD = {_SCAFFOLD!r}\n" + "".join(
            f"{k}_PROMPT = (\n    {_mandate(k)!r}\n    f\"{{SCAFFOLD}}\"\n)\n"
            for k in _PERSONAS)
    elif shape == "template":
        code = f"SCAFFOLD = {_SCAFFOLD!r}\n" + "".join(
            f"{k}_PROMPT = {_mandate(k) + '{scaffold} Criterion: {criterion}'!r}\n"
            for k in _PERSONAS)
    else:
        code = "import json\n\n\ndef prompts(rubric):\n" + "".join(
            f"    {k.lower()}_prompt = (\n        {_mandate(k)!r}\n"
            f"        f\"RUBRIC: {{json.dumps(rubric['dimensions'], indent=2)}}\"\n    )\n"
            for k in _PERSONAS) + "    return prosecutor_prompt\n"
    ev = persona_prompts(_case(tmp_path, open_case, {"src/judges.py": code}))
    item = by_goal(ev, "Persona prompts are distinct")[0]
    assert item.direction == "adverse", item.rationale
    assert "pasted" in item.rationale


def test_shared_guard_clauses_beside_long_own_mandates_stay_distinct(
        tmp_path: Path, open_case: OpenCase) -> None:
    guard = "Cite only evidence ids that appear in the evidence list; never invent a path. "
    code = f"GUARD = {guard!r}\n" + "".join(
        f"{k}_PROMPT = (\n    {_mandate(k) * 3!r}\n    f\"{{GUARD}}\"\n)\n" for k in _PERSONAS)
    ev = persona_prompts(_case(tmp_path, open_case, {"src/judges.py": code}))
    assert by_goal(ev, "Persona prompts are distinct")[0].direction == "supports"


_CJ_HEAD = ("def chief_justice(opinions, evidences):\n"
            "    final_score = round(sum(o.score for o in opinions) / len(opinions))\n")


@pytest.mark.parametrize(("body", "rule"), [
    # The evidence check only words the remediation: it overrules nothing.
    ("    missing = [e for e in evidences if e.found is False]\n"
     "    remediation = 'ok'\n"
     "    if missing:\n"
     "        remediation = 'Address failures in: ' + ', '.join(e.location for e in missing)\n"
     "    return final_score, remediation\n", False),
    # The check is a branch that caps the score.
    ("    if any(not e.found for e in evidences):\n"
     "        final_score = min(final_score, 2)\n"
     "    return final_score\n", True),
    # The check sets a flag a later branch turns into a score.
    ("    contradicted = False\n"
     "    for e in evidences:\n"
     "        if e.found is False:\n"
     "            contradicted = True\n"
     "    if contradicted:\n"
     "        final_score = 1\n"
     "    return final_score\n", True),
])
def test_fact_supremacy_counts_only_where_the_facts_change_a_score(
        tmp_path: Path, open_case: OpenCase, body: str, rule: bool) -> None:
    ev = justice_rules(_case(tmp_path, open_case, {"src/justice.py": _CJ_HEAD + body}))
    fact = by_goal(ev, "Chief justice rule: fact supremacy")[0]
    assert (fact.direction == "supports") is rule, fact.rationale


def test_fact_supremacy_in_a_helper_whose_answer_gates_the_score(
        tmp_path: Path, open_case: OpenCase) -> None:
    code = ("def _evidence_supports(evidences):\n"
            "    return any(e.found for e in evidences)\n\n\n" + _CJ_HEAD +
            "    if not _evidence_supports(evidences):\n"
            "        final_score = min(o.score for o in opinions)\n"
            "    return final_score\n")
    ev = justice_rules(_case(tmp_path, open_case, {"src/justice.py": code}))
    fact = by_goal(ev, "Chief justice rule: fact supremacy")[0]
    assert fact.direction == "supports" and fact.location == "src/justice.py:2"
