"""The remand: a judge's request for a file, a folder or a symbol answered with one
located fact, found or not, from the tree alone."""

from __future__ import annotations

from pathlib import Path

from builders import make_repo

from courtroom.detectives import investigate
from courtroom.models import EvidenceRequest
from detectives.conftest import OpenCase
from detectives.submissions import exemplary_submission


def test_investigate_remand(tmp_path: Path, open_case: OpenCase) -> None:
    case = open_case(exemplary_submission(tmp_path / "r"))
    found = investigate(case, [
        EvidenceRequest(path="src/graph.py", question="is the graph here?"),
        EvidenceRequest(symbol="AgentState"),
        EvidenceRequest(symbol="with_structured_output"),
        EvidenceRequest(path="src/nodes"),
        EvidenceRequest(path="src/missing.py"),
        EvidenceRequest(symbol="NoSuchThing"),
        EvidenceRequest(question="anything?"),
    ])
    by_loc = [(e.found, e.location) for e in found]
    assert by_loc == [
        (True, "src/graph.py:1"),
        (True, "src/state.py:21"),
        (True, "src/nodes/judges.py:25"),
        (True, "src/nodes"),
        (False, "."),
        (False, "."),
        (False, "."),
    ]
    assert all("remand" in e.tags and "github_repo" in e.tags for e in found)
    assert "StateGraph" in (found[0].content or "")
    assert "class AgentState(TypedDict)" in (found[1].content or "")



def test_a_bare_file_name_is_found_by_its_suffix(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"pkg/tools/clone.py": "def clone():\n    pass\n"})
    (found,) = investigate(open_case(repo), [EvidenceRequest(path="./clone.py")])
    assert found.found and found.location == "pkg/tools/clone.py:1"
    assert "suffix match" in found.rationale


def test_a_symbol_only_mentioned_in_text_is_located_by_line(
    tmp_path: Path, open_case: OpenCase
) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": "x = 1\n",
                                            "docs/notes.md": "intro\n\nWe use RetryPolicy.\n"})
    (found,) = investigate(open_case(repo), [EvidenceRequest(symbol="RetryPolicy")])
    assert (found.found, found.location, found.confidence) == (True, "docs/notes.md:3", 0.6)


def test_the_same_request_twice_is_one_fact(tmp_path: Path, open_case: OpenCase) -> None:
    repo = make_repo(tmp_path / "r", files={"app.py": "def run():\n    pass\n"})
    asked = [EvidenceRequest(symbol="run"), EvidenceRequest(symbol="run", question="again")]
    (found,) = investigate(open_case(repo), asked)
    assert found.location == "app.py:1" and "missing" not in found.tags
