"""Which backend judges an audit: the one place a judge kind becomes a ``Backend``.

A new backend adds one branch here (its module imported lazily, as the Claude one is, so
the offline bench never touches an SDK) and its kind to ``models.JudgeKind``.
"""

from __future__ import annotations

from courtroom.errors import ConfigError
from courtroom.judges.base import Backend
from courtroom.judges.offline import OfflineBackend


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
