"""Entry points: what a route's return value is sent as."""

from __future__ import annotations

from detectives.security.taint.programs import flows


def test_a_fastapi_route_returns_json_not_html() -> None:
    code = ("from fastapi import FastAPI\napp = FastAPI()\n\n\n@app.get('/items/{q}')\n"
            "def item(q: str):\n    return f'<p>{q}</p>'\n")
    assert flows({"api.py": code}) == []
