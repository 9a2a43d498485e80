"""The structured-output detective on raw SDK calls: a schema in a request body sent with
``**body`` is enforcement; model calls quoted inside string literals are not model code."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives.repo.judge_code import structured_output
from detectives.conftest import OpenCase, by_goal

BODY = '''import json

SCHEMA = {"type": "object", "properties": {"score": {"type": "integer"}}}


def body(prompt: str) -> dict:
    return {
        "model": "some-model",
        "messages": [{"role": "user", "content": prompt}],
        "output_config": {"format": {"type": "json_schema", "schema": SCHEMA}},
    }


def judge(client, prompt):
    for attempt in range(3):
        reply = client.messages.create(**body(prompt))
        return reply
'''

COMMENTED = '''# "output_config": {"format": {"type": "json_schema"}} would bind it
def judge(client, prompt):
    return client.messages.create(model="m", messages=[{"role": "user", "content": prompt}])
'''

QUOTED = '''import json
import subprocess

FIXTURE = """
def judge(llm, prompt):
    return llm.invoke(prompt)
"""


def measure(path):
    out = subprocess.run(["python", path], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)
'''


def test_a_json_schema_request_body_binds_the_output(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(open_case(make_repo(tmp_path / "r", files={"judge.py": BODY})))
    bound = by_goal(ev, "Judge output bound to a schema")[0]
    assert bound.direction == "supports" and bound.location == "judge.py:10"
    assert "output_config json_schema" in (bound.content or "")


def test_a_schema_body_in_a_comment_binds_nothing(tmp_path: Path, open_case: OpenCase) -> None:
    ev = structured_output(open_case(make_repo(tmp_path / "r", files={"judge.py": COMMENTED})))
    assert by_goal(ev, "Judge output bound to a schema")[0].direction == "adverse"


def test_model_calls_quoted_as_data_do_not_make_json_loads_a_charge(
    tmp_path: Path, open_case: OpenCase
) -> None:
    ev = structured_output(open_case(make_repo(tmp_path / "r", files={"bench.py": QUOTED})))
    assert not by_goal(ev, "Free-text model output parsed by hand")


IN_A_DOCSTRING = '''def judge(client, prompt):
    """Send {"response_format": {"type": "json_schema"}} one day."""
    return client.messages.create(model="m", messages=[{"role": "user", "content": prompt}])
'''

NO_MODEL_CALL = '''FORMATS = {"response_format": {"type": "json_schema", "schema": {}}}
'''


def test_schema_text_that_is_never_a_request_key_binds_nothing(
    tmp_path: Path, open_case: OpenCase
) -> None:
    for name, code in (("doc", IN_A_DOCSTRING), ("data", NO_MODEL_CALL)):
        repo = make_repo(tmp_path / name, files={"judge.py": code})
        bound = by_goal(structured_output(open_case(repo)), "Judge output bound to a schema")
        assert all(fact.direction != "supports" for fact in bound), name


BUILT_HERE = '''SCHEMA = {"type": "object"}


def params(prompt: str) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": prompt}],
            "output_config": {"format": {"type": "json_schema", "schema": SCHEMA}}}
'''

SENT_THERE = '''from judge_body import params


def judge(client, prompt):
    for attempt in range(3):
        return client.messages.create(**params(prompt))
'''


def test_a_schema_body_built_in_one_module_and_sent_with_splat_from_another_binds(
    tmp_path: Path, open_case: OpenCase
) -> None:
    repo = make_repo(tmp_path / "r", files={"judge_body.py": BUILT_HERE,
                                            "judge.py": SENT_THERE})
    bound = by_goal(structured_output(open_case(repo)), "Judge output bound to a schema")[0]
    assert bound.direction == "supports" and bound.location == "judge_body.py:6"
