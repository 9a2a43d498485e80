"""Where Claude is served from: the Anthropic API, Amazon Bedrock or Google Vertex AI.

Each provider is the SDK's own client (``Anthropic``, ``AnthropicBedrock``,
``AnthropicVertex``) speaking the same Messages API, so retries, prompt caching, fallback
and cost accounting are the same for all three. Only the model id and the credentials
differ. Credentials never cross providers: the Anthropic key goes only to Anthropic.

- bedrock: ``AWS_BEARER_TOKEN_BEDROCK`` (read by the SDK) or AWS credentials through
  boto3 (``pip install 'courtroom[bedrock]'``); region from ``region`` or ``AWS_REGION``.
- vertex: ``GOOGLE_OAUTH_ACCESS_TOKEN`` or Google application-default credentials
  (``pip install 'courtroom[vertex]'``); region from ``region`` or ``CLOUD_ML_REGION``,
  project from ``project_id`` or ``ANTHROPIC_VERTEX_PROJECT_ID``.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import anthropic

from courtroom.errors import ConfigError

#: The default judge model, named as each provider names it.
DEFAULT_MODELS: dict[str, str] = {
    "anthropic": "claude-sonnet-5-5",
    "bedrock": "anthropic.claude-sonnet-5-5",
    "vertex": "claude-sonnet-5-5",
}
#: Connect timeout (s), as the SDK's own default: a dead endpoint shows in seconds.
CONNECT_TIMEOUT = 5.0


def default_model(provider: str) -> str:
    """The default model id on ``provider``."""
    try:
        return DEFAULT_MODELS[provider]
    except KeyError:
        raise ConfigError(f"unknown provider {provider!r}: use anthropic, bedrock or vertex") \
            from None


def _need(module: str, extra: str, what: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise ConfigError(f"--provider {extra} needs {what}: pip install 'courtroom[{extra}]'")


def build_client(
    provider: str,
    *,
    api_key: str | None,
    base_url: str | None,
    timeout: float,
    region: str | None = None,
    project_id: str | None = None,
) -> Any:
    """The SDK client for ``provider``; ConfigError when it cannot be built."""
    limits = anthropic.Timeout(timeout, connect=min(CONNECT_TIMEOUT, timeout))
    # max_retries=0: the retry policy is the backend's own, visible in the trace.
    common: dict[str, Any] = {"base_url": base_url, "timeout": limits, "max_retries": 0}
    try:
        if provider == "anthropic":
            return _anthropic(api_key, common)
        if provider == "bedrock":
            if not os.environ.get("AWS_BEARER_TOKEN_BEDROCK"):
                _need("boto3", "bedrock", "AWS credentials through boto3")
            return anthropic.AnthropicBedrock(aws_region=region, **common)
        if provider == "vertex":
            token = os.environ.get("GOOGLE_OAUTH_ACCESS_TOKEN") or None
            if token is None:
                _need("google.auth", "vertex", "Google credentials through google-auth")
            extra: dict[str, Any] = {"project_id": project_id} if project_id else {}
            if region:
                extra["region"] = region
            return anthropic.AnthropicVertex(access_token=token, **extra, **common)
    except (anthropic.AnthropicError, TypeError, ValueError) as exc:
        raise ConfigError(f"--provider {provider}: {_first_line(exc)}") from exc
    raise ConfigError(f"unknown provider {provider!r}: use anthropic, bedrock or vertex")


def _anthropic(api_key: str | None, common: dict[str, Any]) -> Any:
    missing = "--judges anthropic needs an API key: set ANTHROPIC_API_KEY"
    try:
        client = anthropic.Anthropic(api_key=api_key, **common)
    except (anthropic.AnthropicError, TypeError, ValueError) as exc:
        raise ConfigError(f"{missing} ({type(exc).__name__})") from exc
    if client.api_key is None and client.auth_token is None and client.credentials is None:
        # Fail before any work: otherwise every judge would fall back one by one.
        raise ConfigError(missing)
    return client


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
