"""What an audit's model calls cost: a leaf the verdict and the judges' bench share."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Usage(BaseModel):
    """Model usage of an audit: calls, tokens and estimated cost."""

    calls: int = 0
    cached_opinions: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    estimated_cost_usd: float = 0.0
    model: str | None = None
    api_version: str | None = None
    #: The cost cap in force (USD), and the criteria the offline bench judged because a
    #: Claude call for them would have passed it (the reason is in the verdict's errors).
    max_cost_usd: float | None = None
    over_budget: list[str] = Field(default_factory=list)
