"""A small local fake of the Anthropic Messages endpoint, for fault injection without network.

Start it, point the SDK at ``fake.url`` (``base_url`` or ``ANTHROPIC_BASE_URL``), enqueue
scripted replies, then read ``fake.requests``. With nothing queued it answers with a valid
opinion that cites the first evidence id it was shown (or NO_EVIDENCE), after
``fake.latency`` seconds. Responses follow the real Messages API format, including usage
with prompt-cache counters (the shared prefix of a criterion is "written" once, then
"read").
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_EVIDENCE = re.compile(r"<criterion_evidence>\n(.*?)\n</criterion_evidence>", re.DOTALL)


@dataclass
class Reply:
    """One scripted answer: a status, a JSON (or raw text) body, headers and a delay."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Recorded:
    """One request the fake received."""

    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw)


def message(
    text: str,
    *,
    model: str = "claude-sonnet-5-5",
    stop: str = "end_turn",
    usage: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A Messages API response body with one text block."""
    return {
        "id": f"msg_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage
        or {
            "input_tokens": 900,
            "output_tokens": 180,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


def opinion_text(score: int = 3, cited: list[str] | None = None, **extra: Any) -> str:
    """The JSON text of a valid opinion."""
    body = {
        "score": score,
        "argument": f"Scored {score} on the facts cited.",
        "cited_evidence": cited or ["NO_EVIDENCE"],
        **extra,
    }
    return json.dumps(body)


def error(status: int, kind: str, text: str, headers: dict[str, str] | None = None) -> Reply:
    """An API error in the real error format."""
    body = {
        "type": "error",
        "error": {"type": kind, "message": text},
        "request_id": f"req_{uuid.uuid4().hex[:24]}",
    }
    return Reply(status=status, body=body, headers=headers or {})


def shown_ids(body: dict[str, Any]) -> list[str]:
    """The evidence ids inside a request's <criterion_evidence> block."""
    for block in body["messages"][0]["content"]:
        found = _EVIDENCE.search(block.get("text", ""))
        if found:
            return [item["id"] for item in json.loads(found.group(1))["items"]]
    return []


class _Server(ThreadingHTTPServer):
    # 30 judges connect at once: the default backlog of 5 would drop SYNs and add
    # a one-second retransmit to the measured latency.
    request_queue_size = 128
    daemon_threads = True


class FakeAnthropic:
    """A threaded HTTP server speaking just enough of POST /v1/messages."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.requests: list[Recorded] = []
        self.queue: deque[Reply | Callable[[dict[str, Any]], Reply]] = deque()
        self.in_flight = 0
        self.max_in_flight = 0
        self.latencies: list[float] = []
        self._prefixes: set[str] = set()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def enqueue(self, *replies: Reply | Callable[[dict[str, Any]], Reply]) -> None:
        """Script the next answers, in order."""
        with self._lock:
            self.queue.extend(replies)

    def default_reply(self, body: dict[str, Any]) -> Reply:
        """A valid opinion citing the first id shown, with cache-aware usage."""
        ids = shown_ids(body)
        prefix = json.dumps([body.get("system"), body["messages"][0]["content"][0]])
        with self._lock:
            first = prefix not in self._prefixes
            self._prefixes.add(prefix)
        shared = len(prefix) // 4
        usage = {
            "input_tokens": 150,
            "output_tokens": 160,
            "cache_creation_input_tokens": shared if first else 0,
            "cache_read_input_tokens": 0 if first else shared,
        }
        return Reply(
            body=message(
                opinion_text(3, ids[:1] or None),
                usage=usage,
                model=body.get("model", "claude-sonnet-5-5"),
            ),
            delay=self.latency,
        )

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            scripted = self.queue.popleft() if self.queue else None
        if scripted is None:
            return self.default_reply(body)
        return scripted(body) if callable(scripted) else scripted

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None  # keep test output quiet

            def do_POST(self) -> None:
                started = time.perf_counter()
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                with fake._lock:
                    fake.requests.append(Recorded(self.path, dict(self.headers.items()), raw))
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                try:
                    reply = fake._next(json.loads(raw))
                    if reply.delay:
                        time.sleep(reply.delay)
                    payload = (
                        reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                    ).encode()
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer
                finally:
                    with fake._lock:
                        fake.in_flight -= 1
                        fake.latencies.append(time.perf_counter() - started)

        return Handler
