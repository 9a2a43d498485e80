"""A small local fake of the Anthropic Messages endpoint, for fault injection without network.

Start it, point the SDK at ``fake.url`` (``base_url`` or ``ANTHROPIC_BASE_URL``), enqueue
scripted replies, then read ``fake.requests``. With nothing queued it answers with a valid
opinion that cites the first evidence id it was shown (or NO_EVIDENCE), after
``fake.latency`` seconds. Responses follow the real Messages API format, including usage
with prompt-cache counters computed by the API's rules (see ``PromptCache``).

An image block is held to the documented vision limits (a base64 source of a supported
media type, at most 5 MB, at most 8,000 px a side, the pixels decodable): a request that
breaks them gets the API's 400 ``invalid_request_error``, as from the real service. With
nothing queued, a request with an image is answered with an empty transcription.

The same server answers the Bedrock (``/model/{model}/invoke``) and Vertex
(``/projects/{p}/locations/{r}/publishers/anthropic/models/{model}:rawPredict``) paths,
which carry the model in the path instead of the body.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import math
import re
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_MODEL_IN_PATH = re.compile(r"/model/([^/]+)/invoke$|/models/([^/:]+):rawPredict$")
#: Minimum cacheable prefix (tokens) by model family, from the prompt-caching docs; a
#: breakpoint whose prefix is shorter is silently not cached. Most specific first.
MIN_CACHEABLE: tuple[tuple[str, int], ...] = (
    ("claude-opus-5", 512), ("claude-fable", 512), ("claude-mythos", 512),
    ("claude-opus-4-8", 1024), ("claude-sonnet-5", 1024), ("claude-sonnet-4", 1024),
    ("claude-opus-4-7", 2048), ("claude-opus-4-6", 4096), ("claude-opus-4-5", 4096),
    ("claude-haiku-4-5", 4096), ("claude-3-5-haiku", 2048), ("claude-3-haiku", 2048),
)
#: Five-minute cache lifetime, refreshed on every read.
CACHE_TTL = 300.0
#: The vision limits of the Messages API: media types, bytes of one base64 image, px a side.
IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
MAX_IMAGE_BYTES, MAX_IMAGE_SIDE = 5 * 1024 * 1024, 8000
_EVIDENCE = re.compile(r"<criterion_evidence>\n(.*?)\n</criterion_evidence>", re.DOTALL)


@dataclass
class Reply:
    """One scripted answer: a status, a JSON (or raw text) body, headers and a delay."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    #: Prompt-cache prefixes this answer makes usable once it is sent.
    commit: list[str] = field(default_factory=list)


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


def image_problem(body: dict[str, Any]) -> str | None:
    """Why the real API would reject an image block of this request, if it would."""
    for block in _blocks(body):
        if block.get("type") != "image":
            continue
        source = block.get("source") or {}
        if set(block) - {"type", "source", "cache_control"} or source.get("type") != "base64":
            return "image: unexpected fields or source type"
        if source.get("media_type") not in IMAGE_TYPES or set(source) != {
                "type", "media_type", "data"}:
            return "image.source: media_type must be one of " + ", ".join(IMAGE_TYPES)
        data = source["data"]
        if len(data) > MAX_IMAGE_BYTES:
            return "image exceeds 5 MB maximum"
        try:
            from PIL import Image

            with Image.open(io.BytesIO(base64.b64decode(data, validate=True))) as image:
                if max(image.size) > MAX_IMAGE_SIDE:
                    return "image criteria exceed max allowed size: 8000 pixels"
                if image.format.lower() != source["media_type"].split("/")[1]:
                    return "image does not match the provided media type"
        except (binascii.Error, OSError, ValueError):
            return "could not process image"
    return None


def has_image(body: dict[str, Any]) -> bool:
    return any(block.get("type") == "image" for block in _blocks(body))


