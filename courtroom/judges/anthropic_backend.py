"""Claude as a judge: the only modules importing ``anthropic`` are this one, providers.py and
retry.py, and nothing imports them until a Claude bench is built.

Two visible retry layers replace the SDK's hidden ones (``max_retries=0``):

1. network (retry.py) — timeouts, connection errors, 408, 429, 5xx and 529; a server's
   ``retry-after`` is waited out as told without using up the two fault retries;
   then JudgeTransportError;
2. output — an answer that is not JSON or does not validate as an opinion is retried at
   most ``output_retries`` (2) times, the validation error fed back to the model, then
   JudgeOutputError.

The bench turns either error into the fallback opinion. The same client and layers
transcribe diagram images for the report detective (``transcribe``, via judges/vision.py).
No sampling parameter (temperature, top_p, top_k) is ever sent: API version 2026-10-21
rejects them.

Requests are not streamed. The SDK refuses a non-streaming request it expects to run past
ten minutes (3,600 s per 128,000 output tokens), so ``max_tokens`` stays under that bound
and the per-request timeout defaults to the SDK's own ten minutes (``judge_timeout``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import anthropic
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_attempt,
    wait_none,
)

from courtroom.detectives.report.image_claude import Transcription
from courtroom.errors import JudgeError, JudgeOutputError, JudgeTransportError
from courtroom.judges import claude_request, envelope, personas, vision_request
from courtroom.judges.base import JudgeRequest, JudgeUsage
from courtroom.judges.pricing import price_for
from courtroom.judges.providers import build_client, default_model
from courtroom.judges.retry import BackoffWait, RetryBudget, is_transient
from courtroom.judges.vision_request import Prepared
from courtroom.models import JudicialOpinion

DEFAULT_MODEL = default_model("anthropic")
#: Enough for adaptive thinking plus a long opinion; bounded so one call cannot run away.
DEFAULT_MAX_TOKENS = 8000
#: The most output a non-streaming request may ask for: the SDK expects 128,000 tokens
#: per hour and refuses non-streaming requests expected to run past ten minutes.
MAX_TOKENS_CEILING = 128_000 * 600 // 3600
#: Characters per input token assumed when a request's cost is estimated before sending:
#: low on purpose (JSON and code tokenise densely), so the estimate errs high.
CHARS_PER_TOKEN = 3.0
#: Output assumed for a call before any answer of this audit has been seen.
DEFAULT_OUTPUT_ESTIMATE = 2000

Sleep = Callable[[float], None]


class AnthropicBackend:
    """A Claude judge: one Messages call per persona and criterion, structured output."""

    #: Claude's answers cost money and time: the opinion cache serves repeats.
    cacheable = True

    def __init__(
        self,
        *,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 600.0,
        provider: str = "anthropic",
        region: str | None = None,
        project_id: str | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        transport_retries: int = 2,
        output_retries: int = 2,
        wait: Callable[[RetryCallState], float] | None = None,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.model = model or default_model(provider)
        self.provider = provider
        self.name = f"anthropic:{self.model}" if provider == "anthropic" else \
            f"{provider}:{self.model}"
        self.max_tokens = max(256, min(max_tokens, MAX_TOKENS_CEILING))
        self.transport_retries = transport_retries
        self.output_retries = output_retries
        self._wait = wait or BackoffWait()
        self._sleep = sleep
        self._client = build_client(provider, api_key=api_key, base_url=base_url,
                                    timeout=timeout, region=region, project_id=project_id)
        version = self._client.default_headers.get("anthropic-version")
        self.api_version = version if isinstance(version, str) else None

    def estimate_usd(self, request: JudgeRequest, output_tokens: int | None = None) -> float:
        """What one call for ``request`` may cost, before it is sent (errs high).

        Input is priced as a cache write (the dearest way to send it); output at
        ``output_tokens`` (the audit's running mean) or DEFAULT_OUTPUT_ESTIMATE.
        """
        size = len(envelope.encode_data(envelope.system_blocks()))
        size += len(envelope.encode_data(envelope.user_content(request)))
        price = price_for(self.model)
        tokens_in = size / CHARS_PER_TOKEN
        tokens_out = min(self.max_tokens, output_tokens or DEFAULT_OUTPUT_ESTIMATE)
        return (tokens_in * price.cache_write + tokens_out * price.output) / 1_000_000

    def opine(self, request: JudgeRequest) -> tuple[JudicialOpinion, JudgeUsage]:
        """Ask Claude for the persona's opinion; raise JudgeError after the retries.

        A JudgeError carries what the failed attempts cost in ``usage``: they are paid for.
        """
        usage = JudgeUsage()
        try:
            return self._opine(request, usage), usage
        except JudgeError as exc:
            exc.usage = usage
            raise

    def _opine(self, request: JudgeRequest, usage: JudgeUsage) -> JudicialOpinion:
        messages = claude_request.first_messages(request)
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
                message = self._send(
                    claude_request.params(self.model, self.max_tokens, messages), usage)
                text = claude_request.answer_text(message)
                try:
                    draft = claude_request.parse(text, message)
                except JudgeOutputError as exc:
                    # Feed the problem back so the next answer can fix exactly that.
                    messages.append({"role": "assistant", "content": text or "(no answer)"})
                    messages.append({"role": "user", "content": personas.retry_block(str(exc))})
                    raise
        return claude_request.to_opinion(
            request.persona, request.criterion.id, request.round, draft
        )

    def transcribe(self, image: Prepared) -> tuple[Transcription, JudgeUsage]:
        """Claude's transcription of a diagram image, through the judges' client and
        retry layers (a bad answer is asked again as is); JudgeError after the retries,
        carrying what the attempts cost in ``usage``."""
        usage = JudgeUsage()
        outputs = Retrying(stop=stop_after_attempt(1 + self.output_retries),
                           retry=retry_if_exception_type(JudgeOutputError), wait=wait_none(),
                           sleep=_no_sleep, reraise=True)
        try:
            for attempt in outputs:
                with attempt:
                    if attempt.retry_state.attempt_number > 1:
                        usage.output_retries += 1
                    asked = {**vision_request.params(self.model, image),
                             "timeout": vision_request.TIMEOUT}
                    answer = vision_request.parse(self._send(asked, usage))
        except JudgeError as exc:
            exc.usage = usage
            raise
        return answer, usage

    def _send(self, params: dict[str, Any], usage: JudgeUsage) -> Any:
        def count_retry(state: RetryCallState) -> None:
            usage.transport_retries += 1

        def create(**kwargs: Any) -> Any:
            usage.requests += 1  # every request is counted, answered or not
            return self._client.messages.create(**kwargs)

        transport = Retrying(
            stop=RetryBudget(self.transport_retries),
            retry=retry_if_exception(is_transient),
            wait=self._wait,
            sleep=self._sleep,
            before_sleep=count_retry,
            reraise=True,
        )
        try:
            message = transport(create, **params)
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
