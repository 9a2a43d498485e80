"""The judicial layer: three personas, offline or Claude backends, a concurrent bench.

Public API for the pipeline::

    backend = make_backend("offline" | "anthropic", model=..., api_key=..., base_url=...,
                           timeout=60.0)
    bench = JudgeBench(backend, max_workers=30, cache=OpinionCache(dir), trace=trace)
    answers = bench.judge(requests)          # [(JudicialOpinion, JudgeUsage)], in order
    bench.usage                              # courtroom.models.Usage for verdict.json
"""

from __future__ import annotations

from courtroom.errors import ConfigError
from courtroom.judges.base import Backend, JudgeRequest, JudgeUsage
from courtroom.judges.bench import JudgeBench
from courtroom.judges.cache import OpinionCache, seed_key
from courtroom.judges.offline import OfflineBackend

__all__ = [
    "Backend",
    "JudgeBench",
    "JudgeRequest",
    "JudgeUsage",
    "OfflineBackend",
    "OpinionCache",
    "make_backend",
    "seed_key",
]


def make_backend(
    kind: str,
    *,
    model: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout: float = 60.0,
) -> Backend:
    """The judge backend for ``--judges``: "offline" or "anthropic" (imported only then)."""
    if kind == "offline":
        return OfflineBackend()
    if kind == "anthropic":
        # Imported lazily: the offline bench must work without touching the SDK.
        from courtroom.judges.anthropic_backend import AnthropicBackend

        return AnthropicBackend(model=model, api_key=api_key, base_url=base_url, timeout=timeout)
    raise ConfigError(f"unknown judge bench {kind!r}: use offline or anthropic")
