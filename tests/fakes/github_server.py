"""A local fake of the GitHub REST API that holds every request to GitHub's own contract.

Runs ``http.server`` on 127.0.0.1 in a thread, under an optional path prefix (``/api/v3``
for GitHub Enterprise). Request bodies are validated against the request schemas in
``tests/fixtures/github/operations.json`` (required fields, enums, maxLength, maxItems,
oneOf/anyOf) plus the documented limits the schemas only describe in prose (comment body
65,536 chars, annotation title 255 chars). A violation answers 422 and is recorded in
``violations``, so a test can assert that nothing we sent would have been refused. The
fake's own answers are checked against the response schemas (``response_violations``), so
the fake cannot drift from what GitHub returns.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "github"
CONTRACT = FIXTURES / "operations.json"
PAYLOADS = FIXTURES / "payloads"
BOT_LOGIN = "github-actions[bot]"  # who a workflow's GITHUB_TOKEN acts as
COMMENT_MAX = 65536
TYPES = {"string": str, "integer": int, "object": dict, "array": list, "boolean": bool}


def load_operations(path: Path = CONTRACT) -> dict[str, Any]:
    """Operations by "METHOD /path/{template}"."""
    return json.loads(path.read_text(encoding="utf-8"))["operations"]


def validate(value: Any, schema: dict[str, Any], where: str = "body") -> list[str]:
    """The subset of JSON Schema the contract uses; returns problems, empty when valid."""
    problems: list[str] = []
    if value is None and schema.get("nullable"):
        return problems
    kind = schema.get("type")
    wrong = kind in TYPES and not isinstance(value, TYPES[kind])
    if wrong or (kind == "integer" and isinstance(value, bool)):
        return [f"{where}: expected {kind}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: {value!r} not in {schema['enum']}")
    if isinstance(value, str) and "maxLength" in schema and len(value) > schema["maxLength"]:
        problems.append(f"{where}: length {len(value)} > maxLength {schema['maxLength']}")
    if isinstance(value, list):
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append(f"{where}: {len(value)} items > maxItems {schema['maxItems']}")
        for i, item in enumerate(value):
            problems += validate(item, schema.get("items", {}), f"{where}[{i}]")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{where}: missing required {name!r}")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                problems += validate(value[name], sub, f"{where}.{name}")
    for key in ("oneOf", "anyOf"):
        if key in schema:
            passing = [b for b in schema[key] if not validate(value, b, where)]
            if (key == "oneOf" and len(passing) != 1) or (key == "anyOf" and not passing):
                problems.append(f"{where}: {key} matched {len(passing)} branches")
    return problems


@dataclass
class Failure:
    """An injected failure: answer ``status`` to the next ``times`` matching requests."""

    method: str
    pattern: str
    status: int
    times: int = 1
    headers: dict[str, str] = field(default_factory=dict)
    message: str = "Server Error"


class FakeGitHub:
    """State and behaviour of the fake; use as a context manager."""

    def __init__(
        self,
        *,
        prefix: str = "",
        repo: str = "octo-org/auditor",
        operations: dict[str, Any] | None = None,
    ) -> None:
        self.prefix = prefix.rstrip("/")
        self.repo = repo
        self.operations = operations if operations is not None else load_operations()
        self.requests: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.failures: list[Failure] = []
        self.read_only = False
        self.comments: dict[int, dict[str, Any]] = {}
        self.check_runs: dict[int, dict[str, Any]] = {}
        self.pulls: dict[int, str] = {}
        #: Base commit by pull request (absent: the documented payload's base sha).
        self.bases: dict[int, str] = {}
        #: The files a pull request changes, as ``{"filename", "status", "previous_filename"}``
        #: (status defaults to "modified"); the pull's ``changed_files`` counts them.
        self.files: dict[int, list[dict[str, str]]] = {}
        #: The token's identity, as GraphQL ``viewer { login }`` reports it.
        self.login = BOT_LOGIN
        #: Repository permission by user login (GitHub answers "read" for anyone else).
        self.permissions: dict[str, str] = {}
        self.response_violations: list[str] = []
        self._ids = 1000
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def api_url(self) -> str:
        """What GITHUB_API_URL would be."""
        return self.origin + self.prefix

    def __enter__(self) -> FakeGitHub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def fail(self, method: str, pattern: str, status: int, **kwargs: Any) -> None:
        """Inject a failure for requests whose path (after the prefix) matches ``pattern``."""
        self.failures.append(Failure(method, pattern, status, **kwargs))

    def writes(self, method: str | None = None, contains: str = "") -> list[dict[str, Any]]:
        """Recorded write requests, optionally filtered (a GraphQL query reads)."""
        return [
            r
            for r in self.requests
            if r["method"] != "GET"
            and r["path"] != self.graphql_path
            and (method is None or r["method"] == method)
            and contains in r["path"]
        ]

    def next_id(self) -> int:
        with self._lock:
            self._ids += 1
            return self._ids

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        for key, op in self.operations.items():
            verb, template = key.split(" ", 1)
            regex = "^" + re.sub(r"\{[^/]+?\}", "[^/]+", template) + "$"
            if verb == method and re.match(regex, path):
                return op
        return None

    @property
    def graphql_path(self) -> str:
        """GitHub serves GraphQL at /graphql, or /api/graphql beside GHES's /api/v3."""
        return self.prefix.removesuffix("/v3") + "/graphql"

    def check_response(self, method: str, path: str, status: int, data: Any) -> None:
        op = self.operation(method, path)
        if op is not None and status == op["status"] and "response" in op:
            problems = validate(data, op["response"], "response")
            self.response_violations.extend(f"{method} {path}: {p}" for p in problems)

    def check_body(self, method: str, path: str, body: Any) -> list[str]:
        op = self.operation(method, path)
        problems: list[str] = []
        if op is not None and "request" in op:
            problems = validate(body, op["request"])
        if isinstance(body, dict):
            if "/comments" in path and len(str(body.get("body", ""))) > COMMENT_MAX:
                problems.append(f"body: comment longer than {COMMENT_MAX} characters")
            for i, note in enumerate((body.get("output") or {}).get("annotations") or []):
                if len(note.get("title", "")) > 255:
                    problems.append(f"annotations[{i}].title longer than 255")
                if len(note.get("message", "").encode()) > 64 * 1024:
                    problems.append(f"annotations[{i}].message larger than 64 KB")
        return problems


