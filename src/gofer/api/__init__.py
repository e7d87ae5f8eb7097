"""The faces for agents and programs: an HTTP API with OpenAPI, an MCP server, and
the pieces ``gofer serve`` puts together.

* :func:`create_app` is the HTTP API (FastAPI) over a :class:`TaskService`, which
  wraps any :class:`Controller` (the task controller) with owners, titles,
  idempotency keys and the person's actions.
* :class:`TokenStore` maps bearer tokens to owners, kept hashed
  (in the store, :class:`gofer.store.Tokens`; :class:`MemoryTokenStore` in memory).
* :func:`build_mcp_server` (in :mod:`gofer.api.mcp_server`) is the MCP server, and
  :class:`GoferServer` puts HTTP and MCP together over one controller.
* :class:`PageSite` is the person's task pages (server-rendered HTML, live from the
  event stream), signed in through :class:`PageSessions` with the same tokens (kept
  beside them in the store, :class:`gofer.store.Sessions`).
* :class:`GoferClient` calls a server over HTTP with the controller's own models.
* :class:`Listening` serves an ASGI app inside the running event loop.

It stands on :mod:`gofer.tasks` and never the other way round.
"""

from __future__ import annotations

from gofer.api.agent import AgentView, agent_view
from gofer.api.client import GoferClient
from gofer.api.errors import STATUS, http_status
from gofer.api.http import API_VERSION, create_app
from gofer.api.idempotency import Idempotency
from gofer.api.limits import MAX_BODY_BYTES, BodyLimit
from gofer.api.page_auth import PageSession, PageSessions
from gofer.api.pages import PageSite, TakeOver
from gofer.api.server import MCP_PATH, GoferServer
from gofer.api.service import MAX_STARTS_PER_REQUEST, TaskService, title_for
from gofer.api.tokens import (
    IssuedToken,
    MemoryTokenStore,
    TokenInfo,
    TokenStore,
)
from gofer.api.types import Controller, Owner
from gofer.api.views import (
    CreateTask,
    CreateTasks,
    ErrorBody,
    McpTaskStatus,
    PersonReply,
    TaskEntries,
    TaskEntry,
    TaskList,
    TaskStory,
    mcp_status,
)
from gofer.serving import Listening

__all__ = [
    "API_VERSION",
    "MAX_BODY_BYTES",
    "MAX_STARTS_PER_REQUEST",
    "MCP_PATH",
    "STATUS",
    "AgentView",
    "BodyLimit",
    "Controller",
    "CreateTask",
    "CreateTasks",
    "ErrorBody",
    "GoferClient",
    "GoferServer",
    "Idempotency",
    "IssuedToken",
    "Listening",
    "McpTaskStatus",
    "MemoryTokenStore",
    "Owner",
    "PageSession",
    "PageSessions",
    "PageSite",
    "PersonReply",
    "TakeOver",
    "TaskEntries",
    "TaskEntry",
    "TaskList",
    "TaskService",
    "TaskStory",
    "TokenInfo",
    "TokenStore",
    "agent_view",
    "create_app",
    "http_status",
    "mcp_status",
    "title_for",
]
