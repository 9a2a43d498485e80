"""The network retry layer of the Claude backend (the SDK's own retries are off).

Two kinds of transient failure, treated differently:

- the server said when to come back (429 rate limit, 529 overloaded, 503 with
  ``retry-after`` / ``retry-after-ms``): wait exactly that long (capped at
  MAX_RETRY_AFTER) and try again, up to ``waits`` times. These are a pacing signal,
  not a fault, so they never use up the fault retries and never become a fallback early;
- any other transient failure (timeout, connection error, 408, 409, 5xx without advice):
  exponential backoff with jitter, at most ``retries`` times.
"""

from __future__ import annotations

import random

import anthropic
from tenacity import RetryCallState

#: Longest wait honoured from a retry-after header, in seconds.
MAX_RETRY_AFTER = 60.0
#: Told-to-wait retries allowed per request (about ten minutes at the longest wait).
DEFAULT_WAITS = 10


def header_wait(exc: BaseException) -> float | None:
    """The wait the server asked for, in seconds, or None when it gave no usable advice."""
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


def is_transient(exc: BaseException) -> bool:
    """Whether a failed request is worth repeating (timeout, rate limit, server trouble)."""
    if isinstance(exc, anthropic.APIConnectionError):  # includes APITimeoutError
        return True
    if isinstance(exc, anthropic.APIStatusError):
        return exc.status_code in (408, 409, 429) or exc.status_code >= 500
    return False


def told_to_wait(exc: BaseException) -> bool:
    """A transient failure that came with the server's own retry advice."""
    return is_transient(exc) and header_wait(exc) is not None


class BackoffWait:
    """Tenacity wait strategy: the server's retry-after when given, else exponential."""

    def __init__(self, base: float = 1.0, cap: float = 20.0) -> None:
        self.base, self.cap = base, cap

    def __call__(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        told = header_wait(exc) if exc is not None else None
        if told is not None:
            return told
        faults = state.attempt_number
        step = min(self.cap, self.base * 2.0 ** (faults - 1))
        # A little jitter so concurrent judges do not retry in lockstep.
        return float(step + random.uniform(0, self.base / 2))  # noqa: S311 - not cryptographic


class RetryBudget:
    """Tenacity stop strategy counting the two kinds of retry separately."""

    def __init__(self, retries: int, waits: int = DEFAULT_WAITS) -> None:
        self.retries, self.waits = retries, waits
        self.faults = 0
        self.told = 0

    def __call__(self, state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        if exc is not None and told_to_wait(exc):
            self.told += 1
            return self.told > self.waits
        self.faults += 1
        return self.faults > self.retries
