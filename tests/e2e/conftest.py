"""Shared fixtures for the end-to-end runtime tests.

One headless Chromium and one demo site serve the whole session; each test runs
its flow in a workspace (its own browser context) of its own. Hand-written test
pages are served by one small local site, each test under paths of its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Page
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer
from gofer.flow import JSONValue, parse_flow
from gofer.runtime import (
    FileLimits,
    ModelDecider,
    RunBudget,
    RunRequest,
    RunResult,
    RuntimeSettings,
    TaskFile,
    Workspace,
    run_flow,
)
from gofer.surfaces import OPERATOR, BrowserEngine, BrowserOptions, BrowserPolicy

from .fleet import Fleet

# Failing tests should not wait the production 8 s for a target that never comes.
FAST = RuntimeSettings(target_timeout_ms=2_500, settle_timeout_ms=5_000, wait_timeout_ms=4_000)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def engine() -> AsyncIterator[BrowserEngine]:
    """One Chromium for the whole session (tests must use the session loop)."""
    async with BrowserEngine(policy=OPERATOR) as eng:
        yield eng


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def demo() -> AsyncIterator[DemoServer]:
    """The SkyLark demo site, seed 7, shared by the session.

    Its events are shared too: a test looks only at the events recorded after it
    started (see :class:`Events`).
    """
    async with DemoServer(seed=7) as server:
        yield server


@dataclass
class Events:
    """The demo events recorded since a test started."""

    server: DemoServer
    start: int = 0

    def all(self) -> list[dict[str, Any]]:
        return self.server.events[self.start :]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.all() if e["kind"] == kind]


@pytest.fixture
def events(demo: DemoServer) -> Events:
    """The demo site's events from this test on."""
    return Events(demo, len(demo.events))


@dataclass
class Pages:
    """A local site of hand-written pages; ``add`` serves HTML at a path."""

    server: DemoServer | None = None
    pages: dict[str, str] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)
    documents: dict[str, Response] = field(default_factory=dict)
    hits: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        assert self.server is not None
        return self.server.url.rstrip("/")

    def add(self, path: str, html: str) -> str:
        """Serve ``html`` (wrapped in a minimal document) at ``path``; returns its address."""
        self.pages[path] = html
        return self.origin + path

    def document(self, path: str, data: bytes, media_type: str, disposition: str = "") -> str:
        """Serve ``data`` as a document of ``media_type`` at ``path`` (with a
        Content-Disposition when given); returns its address."""
        headers = {"Cache-Control": "no-store"}
        if disposition:
            headers["Content-Disposition"] = disposition
        self.documents[path] = Response(data, media_type=media_type, headers=headers)
        return self.origin + path

    def redirect(self, path: str, to: str) -> str:
        """Answer ``path`` with a 302 to ``to``; returns its address."""
        self.redirects[path] = to
        return self.origin + path

    async def endpoint(self, request: Request) -> Response:
        path = request.url.path
        self.hits.append(path)
        if path in self.redirects:
            return Response(status_code=302, headers={"Location": self.redirects[path]})
        if path in self.documents:
            return self.documents[path]
        body = self.pages.get(path)
        if body is None:
            return Response("not found", status_code=404)
        if "<html" not in body:
            body = (
                "<!doctype html><html><head><meta charset='utf-8'><title>"
                f"{path}</title></head><body>{body}</body></html>"
            )
        return HTMLResponse(body, headers={"Cache-Control": "no-store"})


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def pages() -> AsyncIterator[Pages]:
    """One local site for the hand-written pages of every test."""
    site = Pages()
    app = Starlette(routes=[Route("/{path:path}", site.endpoint, methods=["GET", "POST"])])
    async with DemoServer(app=app) as server:
        site.server = server
        yield site


Runner = Callable[..., Awaitable[RunResult]]


@dataclass(frozen=True)
class Finished:
    """A run that has ended, with the page it ended on still open."""

    result: RunResult
    page: Page
    """The Playwright page the run was on when it ended, to read the page's own state."""


Opener = Callable[..., AbstractAsyncContextManager[Finished]]


def _request(
    flow: Mapping[str, Any] | list[Any],
    facts: Mapping[str, JSONValue] | None,
    private: frozenset[str],
    mask: Callable[[str], str] | None,
    allow_destructive: bool,
    budget: RunBudget | None,
    files: Mapping[str, TaskFile] | None = None,
    file_limits: FileLimits | None = None,
) -> RunRequest:
    return RunRequest(
        flow=parse_flow(flow),
        variables=dict(facts or {}),
        private=private,
        mask=mask,
        allow_destructive=allow_destructive,
        budget=budget or RunBudget(),
        files=dict(files or {}),
        file_limits=file_limits or FileLimits(),
    )


