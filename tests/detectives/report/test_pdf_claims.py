"""Claims and cited paths checked against the repository, in linear time on hostile pages."""

from __future__ import annotations

import time
from pathlib import Path

from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.report.pdf_claims import check_claims, check_paths
from courtroom.detectives.report.pdf_read import PageData, PdfData

#: Generous for a loaded machine: each hostile page below took 10-30 s before (every
#: mention compared with every file, every hit re-read from its sentence's start).
SECONDS = 5.0


def _repo(root: Path, count: int) -> Workspace:
    for i in range(count):
        path = root / f"pkg{i % 40}" / f"mod{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n", encoding="utf-8")
    return Workspace(root, "repo")


def _pdf(*pages: str) -> PdfData:
    return PdfData("r.pdf", [PageData(n, text) for n, text in enumerate(pages, 1)], len(pages))


def test_thousands_of_cited_paths_are_each_looked_up_once(tmp_path: Path) -> None:
    ws = _repo(tmp_path / "repo", 2_000)
    ghosts = " ".join(f"lib{i}/ghost{i}.py" for i in range(3_000))
    started = time.perf_counter()
    checks = check_paths(_pdf(ghosts + ". The entry point is pkg3/mod3.py and mod7.py."), ws)
    assert time.perf_counter() - started < SECONDS
    assert len([c for c in checks if not c.exists and c.stance == "claim"]) == 3_000
    real = {c.path: c.matched for c in checks if c.exists}
    assert real == {"pkg3/mod3.py": "pkg3/mod3.py", "mod7.py": "pkg7/mod7.py"}


def test_a_cited_folder_matches_by_its_trailing_parts(tmp_path: Path) -> None:
    ws = _repo(tmp_path / "repo", 3)
    checks = check_paths(_pdf("Nodes live in pkg1/ and in src/pkg2/ as well."), ws)
    assert [(c.path, c.exists) for c in checks] == [("pkg1/", True), ("src/pkg2/", False)]


def test_a_long_sentence_keeps_its_opening_words(tmp_path: Path) -> None:
    ws = _repo(tmp_path / "repo", 1)
    filler = "and then some more words about it " * 20  # far past the reach around a path
    checks = check_paths(_pdf(f"We plan to add {filler} docs/later.md soon."), ws)
    assert [(c.path, c.stance) for c in checks] == [("docs/later.md", "proposal")]


def test_a_claim_repeated_thousands_of_times_is_checked_in_linear_time(
        tmp_path: Path) -> None:
    ws = _repo(tmp_path / "repo", 1)
    started = time.perf_counter()
    checks = check_claims(_pdf("fan out " * 4_000, "no fan out " * 3_000), ws)
    assert time.perf_counter() - started < SECONDS
    assert [(c.claim, c.page, c.asserted) for c in checks] == [("fan-out/fan-in", 1, True)]
    admitted = check_claims(_pdf("We have no fan out " * 3_000), ws)
    assert [(c.claim, c.asserted) for c in admitted] == [("fan-out/fan-in", False)]
