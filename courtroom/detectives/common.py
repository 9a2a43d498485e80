"""Small helpers every detective shares: tag names, evidence construction, test paths."""

from __future__ import annotations

import re

from courtroom.models import Direction, Evidence

# Artifact tags (one per evidence item) and the topic tags of docs/ARCHITECTURE.md.
REPO = "github_repo"
PDF = "pdf_report"
IMAGES = "pdf_images"
#: A fact saying the security scan did not cover every file it should have (a file that
#: could not be listed, parsed or scanned). Its presence fails the gate closed.
SCAN_INCOMPLETE = "scan_incomplete"
#: Adverse facts that bound what a criterion may score, whatever else is present (the
#: judges' caps are in courtroom.judges.facts): the design cannot work as built (a node no
#: run reaches, a join that runs twice, a model drafting the scores a rule should compute);
#: a report the code contradicts in several claims (misleading), or in many (discredited).
UNWORKABLE = "unworkable"
MISLEADING = "misleading"
DISCREDITED = "discredited"

def make(
    detective: str,
    goal: str,
    found: bool,
    location: str,
    rationale: str,
    confidence: float,
    tags: tuple[str, ...] | list[str],
    content: str | None = None,
    direction: Direction = "context",
    fix: str | None = None,
) -> Evidence:
    """Shorthand for ``Evidence.make`` with confidence clamped to 0..1."""
    return Evidence.make(
        detective=detective,
        goal=goal,
        found=found,
        location=location,
        rationale=rationale,
        confidence=min(1.0, max(0.0, confidence)),
        content=content,
        tags=tuple(tags),
        direction=direction,
        fix=fix,
    )


TEST_PATH = re.compile(r"(^|/)(tests?|testing|fixtures?|examples?)/|"
                       r"(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$")


def is_test_path(path: str) -> bool:
    """Whether a repo-relative path is test, fixture or example code."""
    return bool(TEST_PATH.search(path))


def jaccard(a: set[str], b: set[str]) -> float:
    """Word-set Jaccard similarity (1.0 for two empty sets)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def words(text: str) -> set[str]:
    """Lower-cased words of three letters or more."""
    return {w for w in re.findall(r"[a-z][a-z'-]{2,}", text.lower())}
