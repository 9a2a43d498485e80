"""Committed secrets: the security scan's rule over Python (a long literal assigned to a
secret-named variable, or shaped like a known key), and, in every other text file, private
keys, tokens of well-known shapes and committed ``.env`` files.

A fact never holds the secret: it says where, what shape and how long, and at most the
first four characters the security scan already shows.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, is_test_path, make
from courtroom.detectives.generic.measures import is_test_file
from courtroom.detectives.parsing import source_index
from courtroom.detectives.repo.listing import PYTHON_SUFFIXES
from courtroom.detectives.security.rules import hardcoded_secrets
from courtroom.models import Evidence, location_path

NAME = TAG = "secrets"
#: Token shapes that are secrets wherever they appear (fixed prefixes, then key material).
_TOKENS = (("a GitHub token", re.compile(r"\b(ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{30,}")),
           ("an AWS access key id", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
           ("a Slack token", re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}")),
           ("a Stripe live key", re.compile(r"\bsk_live_[A-Za-z0-9]{16,}")),
           ("a private key", re.compile(r"-----BEGIN ([A-Z]+ )?PRIVATE KEY-----")))
#: ``.env`` files that only show which variables exist.
_ENV_EXAMPLES = re.compile(r"\.(examples?|samples?|templates?|dist|defaults?)$")
#: Files read for token shapes (Python is read by the security scan's rule).
MAX_FILES = 5_000
MAX_LISTED = 20
#: The remedy of a committed secret, wherever it was found.
ROTATE = "remove it, rotate it, and read it from the environment or a secret store."


def _secret(goal: str, location: str, why: str, content: str, fix: str = ROTATE) -> Evidence:
    """One committed secret; in test code it is context (most are fakes), never a charge."""
    in_test = is_test_path(location_path(location)) or is_test_file(location_path(location))
    return make(NAME, goal, True, location,
                f"{'In test code, so likely a fake: ' if in_test else ''}{why}",
                0.5 if in_test else 0.85, (REPO, TAG), content=content,
                direction="context" if in_test else "adverse", fix=fix)


def _env_files(files: list[str]) -> list[Evidence]:
    envs = [rel for rel in files if re.fullmatch(r"\.env(\.[\w.-]+)?", rel.rsplit("/", 1)[-1])
            and not _ENV_EXAMPLES.search(rel)]
    return [_secret("Committed environment file", rel, f"{rel} is committed; such files "
                    "usually hold the deployment's secrets.", rel,
                    fix="remove it from the history, rotate what it held, and commit a "
                    ".env.example instead.") for rel in envs]


def _token_facts(case: Case, files: list[str]) -> list[Evidence]:
    out: list[Evidence] = []
    for rel in [f for f in files if not f.lower().endswith(PYTHON_SUFFIXES)][:MAX_FILES]:
        text = case.workspace.read_text(rel) or ""
        for number, line in enumerate(text.splitlines(), start=1):
            token = next(((what, found) for what, shape in _TOKENS
                          if (found := shape.search(line)) is not None), None)
            if token is not None:
                out.append(_secret("Committed secret", f"{rel}:{number}", f"Text shaped like "
                                   f"{token[0]} ({len(token[1].group(0))} characters).",
                                   f"{token[0]} in {rel}"))
        if len(out) >= MAX_LISTED:
            break
    return out


@detective(NAME, produces=(
    Produces(TAG, REPO, "a committed secret, private key or .env file at its line "
             "(adverse; context in test code); none found (supports)"),))
def secrets(case: Case) -> list[Evidence]:
    """Committed secrets, located; never their value."""
    files = case.workspace.files()
    out = _env_files(files)
    for sf in source_index(case.workspace).files:
        out += [_secret("Committed secret", f"{sf.path}:{hit.line}", hit.text, f"CWE-{hit.cwe}")
                for hit in hardcoded_secrets(sf)]
    out += _token_facts(case, files)
    if not any(e.direction == "adverse" for e in out):
        out.append(make(NAME, "No committed secret", True, ".", "No secret-shaped literal, "
                        f"private key or .env file among {len(files)} file(s) outside tests.",
                        0.75, (REPO, TAG), direction="supports"))
    return out[:MAX_LISTED]
