"""Pre-seed the opinion cache from the previous audit's comment, and read back its keys.

The opinion cache (``courtroom.judges.cache.OpinionCache``) stores each opinion under the
sha256 of every input that shaped it. Seeding it with the opinions the previous audit
recorded in the PR comment makes a re-audit free where nothing changed and exact where
something did: an opinion is served only when its key matches the new input. After the
audit, the keys of this run's opinions are read back so the next comment can carry them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from courtroom.models import JudicialOpinion


def seed_cache(directory: Path, seeds: Mapping[str, JudicialOpinion]) -> set[str]:
    """Write ``seeds`` (cache key -> opinion) into the cache; returns the keys written."""
    if not seeds:
        return set()
    try:
        from courtroom.judges.cache import OpinionCache
    except ImportError:  # a build without judges still audits, just without reuse
        return set()
    cache = OpinionCache(directory)
    for key, opinion in seeds.items():
        cache.put(key, opinion)
    return {key for key in seeds if (directory / key[:2] / f"{key}.json").is_file()}


def opinion_keys(directory: Path) -> dict[str, list[str]]:
    """Opinion id -> every cache key holding that opinion in ``directory`` after an audit.

    One opinion can answer several inputs (a judge that keeps its opinion through a
    hearing round gives the same opinion to a different input), and every such entry is
    a true input -> answer pair, so all of them are kept, in a stable order.
    """
    found: dict[str, list[str]] = {}
    if not directory.is_dir():
        return found
    for path in sorted(directory.glob("*/*.json")):
        try:
            opinion_id = json.loads(path.read_text(encoding="utf-8"))["opinion_id"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        found.setdefault(str(opinion_id), []).append(path.stem)
    return found
