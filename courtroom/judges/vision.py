"""Claude reads the report's diagram images for the detectives, with the judges' client.

The pipeline builds one ``ClaudeVision`` per audit, only when the Claude judges sit
(``for_audit``); offline there is none and no image leaves the machine. It waits for the
judges' backend (built on its own thread while the detectives run), asks it once per
distinct image (by sha256) and keeps what the calls used. The calls happen during
detection, before the bench exists, so they are paid first out of the audit's cost cap:
a call whose estimate (image tokens, instruction, the whole output allowance) would pass
the cap is not made, and the bench is given what is left (``remaining``). Their tokens
and calls join the verdict's usage (``add_to``). No SDK import here.
"""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import Future

from courtroom.detectives.report.image_claude import Transcription
from courtroom.errors import CourtroomError, JudgeError
from courtroom.judges import vision_request
from courtroom.judges.base import Backend, JudgeUsage
from courtroom.judges.pricing import estimate_usd, price_for
from courtroom.models import Usage
from courtroom.settings.config import AuditConfig

#: Characters per token assumed for the instruction (as the judges' estimate: errs high).
CHARS_PER_TOKEN = 3.0
#: Smallest cap handed to the bench when the images used it all: every criterion then
#: goes to the offline bench, and the verdict says so.
NO_BUDGET = 1e-9


class ClaudeVision:
    """A ``Transcriber`` over the judges' Claude backend, cached, counted and capped."""

    def __init__(self, judges: Future[Backend], *, max_cost_usd: float | None = None) -> None:
        self._judges = judges
        self.cap = max_cost_usd
        self.usage = JudgeUsage()
        self.model: str | None = None
        self._lock = threading.Lock()
        self._done: dict[str, Transcription | JudgeError] = {}
        self._held = 0.0  # USD reserved for calls in flight

    def transcribe(self, png: bytes, media_type: str = "image/png") -> Transcription:
        """Claude's boxes and arrows for ``png``; a CourtroomError says why there are none."""
        key = hashlib.sha256(png).hexdigest()
        with self._lock:
            known = self._done.get(key)
        if known is None:
            known = self._ask(png)
            with self._lock:
                known = self._done.setdefault(key, known)
        if isinstance(known, JudgeError):
            raise JudgeError(str(known)) from known
        return known

    def _ask(self, png: bytes) -> Transcription | JudgeError:
        from courtroom.judges.anthropic_backend import AnthropicBackend

        try:
            backend = self._judges.result()
        except CourtroomError as exc:  # the audit itself reports a backend that failed
            return JudgeError(f"no Claude client ({type(exc).__name__})")
        if not isinstance(backend, AnthropicBackend):
            return JudgeError("the judges are not Claude")
        try:
            image = vision_request.prepare(png)
            held = self._reserve(backend.model, image)
        except JudgeError as exc:
            return exc
        try:
            answer, used = backend.transcribe(image)
        except JudgeError as exc:
            used = exc.usage if isinstance(exc.usage, JudgeUsage) else JudgeUsage()
            self._settle(held, used)
            return exc
        self._settle(held, used)
        return answer

    def _reserve(self, model: str, image: vision_request.Prepared) -> float:
        """Hold this call's worst-case cost under the cap (JudgeError when it cannot fit)."""
        price = price_for(model)
        tokens_in = image.tokens + len(vision_request.INSTRUCTION) / CHARS_PER_TOKEN
        estimate = (tokens_in * price.input + vision_request.MAX_TOKENS * price.output) / 1e6
        with self._lock:
            self.model = model
            if self.cap is not None and self.spent_usd() + self._held + estimate > self.cap:
                raise JudgeError(f"cost cap ${self.cap:.2f} reached: image not sent to Claude")
            self._held += estimate
        return estimate

    def _settle(self, held: float, used: JudgeUsage) -> None:
        with self._lock:
            self._held = max(0.0, self._held - held)
            for name in ("input_tokens", "output_tokens", "cache_read_tokens",
                         "cache_write_tokens", "requests", "transport_retries",
                         "output_retries"):
                setattr(self.usage, name, getattr(self.usage, name) + getattr(used, name))

    def spent_usd(self) -> float:
        """What the image calls have cost so far, at list prices."""
        return estimate_usd(self.model, input_tokens=self.usage.input_tokens,
                            output_tokens=self.usage.output_tokens,
                            cache_read=self.usage.cache_read_tokens,
                            cache_write=self.usage.cache_write_tokens)

    def remaining(self) -> float | None:
        """The cap left for the judges (None: no cap)."""
        if self.cap is None:
            return None
        return max(NO_BUDGET, self.cap - self.spent_usd())

    def add_to(self, usage: Usage) -> Usage:
        """``usage`` (the bench's) with the image calls counted in, and the audit's cap (the
        bench was given only what the images left of it)."""
        total = usage.model_copy(deep=True)
        total.max_cost_usd = self.cap
        total.calls += self.usage.requests
        total.input_tokens += self.usage.input_tokens
        total.output_tokens += self.usage.output_tokens
        total.cache_read_tokens += self.usage.cache_read_tokens
        total.cache_write_tokens += self.usage.cache_write_tokens
        total.estimated_cost_usd = round(total.estimated_cost_usd + self.spent_usd(), 6)
        return total


def for_audit(config: AuditConfig, judges: Future[Backend]) -> ClaudeVision | None:
    """The audit's image reader: only when Claude judges it, else None (nothing is sent)."""
    if config.judges != "anthropic":
        return None
    return ClaudeVision(judges, max_cost_usd=config.max_cost_usd)
