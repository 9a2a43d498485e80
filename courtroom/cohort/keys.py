"""The resume key of a submission: what must be unchanged for a stored verdict to stand.

A rerun of a batch skips a submission when its folder holds a verdict and a
``batch-key.json`` equal to the key computed now: same commit, rubric, prompts, judge
bench/model, PDF bytes and gate. Without a known commit nothing is ever skipped, since
an unknown tree might have changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

from courtroom.child import run
from courtroom.cohort.manifest import is_url
from courtroom.git import git_env, run_git
from courtroom.rubric import load_rubric
from courtroom.settings.config import AuditConfig

KEY_FILE = "batch-key.json"
#: How long a commit lookup may take; a slow remote only costs the resume shortcut.
LOOKUP_TIMEOUT = 30.0
#: Most ``ls-remote`` may print: one line is asked for.
LOOKUP_BYTES = 1 << 20


def _git(args: list[str], timeout: float) -> str | None:
    """``git args`` (a network command) through the one child launcher; None on failure."""
    # Never prompt for credentials (a private repo must fail, not hang the batch), and only
    # plain transports: a manifest must not reach git's ext:: helpers.
    env = {**git_env(network=True), "GIT_ALLOW_PROTOCOL": "https:http:ssh:git:file"}
    try:
        done = run(["git", *args], env, timeout=timeout, max_bytes=LOOKUP_BYTES)
    except OSError:
        return None
    ok = done.stopped is None and done.returncode == 0
    return done.output.decode("utf-8", "replace").strip() if ok else None


def current_commit(repo: str, timeout: float = LOOKUP_TIMEOUT) -> str | None:
    """HEAD of a local repository, or the remote HEAD of a URL (without cloning)."""
    if is_url(repo):
        if not re.match(r"(https?|ssh|git|file)://|git@[\w.-]+:", repo):
            return None
        out = _git(["ls-remote", "--", repo, "HEAD"], timeout)
        sha = out.split()[0] if out else ""
    else:
        # The audit's own git helper: no program named by the repository runs.
        sha = (run_git(Path(repo), "rev-parse", "--verify", "HEAD", timeout=timeout)
               or "").strip()
    return sha if len(sha) == 40 else None


@lru_cache(maxsize=8)
def rubric_digest(path: Path) -> str:
    """sha256 of the rubric, as verdict.json records it."""
    return load_rubric(path).sha256


def prompts_digest() -> str:
    """sha256 over every judge prompt template (names and bytes), in name order."""
    from courtroom.resources import templates_dir

    digest = hashlib.sha256()
    folder = templates_dir() / "prompts"
    if folder.is_dir():
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(file.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def file_digest(path: Path | None) -> str | None:
    """sha256 of a file, or None when there is no readable file."""
    if path is None:
        return None
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def bench_label(config: AuditConfig) -> str:
    """The judge bench a config asks for, as verdict.json's ``bench`` field spells it: the
    provider serving Claude and the resolved model (a change of default model, or of
    provider, invalidates stored verdicts), or another backend's own kind."""
    if config.judges == "offline":
        return "offline"
    if config.judges != "anthropic":
        return f"{config.judges}:{config.model or 'default'}"
    from courtroom.judges.providers import default_model

    return f"{config.provider}:{config.model or default_model(config.provider)}"


def batch_key(
    config: AuditConfig, commit: str | None, prompts: str, pdf: Path | None = None
) -> dict[str, object]:
    """Every input that decides a verdict, as a small JSON-ready mapping."""
    return {
        "commit": commit,
        "rubric_sha256": rubric_digest(config.rubric_path),
        "prompts_sha256": prompts,
        "bench": bench_label(config),
        "pdf_sha256": file_digest(pdf if pdf is not None else config.pdf),
        "fail_below": config.fail_below,
        "gate": dict(sorted(config.gate.items())),
        "fail_on_uncovered": config.fail_on_uncovered,
        "ignore": sorted({*config.ignore, *config.tree_ignore}),
        "court": config.court,
    }


def stored_key(folder: Path) -> dict[str, object] | None:
    """The key a previous run stored in a submission folder, if any and readable."""
    try:
        data = json.loads((folder / KEY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_key(folder: Path, key: dict[str, object]) -> None:
    """Store the key beside the verdict it describes."""
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(key, indent=2, sort_keys=True) + "\n"
    (folder / KEY_FILE).write_text(text, encoding="utf-8")


def can_resume(folder: Path, key: dict[str, object]) -> bool:
    """Whether the folder's verdict was made from exactly these inputs."""
    if key.get("commit") is None or not (folder / "verdict.json").is_file():
        return False
    return stored_key(folder) == key
