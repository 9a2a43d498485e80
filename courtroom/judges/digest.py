"""Stable digests of opinion content and of cache inputs (sha256 over canonical JSON)."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no whitespace, so equal data gives equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256_of(value: Any) -> str:
    """Hex sha256 of a value's canonical JSON."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def content_digest(fields: dict[str, Any], round_number: int = 0) -> str:
    """Short digest of an opinion's content, the salt of its opinion id."""
    return sha256_of({"round": round_number, **fields})[:16]
