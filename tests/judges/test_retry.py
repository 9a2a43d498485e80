"""The retry layer: the server's own advice is obeyed and counted apart from faults;
everything else backs off exponentially; requests that cannot succeed are not repeated."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import anthropic
import pytest
from fakes.anthropic_server import FakeAnthropic, error
from tenacity import RetryCallState, Retrying

from courtroom.judges.retry import (
    MAX_RETRY_AFTER,
    BackoffWait,
    RetryBudget,
    header_wait,
    is_transient,
    told_to_wait,
)

ASK = {"model": "claude-sonnet-5-5", "max_tokens": 16,
       "messages": [{"role": "user", "content": "hello"}]}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic().start()
    yield fake
    fake.stop()


@pytest.fixture
def status(server: FakeAnthropic) -> Callable[..., anthropic.APIStatusError]:
    """The SDK's own exception for an HTTP error answer (its retries off)."""
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.url, max_retries=0)

    def failed(code: int, **headers: str) -> anthropic.APIStatusError:
        server.enqueue(error(code, "api_error", "scripted", headers))
        with pytest.raises(anthropic.APIStatusError) as caught:
            client.messages.create(**ASK)
        return caught.value

    return failed


def attempt(exc: BaseException, number: int) -> RetryCallState:
    state = RetryCallState(Retrying(), fn=None, args=(), kwargs={})
    state.attempt_number = number
    state.set_exception((type(exc), exc, None))
    return state


@pytest.mark.parametrize(("headers", "wait"), [
    ({"retry-after": "3"}, 3.0),
    ({"retry-after-ms": "250"}, 0.25),
    ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),  # the finer one wins
    ({"retry-after": "3600"}, MAX_RETRY_AFTER),
    ({"retry-after": "-5"}, 0.0),
    ({"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}, None),  # a date: our own backoff
    ({}, None),
])
def test_the_servers_advice_is_read_and_capped(status: Callable[..., anthropic.APIStatusError],
                                               headers: dict[str, str],
                                               wait: float | None) -> None:
    assert header_wait(status(429, **headers)) == wait


def test_only_failures_worth_repeating_are_transient(
    status: Callable[..., anthropic.APIStatusError],
) -> None:
    assert is_transient(anthropic.APITimeoutError(request=status(500).request))
    assert all(is_transient(status(code)) for code in (408, 409, 429, 500, 503, 529))
    assert not any(is_transient(status(code)) for code in (400, 401, 403, 404, 413, 422))
    assert not is_transient(ValueError("a bug, not the network"))
    assert told_to_wait(status(503, **{"retry-after": "1"}))
    assert not told_to_wait(status(503)) and not told_to_wait(status(400, **{"retry-after": "1"}))
    assert header_wait(ValueError("no response at all")) is None


def test_told_waits_do_not_use_up_the_fault_retries(
    status: Callable[..., anthropic.APIStatusError],
) -> None:
    stop = RetryBudget(retries=2, waits=3)
    told = status(429, **{"retry-after": "1"})
    assert [stop(attempt(told, n)) for n in range(1, 4)] == [False] * 3
    assert [stop(attempt(status(500), n)) for n in range(4, 6)] == [False, False]
    assert stop(attempt(status(500), 6))  # the third fault gives up
    assert stop(attempt(told, 7))  # and so does a fourth told wait
    assert (stop.faults, stop.told) == (3, 4)


def test_backoff_obeys_advice_and_otherwise_doubles_up_to_its_cap(
    status: Callable[..., anthropic.APIStatusError],
) -> None:
    wait = BackoffWait(base=1.0, cap=5.0)
    assert wait(attempt(status(529, **{"retry-after": "7"}), 1)) == 7.0
    for number, step in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (9, 5.0)):
        assert step <= wait(attempt(status(500), number)) <= step + 0.5
