"""The verdict's integrity chain: SHA-256 over canonical JSON, an optional HMAC, and
`courtroom verify`.

The chain links, in order: the verdict's header (everything except evidences, criteria
and the integrity block), the evidence pool, then per criterion its opinions (final and
every hearing round) and its result (the rest of the criterion). Each link hashes the
previous link with its label and part digest, so the last link — the verdict digest —
changes when any byte of meaning changes. Hashes are taken over the parsed JSON, not the
file's bytes, so re-indenting a verdict does not break it but editing a value does.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from courtroom.errors import EXIT_FAILURE, EXIT_OK, EXIT_USAGE
from courtroom.judgment import recompute
from courtroom.models import Verdict

ALGORITHM = "sha256"
CANONICAL = "json:sort_keys,compact,utf-8"
SIGNATURE = "hmac-sha256"
KEY_ENV = "COURTROOM_SIGNING_KEY"
_GENESIS = "courtroom-integrity/v1"


def canonical(value: Any) -> bytes:
    """Canonical JSON bytes: sorted keys, no whitespace, UTF-8 (equal data, equal bytes)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def digest(value: Any) -> str:
    """Hex SHA-256 of a value's canonical JSON."""
    return hashlib.sha256(canonical(value)).hexdigest()


def _parts(data: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(label, part) in chain order; together the parts cover the whole verdict."""
    header = {k: v for k, v in data.items() if k not in ("evidences", "criteria", "integrity")}
    yield "header", header
    yield "evidence", data.get("evidences")
    for index, criterion in enumerate(data.get("criteria") or []):
        if not isinstance(criterion, dict):
            yield f"criteria[{index}]", criterion
            continue
        cid = criterion.get("criterion_id", index)
        court = criterion.get("court")
        rounds = court.get("rounds") if isinstance(court, dict) else None
        yield f"criterion {cid} opinions", {"final": criterion.get("opinions"), "rounds": rounds}
        rest = {k: v for k, v in criterion.items() if k != "opinions"}
        if isinstance(court, dict):
            rest["court"] = {k: v for k, v in court.items() if k != "rounds"}
        yield f"criterion {cid} result", rest


def chain(data: dict[str, Any]) -> dict[str, Any]:
    """The integrity block of a verdict given as plain JSON data (its own block ignored)."""
    link = hashlib.sha256(_GENESIS.encode()).hexdigest()
    parts: dict[str, str] = {}
    for label, part in _parts(data):
        parts[label] = digest(part)
        link = hashlib.sha256(f"{link}\n{label}\n{parts[label]}".encode()).hexdigest()
    return {"algorithm": ALGORITHM, "canonical": CANONICAL, "parts": parts, "digest": link}


def sign(verdict_digest: str, key: bytes) -> str:
    """Hex HMAC-SHA256 of the verdict digest."""
    return hmac.new(key, verdict_digest.encode("ascii"), hashlib.sha256).hexdigest()


def signing_key(env: dict[str, str] | None = None) -> bytes | None:
    """The signing key from COURTROOM_SIGNING_KEY, or None when unset (never printed)."""
    value = (env if env is not None else os.environ).get(KEY_ENV, "")
    return value.encode("utf-8") if value else None


def seal(verdict: Verdict, key: bytes | None = None) -> Verdict:
    """A copy of the verdict carrying its integrity chain (and HMAC when a key is given)."""
    data = json.loads(verdict.model_dump_json())
    block: dict[str, object] = chain(data)
    if key:
        block["signature"] = {"algorithm": SIGNATURE, "value": sign(str(block["digest"]), key)}
    return verdict.model_copy(update={"integrity": block})


def verify(text: str, key: bytes | None = None) -> list[str]:
    """Problems with a verdict's integrity, one line each; empty when it is intact.

    Intact means the chain holds (and the HMAC, given a key) and every score and the
    conclusion are what the chief justice's rules give for the verdict's own content
    (``courtroom.judgment.recompute``); content that is not a verdict's cannot be. Raises
    ValueError when the text is not a JSON object (the caller reports it as unreadable,
    which is not the same as tampered).
    """
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("verdict is not a JSON object")
        problems = _chain_problems(data, key)
    except RecursionError as exc:  # a hostile artifact nested past the parser's depth
        raise ValueError("verdict is nested too deeply to read") from exc
    try:
        verdict = Verdict.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "the verdict"
        return [*problems, f"not a valid verdict, so nothing was recomputed ({where}: "
                           f"{error['msg']})"]
    return [*problems, *recompute(verdict)]


def _chain_problems(data: dict[str, Any], key: bytes | None) -> list[str]:
    """What differs between the recorded chain (and HMAC) and the verdict's content."""
    stored = data.get("integrity")
    if not isinstance(stored, dict) or not isinstance(stored.get("digest"), str):
        return ["the verdict carries no integrity chain (it was never sealed, or it was removed)"]
    fresh = chain(data)
    problems: list[str] = []
    recorded = stored.get("parts")
    stored_parts: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
    for label, value in fresh["parts"].items():
        if stored_parts.get(label) != value:
            problems.append(f"{label} does not match its recorded hash")
    for label in stored_parts:
        if label not in fresh["parts"]:
            problems.append(f"{label} is recorded in the chain but missing from the verdict")
    if stored["digest"] != fresh["digest"]:
        problems.append(
            f"verdict digest does not match (recorded {stored['digest'][:12]}…, "
            f"recomputed {fresh['digest'][:12]}…)"
        )
    signature = stored.get("signature")
    if key is not None:
        value = signature.get("value") if isinstance(signature, dict) else None
        if not isinstance(value, str):
            problems.append("a signing key was given but the verdict is not signed")
        elif not hmac.compare_digest(value, sign(stored["digest"], key)):
            problems.append("signature does not match the digest under the given key")
    return problems


def verify_command(args: argparse.Namespace) -> int:
    """`courtroom verify VERDICT.json`: 0 intact, 1 tampered, 2 unreadable."""
    path = Path(args.verdict)
    key = signing_key()
    try:
        text = path.read_text(encoding="utf-8")
        problems = verify(text, key)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"courtroom: {path}: unreadable: {reason}", file=sys.stderr)
        return EXIT_USAGE
    if problems:
        for problem in problems:
            print(f"courtroom: {path}: TAMPERED: {problem}", file=sys.stderr)
        return EXIT_FAILURE
    data = json.loads(text)
    signed = isinstance(data["integrity"].get("signature"), dict)
    how = "signature checked" if key and signed else (
        "signed, but no COURTROOM_SIGNING_KEY to check it" if signed else "not signed"
    )
    print(f"courtroom: {path}: intact, digest {data['integrity']['digest']} ({how})")
    return EXIT_OK