def _handler(fake: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    from fakes.github_routes import route  # the endpoints live beside this file

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            return

        def _serve(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            path = parts.path
            record = {
                "method": self.command,
                "path": path,
                "body": body,
                "query": parse_qs(parts.query),
            }
            fake.requests.append(record)
            if path == fake.graphql_path and self.command == "POST":
                return self._graphql(body)
            if not path.startswith(fake.prefix + "/"):
                return self._reply(404, {"message": f"outside the API prefix: {path}"})
            path = path[len(fake.prefix) :]
            record["path"] = path
            if not (self.headers.get("Authorization") or "").split(" ")[-1]:
                return self._reply(401, {"message": "Requires authentication"})
            for failure in fake.failures:
                if (
                    failure.times
                    and failure.method == self.command
                    and re.search(failure.pattern, path)
                ):
                    failure.times -= 1
                    return self._reply(
                        failure.status, {"message": failure.message}, failure.headers
                    )
            if fake.read_only and self.command != "GET":
                return self._reply(403, {"message": "Resource not accessible by integration"})
            problems = fake.check_body(self.command, path, body) if self.command != "GET" else []
            if problems:
                fake.violations.extend(f"{self.command} {path}: {p}" for p in problems)
                return self._reply(422, {"message": "Validation Failed", "errors": problems})
            status, data, headers = route(fake, self.command, path, body, record["query"])
            fake.check_response(self.command, path, status, data)
            self._reply(status, data, headers)

        def _graphql(self, body: Any) -> None:
            failing = [f for f in fake.failures if f.times and f.pattern == "graphql"]
            if failing:
                failing[0].times -= 1
                return self._reply(failing[0].status, {"message": failing[0].message})
            query = str((body or {}).get("query", ""))
            if "viewer" not in query:
                errors = [{"message": "the fake answers only viewer { login }"}]
                return self._reply(200, {"errors": errors})
            self._reply(200, {"data": {"viewer": {"login": fake.login}}})

        def _reply(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(raw)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(raw)

        do_GET = do_POST = do_PATCH = _serve

    return Handler
