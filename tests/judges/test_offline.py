"""The offline bench: deterministic, three real lenses, honest citations, named files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from detectives.submissions import flawed_submission, mixed_submission

from courtroom.court import hearing_rules
from courtroom.judges.base import JudgeRequest
from courtroom.judges.envelope import evidence_data
from courtroom.judges.offline import OfflineBackend
from courtroom.models import JUDGES, NO_EVIDENCE
from courtroom.pipeline import audit
from courtroom.settings.config import AuditConfig

from .conftest import ev, make_criterion, mixed_evidence


def opine(persona, evidence, **kw):
    request = JudgeRequest(persona=persona, criterion=make_criterion(), evidence=evidence, **kw)
    return OfflineBackend().opine(request)[0]


def test_same_input_same_output_across_instances():
    for persona in JUDGES:
        first = opine(persona, mixed_evidence())
        again = opine(persona, mixed_evidence())
        assert first.model_dump() == again.model_dump()


def test_opinion_id_depends_on_content():
    a = opine("Prosecutor", mixed_evidence())
    b = opine("Prosecutor", mixed_evidence()[:2])
    assert a.opinion_id != b.opinion_id


def test_lenses_really_differ_on_mixed_evidence():
    ops = {p: opine(p, mixed_evidence()) for p in JUDGES}
    assert ops["Prosecutor"].score < ops["TechLead"].score < ops["Defense"].score
    assert len({o.argument for o in ops.values()}) == 3
    # The Prosecutor charges, the Defense mitigates.
    assert ops["Prosecutor"].charges and not ops["Prosecutor"].mitigations
    assert ops["Defense"].mitigations and not ops["Defense"].charges


def test_prosecutor_charges_missing_unsafe_and_unverified_facts():
    op = opine("Prosecutor", mixed_evidence())
    charges = " ".join(op.charges or [])
    assert "shell injection" in charges
    assert "Missing: tempfile.TemporaryDirectory" in charges
    assert "Unverified (confidence 0.50)" in charges
    security = mixed_evidence()[0]
    assert op.cited_evidence[0] == security.id
    assert op.score <= 2


def test_defense_credits_partial_work_and_history():
    op = opine("Defense", mixed_evidence())
    text = " ".join(op.mitigations or [])
    assert "Partial credit" in text and "22 commits" in text
    assert "history shows iteration" in op.argument


def test_techlead_weighs_working_parts_and_defects():
    op = opine("TechLead", mixed_evidence())
    assert "3 fact(s) show working parts against 2" in op.argument
    assert op.charges and op.charges[0].startswith("Defect:")
    assert op.score <= 3  # a security defect caps what "it works" can earn


def test_no_evidence_cites_the_sentinel():
    for persona in JUDGES:
        op = opine(persona, [])
        assert op.cited_evidence == [NO_EVIDENCE]
        assert "safe tool engineering" in op.argument.lower()
        assert op.remediation and "clones and runs git" in op.remediation


def test_nothing_found_cites_no_evidence_and_names_the_absence():
    missing = [ev("StateGraph builder", found=False, location="src/graph.py")]
    for persona in JUDGES:
        op = opine(persona, missing)
        assert op.cited_evidence == [NO_EVIDENCE]
    assert "src/graph.py" in opine("Prosecutor", missing).argument


def test_citations_are_real_found_ids():
    evidence = mixed_evidence()
    found = {e.id for e in evidence if e.found}
    for persona in JUDGES:
        op = opine(persona, evidence)
        assert op.cited_evidence and set(op.cited_evidence) <= found


def test_remediation_names_the_place_and_the_change_of_each_adverse_fact():
    for persona in JUDGES:
        op = opine(persona, mixed_evidence())
        assert op.remediation and "`src/tools.py:12`" in op.remediation
    gap = [ev("Fan-in explained", found=False, location="pdf:page 3", tags=("pdf_report",),
              rationale="The report never explains the join.", fix="explain the fan-in node.")]
    assert opine("Prosecutor", gap).remediation == (
        "PDF page 3: The report never explains the join; explain the fan-in node.")


def test_no_advice_to_add_what_exists():
    held = [ev("Reducer on the opinions field", location="src/state.py:12", tags=("state",)),
            ev("Typed graph state", location="src/state.py:9", tags=("state",))]
    for persona in JUDGES:
        assert opine(persona, held).remediation is None


def test_file_paths_keep_their_case():
    item = [ev("README section missing", found=False, location="docs/README_Setup.md")]
    assert "docs/README_Setup.md" in (opine("Prosecutor", item).remediation or "")


def test_hearing_round_delegates_to_hearing_rules(monkeypatch):
    calls = []
    revised = opine("Defense", mixed_evidence()).model_copy(update={"score": 2})

    def revise(request):
        calls.append(request.round)
        return revised

    monkeypatch.setattr(hearing_rules, "revise", revise)
    previous = opine("Defense", mixed_evidence())
    out = opine("Defense", mixed_evidence(), round=1, previous=previous)
    assert calls == [1] and out.score == 2



def test_an_adverse_fact_is_never_credit_even_when_found():
    # "found: true" only says the detective saw it; the fact points against the criterion.
    verdicts = [ev("Chief justice delegates the verdict to an LLM call",
                   location="src/justice.py:40", tags=("synthesis",), direction="adverse"),
                ev("No retry around the model call", location="src/judges.py:12",
                   tags=("synthesis",), direction="adverse")]
    ops = {p: opine(p, verdicts) for p in JUDGES}
    assert ops["Defense"].score == 1 and ops["Defense"].mitigations is None
    assert ops["Defense"].cited_evidence == [NO_EVIDENCE]
    assert ops["TechLead"].score == 1 and ops["TechLead"].mitigations is None
    assert ops["Prosecutor"].score == 1
    assert any("LLM call" in c for c in ops["Prosecutor"].charges or [])


def test_context_facts_earn_nothing():
    background = [ev("Python sources present", location=".", direction="context")]
    assert {p: opine(p, background).score for p in JUDGES} == {
        "Prosecutor": 1, "Defense": 2, "TechLead": 1}


def test_a_bad_thing_not_found_is_good_news():
    clean = [ev("Code arrived in steps (no bulk upload)", found=True,
                location="0a1b2c3d4e5f6", tags=("git", "history")),
             ev("Commit history", location="0a1b2c3d4e5f6", tags=("git", "history"))]
    pros = opine("Prosecutor", clean)
    assert not pros.charges and pros.remediation is None
    assert pros.score == 5  # nothing left to charge


def test_a_bad_thing_found_is_charged():
    dirty = [ev("Bulk upload: most of the code arrived in one burst", location="0a1b2c3d4e5f6",
                tags=("git", "history"), direction="adverse"),
             ev("Commit history", location="0a1b2c3d4e5f6", tags=("git", "history"))]
    pros = opine("Prosecutor", dirty)
    assert any(c.startswith("Against: Bulk upload") for c in pros.charges or [])
    assert dirty[0].id in pros.cited_evidence
    assert any("Bulk upload" in c for c in opine("TechLead", dirty).charges or [])
    assert not any("Bulk" in m for m in opine("Defense", dirty).mitigations or [])
    assert dirty[0].id not in opine("Defense", dirty).cited_evidence


def test_the_share_of_aspects_sets_the_score():
    def aspects(held: int, failed: int) -> list:
        return ([ev(f"Aspect {i} holds", location=f"src/a{i}.py:1") for i in range(held)]
                + [ev(f"Aspect {i} fails", location=f"src/b{i}.py:1", direction="adverse")
                   for i in range(failed)])
    scores = {(h, a): [opine(p, aspects(h, a)).score for p in JUDGES]
              for h, a in ((5, 0), (3, 1), (1, 1), (1, 3))}
    assert scores[(5, 0)] == [5, 5, 5]
    assert scores[(3, 1)] == [4, 4, 4]
    assert scores[(1, 1)] == [3, 4, 3]
    assert scores[(1, 3)] == [2, 3, 2]
    # One goal found in twelve places is still one aspect.
    many = [ev("Typed model", location=f"src/m{i}.py:1") for i in range(12)]
    assert opine("TechLead", [*many, *aspects(0, 1)]).score == 3
def test_whole_repository_location_reads_as_words():
    item = [ev("StateGraph orchestration", found=False, location=".")]
    assert "the repository" in (opine("TechLead", item).remediation or "")


def test_claude_judges_are_shown_the_same_directions():
    shown = evidence_data(mixed_evidence())
    assert [s["direction"] for s in shown] == [e.direction for e in mixed_evidence()]
    assert shown[0]["direction"] == "adverse"


def test_a_found_security_finding_is_adverse_by_its_tag():
    finding = ev("Shell string built from the request", location="src/run.py:4",
                 tags=("security",), direction="context")
    ops = {p: opine(p, [finding, ev("Argument lists", location="src/a.py:1")]) for p in JUDGES}
    assert finding.id not in ops["Defense"].cited_evidence
    assert ops["Prosecutor"].score <= 2 and ops["TechLead"].score <= 3


def test_each_adverse_fact_is_its_own_charge_but_credit_counts_once():
    quotes = [ev("Report quotes code text that is not in the repository",
                 location=f"pdf:page {p}", tags=("claims",), direction="adverse")
              for p in (2, 4)]
    held = [ev(f"Claim {i} checked against the code", location="pdf:page 1",
               tags=("claims",)) for i in range(7)]
    # 7 aspects hold and 2 false quotations: a share of 7 / 9, not 7 / 8.
    assert opine("TechLead", held + quotes).score == 4
    assert opine("TechLead", held + quotes[:1]).score == 5


def test_no_remediation_line_repeats_across_three_criteria(tmp_path: Path) -> None:
    for build in (flawed_submission, mixed_submission):
        repo = build(tmp_path / build.__name__)
        outcome = audit(AuditConfig(target=str(repo), out_dir=tmp_path / f"{build.__name__}-out",
                                    use_cache=False))
        assert outcome.verdict is not None
        lines: Counter[str] = Counter()
        for result in outcome.verdict.criteria:
            advice = {line.lstrip("- ").strip() for line in result.remediation.splitlines()}
            lines.update(advice - {"No remediation proposed."})
        assert lines and max(lines.values()) < 3, lines.most_common(2)


def test_an_adverse_fact_named_after_the_success_pattern_says_what_is_wrong():
    # The goal names what was looked for; the charge must say it is not met, and why.
    shell = [ev("Commands run as argument lists, without a shell", location="app/t.py:4",
                tags=("tools",), direction="adverse",
                rationale="subprocess.run(cmd, shell=True) builds the command as a string.")]
    charges = opine("Prosecutor", shell).charges or []
    assert any("not met: subprocess.run(cmd, shell=True)" in c for c in charges)
    assert not any(c.startswith("Found: Commands run as argument lists") for c in charges)


def test_no_pdf_given_asks_for_the_pdf_not_for_what_the_detectives_looked_for():
    absent = [ev("PDF report given", location="pdf", found=False,
                 tags=("pdf_report", "missing"), rationale="The audit was given no PDF report.",
                 direction="context")]
    for persona in JUDGES:
        fix = opine(persona, absent).remediation or ""
        assert "No PDF report was given" in fix and "--pdf" in fix
        assert "detectives look" not in fix
