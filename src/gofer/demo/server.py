"""Running the demo site: inside the caller's event loop, or as a blocking command."""

from __future__ import annotations

from datetime import date
from types import TracebackType
from typing import Any

import uvicorn
from starlette.applications import Starlette

from gofer.demo.app import create_app, demo_state
from gofer.demo.state import DemoState
from gofer.errors import GoferError
from gofer.serving import Listening

__all__ = ["DemoServer", "DemoSiteError", "serve"]


class DemoSiteError(GoferError):
    """The demo site could not start or stopped unexpectedly."""

    code = "DEMO_SITE_FAILED"


class DemoServer:
    """The demo site served on 127.0.0.1 in the current event loop.

    ``async with DemoServer(seed=7) as site:`` starts it on a free port (``port=0``);
    ``site.url`` is ``http://127.0.0.1:PORT/`` and ``site.events`` lists what the
    site recorded (``{"kind": "payment", ...}`` when "Pay now" was pressed).
    """

    def __init__(
        self,
        *,
        seed: int = 7,
        today: date | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        app: Starlette | None = None,
    ) -> None:
        self.app = app if app is not None else create_app(seed, today=today)
        self.host = host
        self.port = port
        self._listening: Listening | None = None

    @property
    def url(self) -> str:
        """The site's home page address, ``http://127.0.0.1:PORT/``."""
        if self._listening is None:
            raise DemoSiteError("the demo site is not running", url=None)
        return f"http://{self.host}:{self.port}/"

    @property
    def state(self) -> DemoState:
        """Everything the site remembers (events, the one-time code)."""
        return demo_state(self.app)

    @property
    def events(self) -> list[dict[str, Any]]:
        """A copy of the events the site recorded, oldest first."""
        return [dict(event) for event in self.state.events]

    @property
    def otp_code(self) -> str:
        """The one-time code the ``otp`` variant expects."""
        return self.state.otp_code

    def events_of(self, kind: str) -> list[dict[str, Any]]:
        """The recorded events of one kind (``"payment"``, ``"passengers"``, ...)."""
        return [dict(event) for event in self.state.of_kind(kind)]

    async def start(self) -> None:
        """Bind the port and wait until the site accepts connections."""
        listening = Listening(
            self.app, host=self.host, port=self.port, name="the demo site", failure=DemoSiteError
        )
        await listening.start()
        self._listening, self.port = listening, listening.port

    async def stop(self) -> None:
        """Stop serving and wait for the server to finish."""
        listening, self._listening = self._listening, None
        if listening is not None:
            await listening.stop()

    async def __aenter__(self) -> DemoServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


def serve(host: str = "127.0.0.1", port: int = 8765, seed: int = 7) -> None:
    """Serve the demo site until interrupted (what ``gofer demo-site`` runs)."""
    print(f"SkyLark demo airline on http://{host}:{port}/ (seed {seed}); Ctrl+C stops it.")
    uvicorn.run(create_app(seed), host=host, port=port, log_level="warning")
