"""Claude as a judge: the only module that imports ``anthropic``.

Two visible retry layers replace the SDK's hidden ones (``max_retries=0``):

1. transport — timeouts, connection errors, 408, 429, 5xx and 529 "overloaded" get
   exponential backoff that honours ``retry-after`` / ``retry-after-ms``, at most
   ``transport_retries`` (2) retries, then JudgeTransportError;
2. output — an answer that is not JSON or does not validate as an opinion is retried at
   most ``output_retries`` (2) times, the validation error fed back to the model, then
   JudgeOutputError.

The bench turns either error into the fallback opinion. No sampling parameter
(temperature, top_p, top_k) is ever sent: API version 2026-10-21 rejects them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import anthropic
from pydantic import ValidationError
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_attempt,
    wait_none,
)

from courtroom.errors import ConfigError, JudgeError, JudgeOutputError, JudgeTransportError
from courtroom.judges import envelope, personas
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.digest import content_digest
from courtroom.models import JudicialOpinion, opinion_id

DEFAULT_MODEL = "claude-sonnet-5-5"
#: Enough for adaptive thinking plus a long opinion; bounded so one call cannot run away.
DEFAULT_MAX_TOKENS = 8000
MAX_TOKENS_CEILING = 32000
#: Longest wait honoured from a retry-after header, in seconds.
MAX_RETRY_AFTER = 60.0

Sleep = Callable[[float], None]


def _header_wait(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return max(0.0, min(float(raw) * scale, MAX_RETRY_AFTER))
        except ValueError:
            continue  # an HTTP date: fall back to our own backoff
    return None


class BackoffWait:
    """Tenacity wait strategy: the server's retry-after when given, else exponential."""

    def __init__(self, base: float = 1.0, cap: float = 20.0) -> None:
        self.base, self.cap = base, cap

    def __call__(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        told = _header_wait(exc) if exc is not None else None
        if told is not None:
            return told
        step = min(self.cap, self.base * 2.0 ** (state.attempt_number - 1))
        # A little jitter so 30 concurrent judges do not retry in lockstep.
        return float(step + random.uniform(0, self.base / 2))  # noqa: S311 - not cryptographic


def is_transient(exc: BaseException) -> bool:
    """Whether a failed request is worth repeating (timeout, rate limit, server trouble)."""
    if isinstance(exc, anthropic.APIConnectionError):  # includes APITimeoutError
        return True
    if isinstance(exc, anthropic.APIStatusError):
        return exc.status_code in (408, 409, 429) or exc.status_code >= 500
    return False


class AnthropicBackend:
    """A Claude judge: one Messages call per persona and criterion, structured output."""

    def __init__(
        self,
        *,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        transport_retries: int = 2,
        output_retries: int = 2,
        wait: Callable[[RetryCallState], float] | None = None,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.model = model or DEFAULT_MODEL
        self.name = f"anthropic:{self.model}"
        self.max_tokens = max(256, min(max_tokens, MAX_TOKENS_CEILING))
        self.transport_retries = transport_retries
        self.output_retries = output_retries
        self._wait = wait or BackoffWait()
        self._sleep = sleep
        # max_retries=0: the retry policy is ours (above) and shows up in the trace.
        try:
            self._client = anthropic.Anthropic(
                api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0
            )
        except (anthropic.AnthropicError, TypeError, ValueError) as exc:
            raise ConfigError(
                f"--judges anthropic needs an API key: set ANTHROPIC_API_KEY "
                f"({type(exc).__name__})"
            ) from exc
        client = self._client
        if client.api_key is None and client.auth_token is None and client.credentials is None:
            # Fail before any work: otherwise all 30 judges would fall back one by one.
            raise ConfigError("--judges anthropic needs an API key: set ANTHROPIC_API_KEY")
        version = client.default_headers.get("anthropic-version")
        self.api_version = version if isinstance(version, str) else None

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """Ask Claude for the persona's opinion; raise JudgeError after the retries."""
        messages: list[dict[str, Any]] = [
            {"role": "user", "content": envelope.user_content(request)}
        ]
        usage = JudgeUsage()
        outputs = Retrying(
            stop=stop_after_attempt(1 + self.output_retries),
            retry=retry_if_exception_type(JudgeOutputError),
            wait=wait_none(),
            sleep=_no_sleep,  # a bad answer is retried at once: nothing to wait for
            reraise=True,
        )
        for attempt in outputs:
            with attempt:
                if attempt.retry_state.attempt_number > 1:
                    usage.output_retries += 1
                message = self._send(messages, usage)
                text = _answer_text(message)
                try:
                    draft = _parse(text, message)
                except JudgeOutputError as exc:
                    # Feed the problem back so the next answer can fix exactly that.
                    messages.append({"role": "assistant", "content": text or "(no answer)"})
                    messages.append({"role": "user", "content": personas.retry_block(str(exc))})
                    raise
        return _to_opinion(request, draft), usage

    def _send(self, messages: list[dict[str, Any]], usage: JudgeUsage) -> Any:
        def count_retry(state: RetryCallState) -> None:
            usage.transport_retries += 1

        transport = Retrying(
            stop=stop_after_attempt(1 + self.transport_retries),
            retry=retry_if_exception(is_transient),
            wait=self._wait,
            sleep=self._sleep,
            before_sleep=count_retry,
            reraise=True,
        )
        try:
            message = transport(
                self._client.messages.create,
                model=self.model,
                max_tokens=self.max_tokens,
                system=envelope.system_blocks(),
                messages=messages,
                output_config={
                    "format": {"type": "json_schema", "schema": envelope.OUTPUT_SCHEMA}
                },
            )
        except anthropic.APIStatusError as exc:
            kind = JudgeTransportError if is_transient(exc) else JudgeError
            raise kind(
                f"Claude answered HTTP {exc.status_code} after "
                f"{usage.transport_retries} retries"
            ) from exc
        except anthropic.APIConnectionError as exc:
            raise JudgeTransportError(
                f"Claude unreachable ({type(exc).__name__}) after "
                f"{usage.transport_retries} retries"
            ) from exc
        except anthropic.AnthropicError as exc:
            raise JudgeError(f"Claude call failed: {type(exc).__name__}") from exc
        _add_usage(usage, getattr(message, "usage", None))
        return message


def _no_sleep(seconds: float) -> None:
    return None


def _add_usage(usage: JudgeUsage, reported: Any) -> None:
    if reported is None:
        return
    usage.input_tokens += int(getattr(reported, "input_tokens", 0) or 0)
    usage.output_tokens += int(getattr(reported, "output_tokens", 0) or 0)
    usage.cache_read_tokens += int(getattr(reported, "cache_read_input_tokens", 0) or 0)
    usage.cache_write_tokens += int(getattr(reported, "cache_creation_input_tokens", 0) or 0)


def _answer_text(message: Any) -> str:
    parts = [b.text for b in getattr(message, "content", []) if getattr(b, "type", "") == "text"]
    return "".join(parts).strip()


def _parse(text: str, message: Any) -> envelope.OpinionDraft:
    stop = getattr(message, "stop_reason", None)
    if stop == "max_tokens":
        raise JudgeOutputError("the answer was cut off at max_tokens; answer more briefly")
    if stop == "refusal":
        raise JudgeOutputError("the answer was a refusal, not an opinion")
    body = text
    if body.startswith("```"):
        # Tolerate a fenced answer: the content is what matters, not the wrapping.
        body = body.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise JudgeOutputError(f"not valid JSON ({exc.msg} at position {exc.pos})") from exc
    try:
        return envelope.OpinionDraft.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'answer'}: {e['msg']}" for e in exc.errors()
        )
        raise JudgeOutputError(f"schema violation: {problems}") from exc


def _to_opinion(request: JudgeRequest, draft: envelope.OpinionDraft) -> JudicialOpinion:
    fields = draft.model_dump(mode="json")
    return JudicialOpinion(
        opinion_id=opinion_id(
            request.persona, request.dimension.id, content_digest(fields, request.round)
        ),
        judge=request.persona,
        criterion_id=request.dimension.id,
        **fields,
    )
