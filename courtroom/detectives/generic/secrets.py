"""Committed secrets: the security scan's rule over Python (a long literal assigned to a
secret-named variable, or shaped like a known key), and, in every other text file, private
keys, tokens of well-known shapes and committed ``.env`` files.

A fact never holds the secret: it says where, what shape and how long, and at most the
first four characters the security scan already shows.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.parsing import source_index
from courtroom.detectives.repo.listing import PYTHON_SUFFIXES
from courtroom.detectives.security.rules import hardcoded_secrets
from courtroom.models import Evidence

NAME = TAG = "secrets"
#: Token shapes that are secrets wherever they appear (fixed prefixes, then key material).
_TOKENS = (("a GitHub token", re.compile(r"\b(ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{30,}")),
           ("an AWS access key id", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
           ("a Slack token", re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}")),
           ("a Stripe live key", re.compile(r"\bsk_live_[A-Za-z0-9]{16,}")),
           ("a private key", re.compile(r"-----BEGIN ([A-Z]+ )?PRIVATE KEY-----")))
#: ``.env`` files that only show which variables exist.
_ENV_EXAMPLES = re.compile(r"\.(example|sample|template|dist|defaults?)$")
#: Files read for token shapes (Python is read by the security scan's rule).
MAX_FILES = 5_000
MAX_LISTED = 20
#: The remedy of a committed secret, wherever it was found.
ROTATE = "remove it, rotate it, and read it from the environment or a secret store."


def _env_files(files: list[str]) -> list[Evidence]:
    envs = [rel for rel in files if re.fullmatch(r"\.env(\.[\w.-]+)?", rel.rsplit("/", 1)[-1])
            and not _ENV_EXAMPLES.search(rel)]
    return [make(NAME, "Committed environment file", True, rel, f"{rel} is committed; such "
                 "files usually hold the deployment's secrets.", 0.8,
                 (REPO, TAG), content=rel, direction="adverse",
                 fix="remove it from the history, rotate what it held, and commit a "
                 ".env.example instead.") for rel in envs]


def _token_facts(case: Case, files: list[str]) -> list[Evidence]:
    out: list[Evidence] = []
    for rel in [f for f in files if not f.lower().endswith(PYTHON_SUFFIXES)][:MAX_FILES]:
        text = case.workspace.read_text(rel) or ""
        for number, line in enumerate(text.splitlines(), start=1):
            for what, shape in _TOKENS:
                token = shape.search(line)
                if token is None:
                    continue
                out.append(make(NAME, "Committed secret", True, f"{rel}:{number}",
                                f"Text shaped like {what} ({len(token.group(0))} characters).",
                                0.85, (REPO, TAG), content=f"{what} in {rel}",
                                direction="adverse", fix=ROTATE))
                break
        if len(out) >= MAX_LISTED:
            break
    return out


@detective(NAME, produces=(
    Produces(TAG, REPO, "a committed secret, private key or .env file at its line "
             "(adverse); none found (supports)"),))
def secrets(case: Case) -> list[Evidence]:
    """Committed secrets, located; never their value."""
    files = case.workspace.files()
    out = _env_files(files)
    for sf in source_index(case.workspace).files:
        out += [make(NAME, "Committed secret", True, sf.loc(hit.node),
                     hit.text, 0.85, (REPO, TAG), content=f"CWE-{hit.cwe}",
                     direction="adverse", fix=ROTATE) for hit in hardcoded_secrets(sf)]
    out += _token_facts(case, files)
    if not out:
        return [make(NAME, "No committed secret", True, ".", f"No secret-shaped literal, "
                     f"private key or .env file among {len(files)} file(s).", 0.75,
                     (REPO, TAG), direction="supports")]
    return out[:MAX_LISTED]
