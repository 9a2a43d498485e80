"""Estimated cost of judge calls, from list prices per million tokens (USD).

Estimates only: the bill is Anthropic's. Unknown models are priced like the Sonnet family
so an estimate is never silently zero.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float
    cache_read: float


def _price(inp: float, out: float) -> Price:
    # Five-minute cache writes cost 1.25x input; cache reads 0.1x input.
    return Price(inp, out, inp * 1.25, inp * 0.1)


#: Model-name prefixes, most specific first.
PRICES: tuple[tuple[str, Price], ...] = (
    ("claude-fable", _price(10.0, 50.0)),
    ("claude-opus-5-5", _price(4.0, 20.0)),
    ("claude-opus", _price(5.0, 25.0)),
    ("claude-sonnet-5", _price(2.0, 10.0)),
    ("claude-sonnet", _price(3.0, 15.0)),
    ("claude-haiku", _price(1.0, 5.0)),
)
DEFAULT_PRICE = _price(3.0, 15.0)


def base_model(model: str) -> str:
    """The Anthropic model name inside a provider's id.

    "us.anthropic.claude-sonnet-5-5" (Bedrock) and "claude-sonnet-5-5@20260101" (Vertex)
    are both "claude-sonnet-5-5": same model, same price, same cache rules.
    """
    name = model.rsplit("/", 1)[-1]
    for prefix in ("us.", "eu.", "apac.", "global."):
        name = name.removeprefix(prefix)
    name = name.removeprefix("anthropic.")
    return name.split("@", 1)[0]


def price_for(model: str | None) -> Price:
    """The list price of a model on any provider (the Sonnet price when unknown)."""
    name = base_model(model) if model else ""
    for prefix, price in PRICES:
        if name.startswith(prefix):
            return price
    return DEFAULT_PRICE


def estimate_usd(
    model: str | None, *, input_tokens: int, output_tokens: int, cache_read: int, cache_write: int
) -> float:
    """Estimated USD for the given token counts."""
    p = price_for(model)
    total = (
        input_tokens * p.input
        + output_tokens * p.output
        + cache_read * p.cache_read
        + cache_write * p.cache_write
    )
    return round(total / 1_000_000, 6)
