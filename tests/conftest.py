"""Suite-wide guards for language models.

* No test sends a request to a real model: only loopback endpoints (the scripted
  :class:`~gofer.models.ChatServer`) are let through.
* Every request body any test's ``chat_server`` received is kept, and at the end of
  the session none may hold a canary value that a test registered with ``canary``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from gofer.models import ChatServer, set_model_requests
from gofer.store import Connector, MemoryConnector
from gofer.store.sqlite import SQLiteConnector

SENT: list[str] = []
CANARIES: set[str] = set()


@pytest.fixture(scope="session", autouse=True)
def _models_stay_local() -> Iterator[None]:
    old = set_model_requests("local")
    yield
    set_model_requests(old)
    leaked = sorted({c for c in CANARIES for body in SENT if c in body})
    assert not leaked, f"fact values reached a model request: {len(leaked)} canaries"


@pytest.fixture
def canary() -> Callable[[str], str]:
    """Register a fact value that must never reach a model; returns it."""

    def register(value: str) -> str:
        CANARIES.add(value)
        return value

    return register


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """A scripted OpenAI-compatible server on loopback; its bodies join the canary check."""
    with ChatServer(observer=SENT.append) as server:
        yield server


# the durable store ---------------------------------------------------------------

STORES = ["memory", "sqlite"]


@pytest.fixture(params=STORES)
def store_kind(request: pytest.FixtureRequest) -> str:
    """Which store implementation a store test runs on."""
    return str(request.param)


@pytest.fixture
def store_url(store_kind: str, tmp_path: Path) -> str:
    """Where ``store_kind``'s fresh database for this test is."""
    if store_kind == "sqlite":
        return str(tmp_path / "gofer.db")
    return ""


@pytest.fixture
async def db(store_kind: str, store_url: str) -> AsyncIterator[Connector]:
    """An open connector on a fresh, empty database of ``store_kind``."""
    async with open_store(store_kind, store_url) as connector:
        yield connector


@pytest.fixture
async def other(db: Connector, store_kind: str, store_url: str) -> AsyncIterator[Connector]:
    """A second connector on ``db``'s database (``db`` itself in memory)."""
    if isinstance(db, MemoryConnector):
        yield db
        return
    async with open_store(store_kind, store_url) as connector:
        yield connector


@asynccontextmanager
async def open_store(kind: str, url: str) -> AsyncIterator[Connector]:
    """An open connector of ``kind`` on ``url``."""
    connector: Connector
    if kind == "memory":
        connector = MemoryConnector()
    elif kind == "sqlite":
        connector = SQLiteConnector(url)
    else:
        raise ValueError(kind)
    async with connector:
        yield connector
