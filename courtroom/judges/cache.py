"""Opinions already given, kept on disk, so the same input costs no second call.

The key is the sha256 of everything that shapes an answer: the criterion (rubric text),
the evidence shown (less run-to-run timings in rationales), the persona's prompt, the output
schema, the backend and model, the round and the peers of a hearing. Change any of them
and the key changes, so a cached opinion is never served for an input it was not given.
Fallback opinions are never stored: a failure is retried on the next audit.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from pydantic import ValidationError

from courtroom.judges import envelope, personas
from courtroom.judges.base import JudgeRequest
from courtroom.judges.digest import sha256_of
from courtroom.models import Evidence, JudicialOpinion

#: Bump when the meaning of a cached entry changes (schema, prompt layout).
CACHE_FORMAT = 1

#: Durations ("in 1.47s", "120 ms") inside a rationale say how long a detective took,
#: not what it found; they vary run to run and must not invalidate cached opinions.
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds)\b")


def _evidence_key(item: Evidence) -> dict[str, object]:
    data = item.model_dump(mode="json")
    data["rationale"] = _DURATION.sub("#s", item.rationale)
    if item.in_diff is None:  # keys of audits without a base stay what they were
        del data["in_diff"]
    return data


class OpinionCache:
    """A directory of opinion JSON files named by their input digest.

    ``read=False`` (``--no-cache``) ignores stored opinions but still writes fresh ones.
    """

    def __init__(
        self,
        directory: Path,
        *,
        read: bool = True,
    ) -> None:
        self.directory = Path(directory)
        self.read = read

    def key(self, request: JudgeRequest, backend_name: str) -> str:
        """The digest of every input that shapes this request's answer."""
        return sha256_of(
            {
                "format": CACHE_FORMAT,
                "backend": backend_name,
                "criterion": request.criterion.model_dump(mode="json"),
                "evidence": [_evidence_key(e) for e in request.evidence],
                "omitted": request.omitted,
                "persona": request.persona,
                "prompt": personas.prompt_digest(request.persona, request.criterion),
                "schema": envelope.OUTPUT_SCHEMA,
                "round": request.round,
                "peers": [p.model_dump(mode="json") for p in request.peers],
                "previous": request.previous.model_dump(mode="json") if request.previous else None,
            }
        )

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str, request: JudgeRequest) -> JudicialOpinion | None:
        """A stored opinion for this input, or None."""
        if not self.read:
            return None
        try:
            text = self._path(key).read_text(encoding="utf-8")
            opinion = JudicialOpinion.model_validate_json(text)
        except (OSError, ValidationError, ValueError):
            return None  # absent or unreadable: ask the judge again
        if opinion.fallback or opinion.judge != request.persona:
            return None
        return opinion

    def put(self, key: str, opinion: JudicialOpinion) -> None:
        """Store an opinion atomically; a cache that cannot be written is only a lost saving."""
        if opinion.fallback:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(opinion.model_dump(mode="json"), handle, sort_keys=True, indent=1)
            os.replace(tmp, path)  # atomic: concurrent audits never read half a file
        except OSError:
            return