def min_cacheable(model: str) -> int:
    """The minimum cacheable prefix of a model, in tokens (1,024 when unknown)."""
    name = model.removeprefix("us.").removeprefix("anthropic.").split("@")[0]
    return next((n for prefix, n in MIN_CACHEABLE if name.startswith(prefix)), 1024)


def tokens(text: str) -> int:
    """A token count close enough for a fake: about four characters per token."""
    return math.ceil(len(text) / 4)


def _blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    """System blocks then message blocks, in the order the API reads a prompt."""
    system = body.get("system") or []
    out = [{"type": "text", "text": system}] if isinstance(system, str) else list(system)
    for turn in body.get("messages", []):
        content = turn["content"]
        out += [{"type": "text", "text": content}] if isinstance(content, str) else content
    return out


class PromptCache:
    """Prompt caching as the API does it, for counting writes and reads.

    A prefix is everything up to a ``cache_control`` breakpoint. Only prefixes of at least
    the model's minimum length are cached. A request reads the longest cached prefix it
    starts with and writes the longest cacheable one beyond it. An entry becomes usable
    only once the response that wrote it has come back (``commit``), so concurrent calls
    with the same prefix each pay a write; entries live CACHE_TTL seconds from last use.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: dict[str, float] = {}
        self._clock = clock
        self.writes = 0
        self.reads = 0

    def account(self, model: str, body: dict[str, Any]) -> tuple[dict[str, int], list[str]]:
        """Usage for this request, and the prefixes to commit once it is answered."""
        blocks, total, keys = _blocks(body), 0, []
        cacheable: list[tuple[str, int]] = []
        for index, block in enumerate(blocks):
            total += tokens(block.get("text", ""))
            if block.get("cache_control") and total >= min_cacheable(model):
                digest = hashlib.sha256(json.dumps([model, blocks[: index + 1]],
                                                   sort_keys=True).encode()).hexdigest()
                cacheable.append((digest, total))
        now, read, written = self._clock(), 0, 0
        for digest, size in cacheable:
            if self._entries.get(digest, -1.0) >= now:
                read = size
                self._entries[digest] = now + CACHE_TTL
        if cacheable and cacheable[-1][1] > read:
            written = cacheable[-1][1] - read
            keys = [d for d, size in cacheable if size > read]
        self.reads += bool(read)
        self.writes += bool(written)
        usage = {"input_tokens": total - read - written, "cache_read_input_tokens": read,
                 "cache_creation_input_tokens": written}
        return usage, keys

    def commit(self, keys: list[str]) -> None:
        """Make the prefixes written by an answered request usable."""
        until = self._clock() + CACHE_TTL
        for key in keys:
            self._entries[key] = until


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
        self.cache = PromptCache()
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
        """A valid opinion citing the first id shown, with prompt-cache usage (an empty
        transcription for a request with an image)."""
        if has_image(body):
            return Reply(body=message(json.dumps({"boxes": [], "arrows": []})),
                         delay=self.latency)
        ids = shown_ids(body)
        model = body.get("model") or "claude-sonnet-5-5"
        with self._lock:
            usage, keys = self.cache.account(model, body)
        usage["output_tokens"] = 160
        return Reply(
            body=message(opinion_text(3, ids[:1] or None), usage=usage, model=model),
            delay=self.latency,
            commit=keys,
        )

    def _next(self, body: dict[str, Any]) -> Reply:
        problem = image_problem(body)
        if problem is not None:
            return error(400, "invalid_request_error", problem)
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
                    body = json.loads(raw)
                    named = _MODEL_IN_PATH.search(self.path.split("?")[0])
                    if named and "model" not in body:
                        body["model"] = next(g for g in named.groups() if g)
                    reply = fake._next(body)
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
                    with fake._lock:
                        fake.cache.commit(reply.commit)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer
                finally:
                    with fake._lock:
                        fake.in_flight -= 1
                        fake.latencies.append(time.perf_counter() - started)

        return Handler
