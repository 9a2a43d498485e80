"""A small client for Anthropic's Message Batches endpoints, and the saved batch ids.

Plain ``urllib`` on purpose: three JSON endpoints do not need another HTTP stack, and the
``anthropic`` package stays confined to ``courtroom.judges.anthropic_backend``. The base
URL honours ``ANTHROPIC_BASE_URL`` like the SDK, so the same local fakes serve both.

The ids of submitted batches are saved in ``batch-api.json`` in the cohort folder before
any polling, so an interrupted run picks its batches up again instead of paying twice.
"""

from __future__ import annotations

import json
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from courtroom.errors import ConfigError, JudgeError, JudgeTransportError

DEFAULT_BASE_URL = "https://api.anthropic.com"
STATE_FILE = "batch-api.json"
#: The API accepts at most 100,000 requests per batch.
MAX_REQUESTS = 100_000


class BatchClient:
    """POST /v1/messages/batches, GET /v1/messages/batches/{id}, GET its results_url."""

    def __init__(
        self, *, api_key: str, version: str, base_url: str | None = None, timeout: float = 120.0
    ) -> None:
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        if urlsplit(self.base_url).scheme not in ("http", "https"):
            raise ConfigError(f"ANTHROPIC_BASE_URL must be http(s): {self.base_url}")
        self._headers = {
            "x-api-key": api_key,
            "anthropic-version": version,
            "content-type": "application/json",
        }
        self.timeout = timeout

    def _open(self, method: str, url: str, body: object | None = None) -> bytes:
        if urlsplit(url).scheme not in ("http", "https"):
            raise JudgeError(f"refusing a non-http URL from the batch API: {url}")
        data = json.dumps(body).encode("utf-8") if body is not None else None
        # The scheme is checked above: only http(s) URLs are ever opened.
        request = urllib.request.Request(url, data=data, method=method, headers=self._headers)  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                payload: bytes = response.read()
                return payload
        except urllib.error.HTTPError as exc:
            kind = JudgeTransportError if exc.code in (408, 429) or exc.code >= 500 else JudgeError
            raise kind(f"Message Batches API answered HTTP {exc.code} for {method} {url}") from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise JudgeTransportError(f"Message Batches API unreachable: {exc}") from exc

    def _json(self, method: str, url: str, body: object | None = None) -> dict[str, Any]:
        raw = self._open(method, url, body)
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise JudgeError(f"Message Batches API sent invalid JSON for {url}") from exc
        if not isinstance(data, dict):
            raise JudgeError(f"Message Batches API sent an unexpected answer for {url}")
        return data

    def create(self, requests: list[dict[str, Any]]) -> dict[str, Any]:
        """Submit ``[{custom_id, params}]``; returns the batch object (with its ``id``)."""
        return self._json("POST", f"{self.base_url}/v1/messages/batches", {"requests": requests})

    def retrieve(self, batch_id: str) -> dict[str, Any]:
        """The batch object: ``processing_status``, ``request_counts``, ``results_url``."""
        return self._json("GET", f"{self.base_url}/v1/messages/batches/{batch_id}")

    def results(self, results_url: str) -> Iterator[dict[str, Any]]:
        """Each JSONL line of an ended batch: ``{"custom_id": ..., "result": {...}}``."""
        for line in self._open("GET", results_url).decode("utf-8").splitlines():
            if line.strip():
                try:
                    item = json.loads(line)
                except ValueError as exc:
                    raise JudgeError("Message Batches API sent an invalid results line") from exc
                if isinstance(item, dict):
                    yield item


class BatchState:
    """The batches this cohort submitted: id, and what each custom_id asked."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.batches: list[dict[str, Any]] = []
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.batches = list(data.get("batches", []))
            except (OSError, ValueError, AttributeError) as exc:
                raise ConfigError(
                    f"{path}: unreadable batch state; remove it to start over"
                ) from exc

    def add(self, batch_id: str, requests: dict[str, dict[str, Any]]) -> None:
        """Record a submitted batch (before polling, so an interruption cannot lose it)."""
        self.batches.append({"id": batch_id, "requests": requests, "imported": False})
        self.save()

    def pending(self) -> list[dict[str, Any]]:
        """Batches whose results are not in the opinion cache yet."""
        return [b for b in self.batches if not b.get("imported")]

    def mark_imported(self, batch_id: str, counts: dict[str, int]) -> None:
        """Note that a batch's results are in the cache."""
        for batch in self.batches:
            if batch["id"] == batch_id:
                batch["imported"] = True
                batch["counts"] = counts
        self.save()

    def save(self) -> None:
        """Write the state atomically."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"batches": self.batches}, handle, indent=1, sort_keys=True)
        os.replace(tmp, self.path)
