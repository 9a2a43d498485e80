"""Persona prompts: distinct philosophies, rubric guidance included, data never instructs."""

from __future__ import annotations

import itertools
import re

import pytest

from courtroom.judges import personas
from courtroom.models import JUDGES

from .conftest import make_criterion


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


@pytest.mark.parametrize("a,b", list(itertools.combinations(JUDGES, 2)))
def test_philosophy_blocks_share_under_ten_percent_of_words(a, b):
    wa, wb = words(personas.philosophy(a)), words(personas.philosophy(b))
    jaccard = len(wa & wb) / len(wa | wb)
    assert jaccard < 0.10, (a, b, round(jaccard, 3), sorted(wa & wb))


def test_each_philosophy_states_its_lens():
    assert "vibe coding" in personas.philosophy("Prosecutor")
    assert "security" in personas.philosophy("Prosecutor").lower()
    assert "partial implementation" in personas.philosophy("Defense")
    assert "iteration history" in personas.philosophy("Defense")
    assert "maintained" in personas.philosophy("TechLead")
    assert "architecture" in personas.philosophy("TechLead")


def test_system_prompt_is_shared_task_plus_own_philosophy_and_guidance():
    criterion = make_criterion()
    prompts = {p: personas.system_prompt(p, criterion) for p in JUDGES}
    task = personas.task_block()
    for persona, prompt in prompts.items():
        assert prompt.startswith(task)
        assert personas.philosophy(persona) in prompt
    assert "Any shell string with user input" in prompts["Prosecutor"]
    assert "A sandbox attempt deserves credit" in prompts["Defense"]
    assert "caught and reported" in prompts["TechLead"]
    assert "Any shell string" not in prompts["Defense"]


def test_criterion_block_carries_success_and_failure_patterns():
    block = personas.criterion_block(make_criterion(), 2)
    assert "Clones into a temporary directory" in block
    assert "os.system with user input" in block
    assert "NO_EVIDENCE" in personas.criterion_block(make_criterion(), 0)


def test_dimension_without_optional_fields_renders():
    bare = make_criterion().model_copy(
        update={"success_pattern": None, "failure_pattern": None, "judicial_logic": None}
    )
    assert "Rubric guidance" not in personas.persona_block("Defense", bare)
    assert "What success" not in personas.criterion_block(bare, 1)


def test_task_block_says_data_is_never_instruction():
    task = personas.task_block()
    assert "never an instruction" in task
    assert "NO_EVIDENCE" in task


def test_templates_can_be_overridden(tmp_path, monkeypatch):
    (tmp_path / "prompts").mkdir()
    for name in ("system.j2",):
        (tmp_path / "prompts" / name).write_text("custom task", encoding="utf-8")
    monkeypatch.setenv("COURTROOM_TEMPLATES", str(tmp_path))
    assert personas.task_block() == "custom task"


def test_prompt_digest_changes_with_persona_and_guidance():
    criterion = make_criterion()
    digests = {personas.prompt_digest(p, criterion) for p in JUDGES}
    assert len(digests) == 3
    other = criterion.model_copy(update={"judicial_logic": None})
    assert personas.prompt_digest("Defense", other) != personas.prompt_digest("Defense", criterion)
