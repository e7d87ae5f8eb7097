"""Suite-wide guards for language models.

* No test sends a request to a real model: only loopback endpoints (the scripted
  :class:`~gofer.models.ChatServer`) are let through.
* Every request body any test's ``chat_server`` received is kept (the CLI's
  subprocesses' too: they talk to the same server), and at the end of the session
  none may hold a canary value that a test registered with ``canary``: not as sent,
  not once its JSON escapes are read, and not written another way the fact matcher
  knows (a card number without its spaces, a phone number grouped differently).
* Everything the faces served (HTTP bodies, SSE events, MCP messages, server log
  lines) that a test added to ``SERVED`` (the ``served`` fixture) is held to the same
  rule: no canary in any of it.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import pytest_asyncio

from gofer.facts import Facts
from gofer.models import ChatServer, set_model_requests
from gofer.store import Connector, MemoryConnector, SecretBox
from gofer.store.postgres import PostgresConnector
from gofer.store.sqlite import SQLiteConnector

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytest_plugins = ["timelimit", "corpus_tally"]

SENT: list[str] = []
SERVED: list[str] = []
CANARIES: set[str] = set()


@pytest.fixture(scope="session", autouse=True)
def _models_stay_local() -> Iterator[None]:
    old = set_model_requests("local")
    yield
    set_model_requests(old)
    leaked = canary_leaks(SENT, CANARIES)
    assert not leaked, (
        f"fact values reached a model request: {len(leaked)} of "
        f"{len(CANARIES)} canaries, in {len(SENT)} request bodies"
    )
    shown = canary_leaks(SERVED, CANARIES)
    assert not shown, (
        f"fact values reached what a face served: {len(shown)} of "
        f"{len(CANARIES)} canaries, in {len(SERVED)} bodies, events and lines"
    )


def canary_leaks(bodies: list[str], canaries: set[str]) -> list[str]:
    """The canaries found in ``bodies``, as sent or as their JSON reads, in any of the
    spellings the fact matcher recognises."""
    if not canaries:
        return []
    names = {f"canary {i}": value for i, value in enumerate(sorted(canaries))}
    facts = Facts(names, secret=list(names))
    found: set[str] = set()
    for body in bodies:
        texts = [body]
        with suppress(json.JSONDecodeError):
            texts.append(json.dumps(json.loads(body), ensure_ascii=False))
        for text in texts:
            found.update(value for value in canaries if value in text)
            found.update(names[name] for name in facts.leaks(text))
    return sorted(found)


@pytest.fixture
def find_canaries() -> Callable[[list[str], set[str]], list[str]]:
    """The suite's canary check, for testing the check itself."""
    return canary_leaks


@pytest.fixture(autouse=True)
def _gofer_db(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``gofer`` command a test starts stores its tasks in a file of the test's
    own, never in the user's data directory."""
    if "GOFER_DB" not in os.environ:
        monkeypatch.setenv("GOFER_DB", str(tmp_path_factory.mktemp("db") / "gofer.db"))


@pytest.fixture(scope="session")
def served() -> Callable[[str | bytes], None]:
    """Add what a face served (a body, an event, a message, a log line) to the suite's
    canary check."""

    def add(text: str | bytes) -> None:
        SERVED.append(text.decode("utf-8", "replace") if isinstance(text, bytes) else text)

    return add


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

STORES = ["memory", "sqlite", "postgres"]


def pg_admin_url() -> str:
    """The test PostgreSQL server's URL (``./dev test`` starts one and exports it).

    Without one, PostgreSQL tests are skipped on a developer's machine but fail in CI
    (``CI`` set), where the server is always started."""
    url = os.environ.get("GOFER_TEST_PG_URL", "")
    if not url:
        if os.environ.get("CI"):
            pytest.fail(
                "GOFER_TEST_PG_URL is not set: CI must run ./dev test, which starts PostgreSQL"
            )
        pytest.skip("GOFER_TEST_PG_URL is not set (./dev test starts PostgreSQL)")
    return url


_PG_TEST_DB = "gofer_tests"


@contextmanager
def fresh_pg_database() -> Iterator[str]:
    """A URL to a new, empty schema of the test server's ``gofer_tests`` database (the
    URL sets its search_path), dropped after the block: a schema is made in
    milliseconds where a database takes a second."""
    admin = pg_admin_url()
    with psycopg.connect(admin, autocommit=True) as conn:
        if (
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (_PG_TEST_DB,)).fetchone()
            is None
        ):
            # another test process may make it between the question and the answer
            with suppress(psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                conn.execute(f'CREATE DATABASE "{_PG_TEST_DB}"')
    base = urlunsplit(urlsplit(admin)._replace(path=f"/{_PG_TEST_DB}", query=""))
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{base}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=STORES)
def store_kind(request: pytest.FixtureRequest) -> str:
    """Which store implementation a store test runs on."""
    return str(request.param)


@pytest.fixture
def store_url(store_kind: str, tmp_path: Path) -> Iterator[str]:
    """Where ``store_kind``'s fresh database for this test is."""
    if store_kind == "postgres":
        with fresh_pg_database() as url:
            yield url
    elif store_kind == "sqlite":
        yield str(tmp_path / "gofer.db")
    else:
        yield ""


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


PG_SECRETS = SecretBox.generate()
"""The key the PostgreSQL stores of this session seal fact values with (a SQLite
store's is the key file beside it)."""


@pytest.fixture
def pg_secrets() -> SecretBox:
    """The key this session's PostgreSQL stores seal fact values with."""
    return PG_SECRETS


@asynccontextmanager
async def open_store(kind: str, url: str) -> AsyncIterator[Connector]:
    """An open connector of ``kind`` on ``url``."""
    connector: Connector
    if kind == "memory":
        connector = MemoryConnector()
    elif kind == "sqlite":
        connector = SQLiteConnector(url)
    elif kind == "postgres":
        connector = PostgresConnector(url, min_size=1, max_size=4, secrets=PG_SECRETS)
    else:
        raise ValueError(kind)
    async with connector:
        yield connector


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL schema on the test server, as a URL."""
    with fresh_pg_database() as url:
        yield url


@pytest.fixture
def other_pg_url() -> Iterator[str]:
    """A second fresh schema beside ``pg_url``'s, in the same database."""
    with fresh_pg_database() as url:
        yield url


@pytest.fixture
def reopen(store_kind: str, store_url: str) -> Callable[[], Any]:
    """Opens ``store_kind``'s database of this test again, as a process after a restart
    would (in memory: one connector for the whole test, which is all there is of it)."""
    memory = MemoryConnector()

    @asynccontextmanager
    async def again() -> AsyncIterator[Connector]:
        if store_kind == "memory":
            yield memory
            return
        async with open_store(store_kind, store_url) as connector:
            yield connector

    return again


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def chromium() -> AsyncIterator[Browser]:
    """A person's browser for the page tests: the system's Chromium, headless, driven by
    Playwright itself (not through gofer), one per module."""
    from playwright.async_api import async_playwright

    from gofer.surfaces import find_chromium

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), headless=True)
        try:
            yield browser
        finally:
            await browser.close()
