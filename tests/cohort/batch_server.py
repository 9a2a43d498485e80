"""A local fake of Anthropic's Message Batches endpoints (and of POST /v1/messages).

It follows the real formats: a batch object with ``processing_status`` and
``request_counts``, ``results_url`` once ended, and JSONL result lines
``{"custom_id", "result": {"type": "succeeded", "message": {...}}}`` (or errored,
canceled, expired). It counts every request, so tests can assert one submission.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fakes.anthropic_server import message, opinion_text, shown_ids


class FakeBatches:
    """Serves the batch endpoints on 127.0.0.1; ``polls_before_end`` GETs say in_progress."""

    def __init__(
        self, polls_before_end: int = 1, fail: int = 0, score: int = 3, split: bool = False
    ) -> None:
        self.polls_before_end = polls_before_end
        self.split = split
        self.fail = fail  # how many results come back errored
        self.score = score
        self.counts: Counter[str] = Counter()
        self.headers: list[dict[str, str]] = []
        self.batches: dict[str, dict[str, Any]] = {}
        self._polls: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _opinion(self, params: dict[str, Any]) -> dict[str, Any]:
        ids = shown_ids(params)
        score = self.score
        if self.split:
            # Opposed judges on the first round make every criterion contested.
            texts = " ".join(b.get("text", "") for b in params["messages"][0]["content"])
            hearing = len(params["messages"][0]["content"]) > 2
            if not hearing:
                score = 1 if "PROSECUTOR." in texts else 5 if "DEFENSE COUNSEL." in texts else 3
        return message(opinion_text(score, ids[:1] or None), model=params["model"])

    def _create(self, body: dict[str, Any]) -> dict[str, Any]:
        requests = body["requests"]
        for item in requests:
            assert set(item) == {"custom_id", "params"}
            assert 1 <= len(item["custom_id"]) <= 64
            params = item["params"]
            assert params["messages"] and params["max_tokens"] and params["model"]
            assert not {"temperature", "top_p", "top_k"} & set(params)
        batch_id = f"msgbatch_{len(self.batches) + 1:04d}"
        self.batches[batch_id] = {"requests": requests}
        return self._batch(batch_id, ended=False)

    def _batch(self, batch_id: str, *, ended: bool) -> dict[str, Any]:
        n = len(self.batches[batch_id]["requests"])
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else n,
                "succeeded": n - self.fail if ended else 0,
                "errored": self.fail if ended else 0,
                "canceled": 0,
                "expired": 0,
            },
            "results_url": f"{self.url}/v1/messages/batches/{batch_id}/results" if ended else None,
            "created_at": "2026-11-22T06:00:00Z",
            "expires_at": "2026-11-23T06:00:00Z",
        }

    def _results(self, batch_id: str) -> str:
        lines = []
        for n, item in enumerate(self.batches[batch_id]["requests"]):
            if n < self.fail:
                result = {
                    "type": "errored",
                    "error": {
                        "type": "error",
                        "error": {"type": "overloaded_error", "message": "Overloaded"},
                    },
                }
            else:
                result = {"type": "succeeded", "message": self._opinion(item["params"])}
            lines.append(json.dumps({"custom_id": item["custom_id"], "result": result}))
        return "\n".join(lines) + "\n"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def _send(self, status: int, payload: str, kind: str = "application/json") -> None:
                data = payload.encode()
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                with fake._lock:
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                    if self.path == "/v1/messages/batches":
                        fake.counts["create"] += 1
                        self._send(200, json.dumps(fake._create(body)))
                    elif self.path == "/v1/messages":
                        fake.counts["direct"] += 1
                        self._send(200, json.dumps(fake._opinion(body)))
                    else:
                        self._send(404, "{}")

            def do_GET(self) -> None:
                parts = self.path.strip("/").split("/")
                with fake._lock:
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                    if len(parts) == 4 and parts[3] in fake.batches:
                        fake.counts["retrieve"] += 1
                        fake._polls[parts[3]] += 1
                        ended = fake._polls[parts[3]] > fake.polls_before_end
                        self._send(200, json.dumps(fake._batch(parts[3], ended=ended)))
                    elif len(parts) == 5 and parts[4] == "results":
                        fake.counts["results"] += 1
                        self._send(200, fake._results(parts[3]), "application/binary")
                    else:
                        self._send(404, "{}")

        return Handler
