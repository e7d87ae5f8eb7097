"""The live endpoint: where a process that holds paused tasks' browsers serves their
live views to the servers that relay them (take-over from any server).

Every ``gofer serve`` and ``gofer worker`` runs turns, so each may hold a browser
for a person. Each serves one WebSocket route on a private address
(``--live-address``, GOFER_LIVE_ADDRESS; loopback and a free port by default):

=================================  ==================================================
``WS /live/{task_id}``             the task's live view, in the protocol of
                                   :mod:`gofer.api.live_view`, for a relaying server
``POST /live/{task_id}/blocked``   ``{"reason"}``: whether the task's page is still
                                   blocked by that wall, ``{"blocked": words|null}``
                                   (a person pressed "I've done it" on the server)
=================================  ==================================================

A server asked by a person for a task it does not hold finds the holder on the
store's board (:mod:`gofer.tasks.held_board`) and opens this route with two headers: the
owner it checked the person is (``x-gofer-owner``) and a credential signed with the
database's relay key over the task, that owner and the holder's current hold, valid
for 30 s (``x-gofer-relay``). The holder refuses anything else (UNAUTHORIZED), then
runs the owner's checks of a live view again. Nothing but a process with the
database's key can open a view here, so the address needs no other secret; it must
still be one the servers reach and the public does not (a private network).
"""

from __future__ import annotations

import logging
import socket
from types import TracebackType
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from gofer.api.errors import error_body, http_status
from gofer.api.live_view import deny, serve_view
from gofer.api.types import Controller
from gofer.errors import ApiError, GoferError
from gofer.serving import Listening
from gofer.tasks import BLOCKED_PATH, RELAY_CREDENTIAL, RELAY_OWNER, RELAY_PATH, TLS_PREFIX

__all__ = ["DEFAULT_LIVE_ADDRESS", "LiveEndpoint", "live_endpoint_app", "parse_live_address"]

log = logging.getLogger("gofer.api")

DEFAULT_LIVE_ADDRESS = "127.0.0.1:0"
"""Loopback and a free port: the servers of one machine relay to it."""


def parse_live_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for IPv6; port 0 picks a free one), else
    INVALID_REQUEST with code LIVE_ADDRESS_INVALID."""
    host, sep, port = text.strip().rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ApiError(
            f"the live address must be HOST:PORT (such as {DEFAULT_LIVE_ADDRESS}), not {text!r}",
            code="LIVE_ADDRESS_INVALID",
        )
    return host, int(port)


MAX_REASON_CHARS = 200
"""The longest wall reason a server may ask about."""


def live_endpoint_app(controller: Controller) -> Starlette:
    """The live endpoint's routes over ``controller`` (see the module)."""

    async def vouched(connection: HTTPConnection) -> tuple[str, Controller]:
        """The task and its owner's controller, for a server's credential only."""
        task_id = str(connection.path_params["task_id"])
        owner = unquote(connection.headers.get(RELAY_OWNER, ""))
        credential = connection.headers.get(RELAY_CREDENTIAL, "")
        mine = controller.for_owner(owner) if owner else None
        if mine is None or not await mine.relay.allows(task_id, credential):
            raise ApiError(
                "the live endpoint answers a server's relay credential only",
                code="UNAUTHORIZED",
            )
        return task_id, mine

    async def blocked(request: Request) -> JSONResponse:
        try:
            task_id, mine = await vouched(request)
            asked = await request.json()
            reason = asked.get("reason") if isinstance(asked, dict) else None
            if not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS:
                raise ApiError("reason: a wall's reason, as text", code="INVALID_REQUEST")
        except ValueError:
            error = ApiError("the body is not JSON", code="INVALID_REQUEST")
            return JSONResponse(error_body(error), status_code=http_status(error))
        except GoferError as exc:
            return JSONResponse(error_body(exc), status_code=http_status(exc))
        return JSONResponse({"blocked": await mine.relay.blocked_here(task_id, reason)})

    async def relayed(websocket: WebSocket) -> None:
        try:
            task_id, mine = await vouched(websocket)
            view = await mine.live_view(task_id)
        except GoferError as exc:
            log.info("a relayed live view was refused (%s)", exc.code)
            await deny(websocket, exc)
            return
        await serve_view(websocket, view, task_id)

    return Starlette(
        routes=[
            WebSocketRoute(RELAY_PATH, relayed),
            Route(BLOCKED_PATH, blocked, methods=["POST"]),
        ]
    )


class LiveEndpoint:
    """``controller``'s live endpoint on ``host:port``, offered to the servers of its
    store once it listens (``async with``). ``address`` is what the servers are told:
    the bound host and port, the machine's name for a wildcard host."""

    def __init__(
        self, controller: Controller, host: str, port: int, tls: tuple[str, str] | None = None
    ) -> None:
        self._controller = controller
        self._listening = Listening(
            live_endpoint_app(controller), host=host, port=port, name="the live endpoint", tls=tls
        )
        self._tls = tls is not None
        self.address = ""

    async def __aenter__(self) -> LiveEndpoint:
        await self._listening.start()
        host = self._listening.host
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname()
        self.address = (TLS_PREFIX if self._tls else "") + (
            f"[{host}]:{self._listening.port}" if ":" in host else f"{host}:{self._listening.port}"
        )
        await self._controller.relay.offer(self.address)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._listening.stop()
