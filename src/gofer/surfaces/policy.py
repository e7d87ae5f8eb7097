"""What the operator lets every browser session reach and how the browser runs.

One :class:`BrowserPolicy` is made at an entry point (``gofer serve``, ``gofer
worker``, ``gofer run``) and handed to the :class:`~gofer.surfaces.BrowserEngine`
and the task runner; nothing below reads the environment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from gofer.errors import SurfaceError

__all__ = ["OPERATOR", "BrowserPolicy", "SandboxChoice", "check_endpoint", "shown"]

_SCHEMES = ("http", "https", "ws", "wss")

SandboxChoice = Literal["auto", "off"]
"""``auto``: keep Chromium's sandbox on, or (as root, where it cannot be) run the
browser as ``browser_user``; ``off``: the operator chose to run without it."""


@dataclass(frozen=True, slots=True)
class BrowserPolicy:
    """The operator's settings for the task browsers.

    ``allow_private``: loopback, link-local, private-range and cloud-metadata
    addresses may be loaded (refused by default, judged after resolving the name).
    ``browser_endpoints``: the DevTools endpoints a task may attach to (None: any,
    for an operator running their own tasks; empty: none). ``sandbox`` and
    ``browser_user`` choose how Chromium is launched (see
    :func:`gofer.surfaces.chromium.launch_plan`). ``remote``: the DevTools endpoint of
    a Chromium elsewhere (a fleet's) that every session of the process runs in instead
    of a launched one; the operator's own, so it needs no ``browser_endpoints`` entry.
    """

    allow_private: bool = False
    browser_endpoints: frozenset[str] | None = frozenset()
    sandbox: SandboxChoice = "auto"
    browser_user: str | None = None
    remote: str | None = None

    def endpoint_allowed(self, endpoint: str) -> bool:
        """Whether a task may attach to the browser at ``endpoint``."""
        if self.browser_endpoints is None:
            return True
        return endpoint.strip().rstrip("/") in {e.rstrip("/") for e in self.browser_endpoints}


OPERATOR = BrowserPolicy(allow_private=True, browser_endpoints=None)
"""The policy where the caller is the operator (``gofer run``, ``gofer demo``): any
address and any endpoint the operator names."""


def shown(endpoint: str) -> str:
    """The endpoint as logs and messages may show it: no user, password or query (a
    fleet's token often rides there)."""
    parts = urlsplit(endpoint.strip())
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def check_endpoint(endpoint: str) -> str:
    """``endpoint`` if it is a DevTools address (http, https, ws or wss with a host),
    else ``BROWSER_ENDPOINT_INVALID``."""
    value = endpoint.strip()
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 -- a port out of range raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in _SCHEMES or not parts.hostname:
        raise SurfaceError(
            "the browser endpoint must be a DevTools address: http://host:port, or a "
            "ws:// or wss:// address",
            code="BROWSER_ENDPOINT_INVALID",
        )
    return value
