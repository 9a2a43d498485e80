"""Claims checked by meaning: one generated report per claim kind, told true or false by
the code, each false one citing the page and the ``path:line`` that contradicts it."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_pdf, make_repo

from courtroom.detectives.report.claim_checks import check_meaning
from courtroom.detectives.report.detective import report
from courtroom.detectives.report.pdf_read import load_pdf
from detectives.conftest import OpenCase, by_goal

JUDGE_PLAIN = ("from langchain_openai import ChatOpenAI\n\nllm = ChatOpenAI()\n\n\n"
               "def judge(prompt):\n    return llm.invoke(prompt)\n")
JUDGE_RETRIED = ("from tenacity import retry, stop_after_attempt\n"
                 "from langchain_openai import ChatOpenAI\n\nllm = ChatOpenAI()\n\n\n"
                 "@retry(stop=stop_after_attempt(3))\n"
                 "def judge(prompt):\n    return llm.invoke(prompt)\n")
CLONE_PLAIN = ("import subprocess\n\n\ndef clone(url):\n"
               "    subprocess.run(['git', 'clone', url, 'work'], check=True)\n")
CLONE_TEMP = ("import subprocess\nimport tempfile\n\n\ndef clone(url):\n"
              "    with tempfile.TemporaryDirectory() as tmp:\n"
              "        subprocess.run(['git', 'clone', url, tmp], check=True)\n")
JUSTICE = ("WEIGHTS = {'TechLead': 2.0, 'Prosecutor': 1.0}\n\n\n"
           "def chief_justice(opinions, evidence):\n"
           "    if any(o.judge == 'Prosecutor' and 'security' in o.argument for o in opinions):\n"
           "        return min(3, max(o.score for o in opinions))\n"
           "    return round(sum(o.score for o in opinions) / len(opinions))\n")

CASES = [
    # (claim kind, sentence, repository files where it holds, where it does not)
    ("judge retries", "Every judge call is retried three times with tenacity when the model "
     "output fails validation.", {"src/judges.py": JUDGE_RETRIED},
     {"src/judges.py": JUDGE_PLAIN}),
    ("temporary-directory clone", "The repository is cloned into a tempfile.TemporaryDirectory "
     "so nothing is left behind.", {"src/tools.py": CLONE_TEMP},
     {"src/tools.py": CLONE_PLAIN}),
    ("persona weight", "The chief justice counts the TechLead opinion 2.0x on architecture.",
     {"src/justice.py": JUSTICE},
     {"src/justice.py": JUSTICE.replace("2.0", "1.5")}),
    ("security override", "The chief justice applies a security override that caps the score.",
     {"src/justice.py": JUSTICE},
     {"src/justice.py": JUSTICE.replace("'security' in o.argument", "o.score < 2")}),
    ("fact supremacy", "Fact supremacy: detective evidence overrides judge opinions.",
     {"src/justice.py": JUSTICE.replace("evidence):", "evidence):\n    opinions = [o for o in "
                                        "opinions if all(e.found for e in evidence)]")},
     {"src/justice.py": JUSTICE}),
    ("variance re-evaluation", "A variance check re-runs the judges when scores disagree.",
     {"src/justice.py": JUSTICE.replace("    return round", "    if max(s) - min(s) > 2:\n"
                                        "        return re_evaluate(opinions)\n    return round")},
     {"src/justice.py": JUSTICE}),
]


@pytest.mark.parametrize(("kind", "sentence", "holds", "fails"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_claim_kind_is_checked_by_meaning(tmp_path: Path, open_case: OpenCase, kind: str,
                                               sentence: str, holds: dict[str, str],
                                               fails: dict[str, str]) -> None:
    pdf = make_pdf(tmp_path / "r.pdf", ["Introduction to the auditor.", sentence])
    good = check_meaning(load_pdf(pdf, "r.pdf"),
                         open_case(make_repo(tmp_path / "a", files=holds)).workspace)
    claim = next(c for c in good if c.claim == kind)
    assert claim.supported and claim.asserted and claim.page == 2, claim
    bad = check_meaning(load_pdf(pdf, "r.pdf"),
                        open_case(make_repo(tmp_path / "b", files=fails)).workspace)
    claim = next(c for c in bad if c.claim == kind)
    assert not claim.supported and claim.code is not None and ":" in claim.code, claim
    assert claim.code.split(":")[0] in fails


def test_a_contradicted_claim_cites_the_page_and_the_code(tmp_path: Path,
                                                         open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "r.pdf", ["Judge outputs are retried with tenacity on a "
                                        "validation error."])
    ev = report(open_case(make_repo(tmp_path / "b", files={"src/judges.py": JUDGE_PLAIN}), pdf))
    claim = by_goal(ev, "Report claim 'judge retries'")[0]
    assert claim.direction == "adverse" and claim.location == "pdf:page 1"
    assert "src/judges.py:7" in claim.rationale and "`src/judges.py:7`" in (claim.fix or "")


def test_an_admitted_missing_retry_is_not_a_false_claim(tmp_path: Path,
                                                       open_case: OpenCase) -> None:
    pdf = make_pdf(tmp_path / "r.pdf", ["Known gap: judge calls have no retry yet."])
    ev = report(open_case(make_repo(tmp_path / "b", files={"src/judges.py": JUDGE_PLAIN}), pdf))
    claim = by_goal(ev, "Report claim 'judge retries'")[0]
    assert claim.direction == "supports" and "admits" in claim.rationale


def test_several_false_claims_discredit_the_report(tmp_path: Path, open_case: OpenCase) -> None:
    pages = ["Judge outputs are retried with tenacity on a validation error.",
             "The repository is cloned into a tempfile.TemporaryDirectory sandbox.",
             "The chief justice applies a security override."]
    files = {"src/judges.py": JUDGE_PLAIN, "src/tools.py": CLONE_PLAIN,
             "src/justice.py": JUSTICE}
    ev = report(open_case(make_repo(tmp_path / "b", files=files),
                          make_pdf(tmp_path / "r.pdf", pages)))
    summary = by_goal(ev, "Several of the report's statements are false")[0]
    assert summary.direction == "adverse" and "discredited" in summary.tags
    assert summary.location == "pdf:page 1" and "src/judges.py:7" in summary.rationale
    one = report(open_case(make_repo(tmp_path / "c", files=files),
                           make_pdf(tmp_path / "s.pdf", pages[2:])))
    assert not by_goal(one, "Several of the report's statements are false")


def test_a_bare_number_elsewhere_is_no_stated_weight(tmp_path: Path, open_case: OpenCase) -> None:
    code = ("def chief_justice(opinions):\n"
            "    weights = {o.judge: 1.0 for o in opinions}\n"
            "    return round(sum(o.score for o in opinions) / 2.0, 2)\n")
    pdf = make_pdf(tmp_path / "r.pdf", ["The TechLead opinion counts 2x on architecture."])
    checks = check_meaning(load_pdf(pdf, "r.pdf"), open_case(
        make_repo(tmp_path / "a", files={"src/justice.py": code})).workspace)
    claim = next(c for c in checks if c.claim == "persona weight")
    assert not claim.supported and claim.code == "src/justice.py:1"
