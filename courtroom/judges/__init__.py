"""The judicial layer: three personas, offline or Claude backends, a concurrent bench.

Public API for the pipeline::

    backend = make_backend("offline" | "anthropic", model=..., api_key=..., base_url=...,
                           timeout=600.0, provider="anthropic" | "bedrock" | "vertex")
    bench = JudgeBench(backend, max_workers=8, cache=OpinionCache(dir), trace=trace,
                       max_cost_usd=None)
    answers = bench.judge(requests)          # [(JudicialOpinion, JudgeUsage)], in order
    futures = bench.submit(requests)         # the same, without waiting
    bench.usage                              # courtroom.models.Usage for verdict.json
    bench.close()
"""

from __future__ import annotations

from courtroom.errors import ConfigError
from courtroom.judges.base import Backend, JudgeRequest, JudgeUsage
from courtroom.judges.bench import JudgeBench
from courtroom.judges.cache import OpinionCache
from courtroom.judges.offline import OfflineBackend

__all__ = [
    "Backend",
    "JudgeBench",
    "JudgeRequest",
    "JudgeUsage",
    "OfflineBackend",
    "OpinionCache",
    "make_backend",
]


def make_backend(
    kind: str,
    *,
    model: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout: float = 600.0,
    provider: str = "anthropic",
    region: str | None = None,
    project_id: str | None = None,
) -> Backend:
    """The judge backend for ``--judges``: "offline" or "anthropic" (imported only then).

    With "anthropic", ``provider`` says where Claude is served from (providers.py).
    """
    if kind == "offline":
        return OfflineBackend()
    if kind == "anthropic":
        # Imported lazily: the offline bench must work without touching the SDK.
        from courtroom.judges.anthropic_backend import AnthropicBackend

        return AnthropicBackend(model=model, api_key=api_key, base_url=base_url, timeout=timeout,
                                provider=provider, region=region, project_id=project_id)
    raise ConfigError(f"unknown judge bench {kind!r}: use offline or anthropic")
