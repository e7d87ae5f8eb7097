"""A local HTTP server that speaks the OpenAI-compatible chat completions protocol
with scripted answers, for tests and benches (loopback only).

    with ChatServer() as server:
        server.add("{...}")                        # one 200 answer
        server.add(Reply(status=429), "{...}")     # a 429, then an answer
        model = OpenAIChatModel(model="m", base_url=server.base_url)

Every request body is kept in :attr:`ChatServer.requests` (parsed) and
:attr:`ChatServer.bodies` (raw text), so a test can assert on exactly what a model
was sent. ``observer`` is told each raw body too (a suite-wide canary check).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TypeAlias

__all__ = ["ChatServer", "Reply", "ServerAnswer"]


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer: assistant ``text`` with status 200, or an error ``status``.

    ``delay_s`` holds the answer back (a slow model, for timeouts). Error replies
    carry ``retry-after-ms: 1`` so clients retry at once.
    """

    text: str = ""
    status: int = 200
    finish_reason: str = "stop"
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


ServerAnswer: TypeAlias = "str | Reply | Callable[[dict[str, Any]], str | Reply]"


class ChatServer:
    """Scripted chat completions on ``127.0.0.1`` (a free port); a context manager."""

    def __init__(self, *, observer: Callable[[str], None] | None = None) -> None:
        self._script: deque[ServerAnswer] = deque()
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.bodies: list[str] = []
        self.default: ServerAnswer | None = None
        self._observer = observer
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="gofer-chat-server", daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``.../v1``)."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def add(self, *answers: ServerAnswer) -> None:
        """Append answers; each request takes the next one (then :attr:`default`)."""
        with self._lock:
            self._script.extend(answers)

    @property
    def left(self) -> int:
        """Scripted answers not yet given."""
        with self._lock:
            return len(self._script)

    def messages(self, index: int = -1) -> list[dict[str, Any]]:
        """The messages of request ``index`` (default: the last)."""
        messages: list[dict[str, Any]] = self.requests[index]["messages"]
        return messages

    def close(self) -> None:
        """Stop serving (idempotent)."""
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ChatServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ inside

    def _next(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            answer = self._script.popleft() if self._script else self.default
        if answer is None:
            return Reply(status=400, text="the scripted server has no answer left")
        if callable(answer):
            answer = answer(request)
        return answer if isinstance(answer, Reply) else Reply(text=answer)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8")
                if server._observer is not None:
                    server._observer(raw)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found"}}, {})
                    return
                request = json.loads(raw)
                with server._lock:
                    server.bodies.append(raw)
                    server.requests.append(request)
                reply = server._next(request)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.status != 200:
                    self._send(
                        reply.status,
                        {
                            "error": {
                                "message": reply.text or "scripted error",
                                "type": "scripted",
                                "code": reply.status,
                            }
                        },
                        {"retry-after-ms": "1", **reply.headers},
                    )
                    return
                prompt = sum(len(str(m.get("content", ""))) for m in request["messages"])
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": request.get("model", ""),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.text},
                                "finish_reason": reply.finish_reason,
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt // 4,
                            "completion_tokens": len(reply.text) // 4,
                            "total_tokens": prompt // 4 + len(reply.text) // 4,
                        },
                    },
                    reply.headers,
                )

            def _send(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
                data = json.dumps(body).encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up (a timeout test)

        return Handler
