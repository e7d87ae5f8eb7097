"""A browser session's own gate to the network: a small HTTP proxy on loopback.

Every request the session's pages make goes through it (Playwright routes loopback
through a context's proxy too): main-frame navigations and every hop of a redirect,
subresources, WebSockets and workers alike. The gate refuses a host outside the
session's origins (``BLOCKED_ORIGIN``) and, unless the operator allows them, a host
that resolves to a private address (``BLOCKED_ADDRESS``); otherwise it connects to
the very address it judged, so a name cannot resolve elsewhere in between.

``https`` and WebSockets come as ``CONNECT host:port`` (the tunnel stays encrypted);
plain ``http`` comes as an absolute address and is sent on with ``Connection:
close``, one request per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from gofer.surfaces.addresses import resolve
from gofer.surfaces.origins import origin_allowed

__all__ = ["Gate", "Refusal"]

log = logging.getLogger("gofer.surfaces")

HEAD_TIMEOUT_S = 30.0
"""Longest the gate waits for a request's head."""
CONNECT_TIMEOUT_S = 15.0
"""Longest the gate waits for a site to accept a connection."""
_HOP_HEADERS = ("proxy-connection", "connection", "keep-alive", "proxy-authorization")
_CHUNK = 65_536


@dataclass(frozen=True, slots=True)
class Refusal:
    """One request the gate refused: where to, with which code, and why."""

    host: str
    port: int
    code: str
    why: str
    url: str


def _host_port(target: str, default: int) -> tuple[str, int]:
    host, sep, port = target.rpartition(":")
    if not sep or "]" in port:
        return target.strip("[]"), default
    return host.strip("[]"), int(port)


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class Gate:
    """The proxy of one session: ``await start()`` gives its address; ``close()`` ends it.

    ``on_refused`` (settable later) hears of every refusal as it happens.
    """

    def __init__(
        self,
        origins: tuple[str, ...],
        allow_private: bool,
        on_refused: Callable[[Refusal], None] | None = None,
    ) -> None:
        self.origins = origins
        self.allow_private = allow_private
        self.on_refused = on_refused
        self._server: asyncio.Server | None = None
        self._clients: set[asyncio.Task[None]] = set()

    async def start(self) -> str:
        """Listen on a free loopback port; the proxy's address for the browser."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        """Stop listening and cut every connection (idempotent)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for task in list(self._clients):
            task.cancel()
        await asyncio.gather(*self._clients, return_exceptions=True)

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.create_task(self._serve(reader, writer))
        self._clients.add(task)
        task.add_done_callback(self._clients.discard)

    def _judge_origin(self, scheme: str | None, host: str, port: int) -> str | None:
        if not self.origins:
            return None
        schemes = (scheme,) if scheme else ("https", "http")
        if any(origin_allowed(f"{s}://{_shown(host)}:{port}/", self.origins) for s in schemes):
            return None
        return "it is outside the task's origins"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream: asyncio.StreamWriter | None = None
        try:
            async with asyncio.timeout(HEAD_TIMEOUT_S):
                head = await reader.readuntil(b"\r\n\r\n")
            line, *headers = head.decode("latin-1").split("\r\n")
            method, target, version = line.split(" ", 2)
            if method.upper() == "CONNECT":
                scheme: str | None = None
                host, port = _host_port(target, 443)
                rest = ""
            else:
                parts = urlsplit(target)
                scheme = parts.scheme.lower()
                if scheme != "http" or not parts.hostname:
                    await self._answer(writer, 400, "gofer's gate takes http addresses only")
                    return
                host, port = parts.hostname, parts.port or 80
                path = parts.path or "/"
                if parts.query:
                    path += "?" + parts.query
                kept = [
                    h
                    for h in headers
                    if h and h.split(":", 1)[0].strip().lower() not in _HOP_HEADERS
                ]
                rest = "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close"])
                rest += "\r\n\r\n"
            refused = self._judge_origin(scheme, host, port)
            code = "BLOCKED_ORIGIN"
            addresses: tuple[str, ...] = ()
            if refused is None:
                resolved = await resolve(host, port, self.allow_private)
                refused, addresses, code = resolved.refusal, resolved.addresses, "BLOCKED_ADDRESS"
            if refused is not None:
                shown = f"{_shown(host)}:{port}"
                url = target if scheme else f"https://{shown}"
                if self.on_refused is not None:
                    self.on_refused(Refusal(host.lower(), port, code, refused, url))
                await self._answer(writer, 403, f"gofer refused {_shown(host)}:{port} ({code})")
                return
            up_reader, upstream = await self._connect(addresses, port)
            if up_reader is None or upstream is None:
                await self._answer(writer, 502, f"could not connect to {_shown(host)}:{port}")
                return
            if scheme is None:
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                upstream.write(rest.encode("latin-1"))
            sending = asyncio.create_task(_pipe(reader, upstream))
            try:
                await _pipe(up_reader, writer)
            finally:
                sending.cancel()
                await asyncio.gather(sending, return_exceptions=True)
        except (
            OSError,
            ValueError,
            TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
        ):
            return
        finally:
            for w in (upstream, writer):
                if w is not None:
                    w.close()

    async def _connect(
        self, addresses: tuple[str, ...], port: int
    ) -> tuple[asyncio.StreamReader | None, asyncio.StreamWriter | None]:
        for address in addresses:
            try:
                async with asyncio.timeout(CONNECT_TIMEOUT_S):
                    return await asyncio.open_connection(address, port)
            except (OSError, TimeoutError):
                continue
        return None, None

    @staticmethod
    async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
        body = (text + "\n").encode()
        reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
        writer.write(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        with contextlib.suppress(OSError):
            await writer.drain()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy ``reader`` to ``writer`` until either side ends; then end the writing side."""
    try:
        while chunk := await reader.read(_CHUNK):
            writer.write(chunk)
            await writer.drain()
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            if writer.can_write_eof():
                writer.write_eof()