@pytest.fixture
def run(engine: BrowserEngine) -> Runner:
    """Run a flow (a dict or list) in a fresh workspace and return the result.

    Keyword arguments: ``facts`` (variables), ``private`` and ``mask``,
    ``allow_destructive``, ``budget``, ``origins``, ``settings``, ``decider``.
    """

    async def go(
        flow: Mapping[str, Any] | list[Any],
        *,
        facts: Mapping[str, JSONValue] | None = None,
        private: frozenset[str] = frozenset(),
        mask: Callable[[str], str] | None = None,
        allow_destructive: bool = False,
        budget: RunBudget | None = None,
        origins: tuple[str, ...] = (),
        settings: RuntimeSettings | None = FAST,
        decider: ModelDecider | None = None,
        files: Mapping[str, TaskFile] | None = None,
    ) -> RunResult:
        request = _request(flow, facts, private, mask, allow_destructive, budget, files)
        async with Workspace(engine, BrowserOptions(origins=origins)) as workspace:
            return await run_flow(request, workspace, settings=settings, decider=decider)

    return go


def opener(engine: BrowserEngine) -> Opener:
    """Like ``run``, as ``async with go(flow) as done``: ``done.result`` is the result
    and ``done.page`` the page the run ended on, open until the block ends, so a test
    can read what the page itself holds (field values, texts, what it logged).
    """

    @asynccontextmanager
    async def go(
        flow: Mapping[str, Any] | list[Any],
        *,
        facts: Mapping[str, JSONValue] | None = None,
        private: frozenset[str] = frozenset(),
        mask: Callable[[str], str] | None = None,
        allow_destructive: bool = False,
        budget: RunBudget | None = None,
        origins: tuple[str, ...] = (),
        settings: RuntimeSettings | None = FAST,
        decider: ModelDecider | None = None,
        action_timeout_ms: int | None = None,
        files: Mapping[str, TaskFile] | None = None,
        file_limits: FileLimits | None = None,
    ) -> AsyncIterator[Finished]:
        request = _request(
            flow, facts, private, mask, allow_destructive, budget, files, file_limits
        )
        options = BrowserOptions(origins=origins)
        if action_timeout_ms is not None:
            options = BrowserOptions(origins=origins, default_timeout_ms=action_timeout_ms)
        async with Workspace(engine, options) as workspace:
            result = await run_flow(request, workspace, settings=settings, decider=decider)
            surface = await workspace.browser()
            yield Finished(result, surface.page)

    return go


@pytest.fixture
def run_open(engine: BrowserEngine) -> Opener:
    """:func:`opener` on the session's own Chromium."""
    return opener(engine)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def remote_engine() -> AsyncIterator[BrowserEngine]:
    """An engine whose sessions run in a remote browser over DevTools (the operator's
    ``--browser-endpoint``): a second Chromium, a full browser with a PDF viewer."""
    fleet = Fleet()
    await fleet.start()
    try:
        policy = BrowserPolicy(allow_private=True, remote=fleet.endpoint)
        async with BrowserEngine(policy=policy) as eng:
            yield eng
    finally:
        await fleet.kill()


@pytest.fixture
def remote_open(remote_engine: BrowserEngine) -> Opener:
    """:func:`opener` in the remote browser of :func:`remote_engine`."""
    return opener(remote_engine)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keeps each phase's report on the test, for the fixtures that explain a failure."""
    outcome = yield
    setattr(item, f"report_{call.when}", outcome.get_result())


@pytest.fixture(autouse=True)
def _explain_a_served_failure(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that failed against its module's ``gofer serve`` process (a ``serving``
    with ``logs`` and ``alice``) prints that server's last log lines and the tasks it
    holds: what the server did is then in the report, not a guess."""
    yield
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed or "serving" not in request.fixturenames:
        return
    serving = request.getfixturevalue("serving")
    logs, token = getattr(serving, "logs", None), getattr(serving, "alice", None)
    if logs is None or token is None:
        return
    print("=== the server's last log lines:\n" + "".join(logs[-120:]))
    headers = {"Authorization": f"Bearer {token}"}
    try:
        with httpx.Client(base_url=serving.url, headers=headers, timeout=5) as http:
            listed = http.get("/v1/tasks")
            print(f"=== its tasks: {listed.status_code} {listed.text[:4000]}")
            for task in listed.json().get("tasks", [])[:5]:
                view = http.get(f"/v1/tasks/{task['id']}/report")
                print(f"=== {task['id']}: {view.status_code} {view.text[:6000]}")
    except (httpx.HTTPError, ValueError) as exc:
        print(f"=== the server did not answer: {exc!r}")
