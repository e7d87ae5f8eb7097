"""The ``gofer`` commands of a server and its callers: ``serve``, ``token``, and
``start``, ``await``, ``continue``, ``cancel``, ``report``, ``list`` (and ``describe
--server``) against a server, plus ``demo`` through a server.

An entry point like :mod:`gofer.cli`: the configuration it reads comes from there.
People watching get live progress (rich); ``--json`` prints one JSON object a program
can read.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import ssl
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn

from gofer.api import GoferClient, GoferServer, MemoryTokenStore
from gofer.api.hardening import quiet
from gofer.api.relay import DEFAULT_LIVE_ADDRESS, LiveEndpoint, parse_live_address
from gofer.cli_terminal import ask_at_terminal, print_details
from gofer.config import GoferConfig
from gofer.errors import InvalidRequest
from gofer.store import Tokens
from gofer.tasks import (
    DEFAULT_LIST_LIMIT,
    DRAIN_S,
    MAX_LIST_LIMIT,
    TURNS_PER_PROCESS,
    Checkpoint,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    Running,
    StartTaskRequest,
    TaskReport,
    Tasks,
    TaskView,
    TurnLimits,
    safe_filename,
)
from gofer.wiring import freeze_startup, open_gofer, store_for

__all__ = [
    "REMOTE_COMMANDS",
    "RUNNING_EXIT",
    "add_commands",
    "file_args",
    "follow_remote",
    "paging",
    "run_command",
    "say_more",
]

log = logging.getLogger("gofer.cli")

REMOTE_COMMANDS = ("start", "await", "continue", "cancel", "report", "list")
"""The commands that call a server (``--server URL``, token from ``GOFER_TOKEN``)."""

RUNNING_EXIT = 10
"""``gofer start`` and ``gofer await``'s exit code for a task still running when they
stopped waiting; ``continue`` and ``cancel`` exit 0 once the server took the call."""

DEFAULT_PORT = 8700
"""Where ``gofer serve`` listens unless told otherwise."""

Exit = Callable[[TaskView], int]


# ------------------------------------------------------------------ parser


def _remote(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        metavar="URL",
        help="the gofer server (default: $GOFER_SERVER); the token comes from $GOFER_TOKEN",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def add_drain_option(parser: argparse.ArgumentParser) -> None:
    """``--drain-seconds``: how a stopping ``serve`` or ``worker`` lets its turns end."""
    parser.add_argument(
        "--drain-seconds",
        type=float,
        default=DRAIN_S,
        metavar="S",
        help="seconds the turns running at SIGTERM or SIGINT get to reach their stop "
        "before they go back on the queue (default %(default)s; 0, or a second signal, "
        "cuts at once)",
    )


def add_live_option(parser: argparse.ArgumentParser) -> None:
    """``--live-address``: where a ``serve`` or ``worker`` serves its held browsers'
    live views to the other servers."""
    parser.add_argument(
        "--live-address",
        metavar="HOST:PORT",
        help="where the live views of the browsers this process holds for a person are "
        "served to the other gofer servers, which relay them to people on their pages "
        f"(GOFER_LIVE_ADDRESS; default {DEFAULT_LIVE_ADDRESS}: the servers of this machine; "
        "give a private address the other machines reach)",
    )


def live_endpoint(args: argparse.Namespace, config: GoferConfig, tasks: Tasks) -> LiveEndpoint:
    """The live endpoint ``--live-address`` (else GOFER_LIVE_ADDRESS) names, over TLS
    with GOFER_LIVE_CERT and GOFER_LIVE_KEY; the holders it relays to are checked
    against GOFER_LIVE_CA (else the system's authorities)."""
    text = args.live_address or config.live_address or DEFAULT_LIVE_ADDRESS
    if (config.live_cert is None) != (config.live_key is None):
        raise InvalidRequest("GOFER_LIVE_CERT and GOFER_LIVE_KEY go together: set both")
    tls = (config.live_cert, config.live_key) if config.live_cert and config.live_key else None
    if config.live_ca is not None:
        tasks.relay.trust(ssl.create_default_context(cafile=config.live_ca))
    return LiveEndpoint(tasks, *parse_live_address(text), tls=tls)


def add_commands(sub: Any, add_task_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``serve``, ``token`` and the remote commands to the ``gofer`` parser."""
    serve = sub.add_parser(
        "serve",
        help="serve the HTTP API, MCP and the task pages, and run the tasks",
        description="Serve the HTTP API (/v1), MCP over streamable HTTP (/mcp) and the "
        "task pages, and run the tasks' turns. Callers need a bearer token from `gofer "
        "token create` (kept in GOFER_TOKENS). With --stdio it serves MCP on standard "
        "input and output instead, and opens no HTTP port unless --port is given. It "
        "prints the address it listens on to standard error.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"the HTTP port (default {DEFAULT_PORT}; 0 picks a free one, and the port "
        "bound is printed; with --stdio, no HTTP port unless given)",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="where people reach the server (task page links use it; default: the "
        "listening address)",
    )
    serve.add_argument(
        "--stdio",
        action="store_true",
        help="serve MCP on standard input and output (until it closes), as an MCP host "
        "that starts gofer itself expects",
    )
    serve.add_argument(
        "--local-owner",
        default="local",
        help="whose tasks MCP over stdio works on (default: local; no token needed)",
    )
    serve.add_argument(
        "--allow-private",
        action="store_true",
        help="let tasks' browsers load loopback, private and metadata addresses "
        "(GOFER_ALLOW_PRIVATE=1); refused by default",
    )
    serve.add_argument(
        "--browser-endpoint",
        metavar="URL",
        help="run every task of this process in the remote Chromium at this DevTools "
        "address (http://host:port, ws:// or wss://; GOFER_BROWSER_ENDPOINT): one connection "
        "shared, a fresh browser context per task, connected again when it drops",
    )
    serve.add_argument(
        "--per-process",
        type=int,
        default=TURNS_PER_PROCESS,
        metavar="N",
        help="turns this server runs at once (default %(default)s; 0: none, the turns are "
        "left to `gofer worker` processes on the same GOFER_DB)",
    )
    add_drain_option(serve)
    add_live_option(serve)

    token = sub.add_parser(
        "token",
        help="make, list or revoke bearer tokens",
        description="Manage the bearer tokens `gofer serve` accepts (kept in GOFER_TOKENS); "
        "each names the owner whose tasks it works on.",
    )
    tokens = token.add_subparsers(dest="token_command", required=True, metavar="ACTION")
    create = tokens.add_parser("create", help="make a token for an owner (shown once)")
    create.add_argument("--owner", default="local", help="whose tasks it works on")
    create.add_argument("--label", default="", help="a note to tell tokens apart")
    create.add_argument("--json", action="store_true", help="print {token, id, owner} as JSON")
    listing = tokens.add_parser("list", help="list tokens (never the tokens themselves)")
    listing.add_argument("--json", action="store_true", help="print the list as JSON")
    revoke = tokens.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("id", help="the token's id, from `gofer token list`")

    start = sub.add_parser("start", help="start a task on a server and follow it")
    add_task_options(start)
    start.add_argument("--title", help="what to call the task in its list")
    start.add_argument("--no-wait", action="store_true", help="print the first view and exit")
    start.add_argument(
        "--idempotency-key",
        metavar="KEY",
        help="a retried start with the same key opens no second task",
    )
    _remote(start)

    wait = sub.add_parser("await", help="wait for a task to stop running")
    wait.add_argument("id", help="the task's id")
    wait.add_argument(
        "--timeout-ms",
        type=int,
        default=60_000,
        help="how long to wait, in ms (larger values are capped at 60000)",
    )
    _remote(wait)

    go_on = sub.add_parser("continue", help="answer a paused task")
    go_on.add_argument("id", help="the task's id")
    go_on.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a value the task asked for (repeatable)",
    )
    go_on.add_argument(
        "--secret-input",
        action="append",
        default=[],
        metavar="NAME",
        help="a name among the inputs to keep secret",
    )
    choice = go_on.add_mutually_exclusive_group()
    choice.add_argument(
        "--approve", action="store_true", help="press the control the task waits in front of"
    )
    choice.add_argument("--decline", action="store_true", help="refuse it: cancels the task")
    go_on.add_argument(
        "--approval-id",
        metavar="ID",
        help="the approval_id the task's view shows (required with --approve)",
    )
    _remote(go_on)

    for name, what in (
        ("cancel", "cancel a task (at a checkpoint: release its browser, keep the checkpoint)"),
        ("report", "a task's full report"),
    ):
        command = sub.add_parser(name, help=what)
        command.add_argument("id", help="the task's id")
        if name == "report":
            command.add_argument(
                "--files",
                metavar="DIR",
                help="also save the files the task kept and was given into DIR",
            )
        _remote(command)
    listing = sub.add_parser("list", help="your tasks on the server")
    paging(listing)
    _remote(listing)


def paging(command: argparse.ArgumentParser) -> None:
    """``--limit`` and ``--cursor`` of a listing."""
    command.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIST_LIMIT,
        metavar="N",
        help=f"how many tasks (at most {MAX_LIST_LIMIT})",
    )
    command.add_argument("--cursor", help="the next_cursor a listing gave, for the page after it")


def say_more(cursor: str | None) -> None:
    """Tell the person at the terminal how to list the next page, if there is one."""
    if cursor is not None:
        sys.stderr.write(f"more tasks: list them with --cursor {cursor}\n")


# ------------------------------------------------------------------ printing


def _console(out: TextIO) -> Console:
    return Console(file=out, highlight=False, soft_wrap=True)


def print_view(view: TaskView, out: TextIO) -> None:
    """A view for a person: status, summary, the status's details and next calls."""
    _console(out).print(f"[bold]{view.id}[/bold] {view.status.state}: {view.summary}", markup=True)
    print_details(view, out)


def _steps_of(view: TaskView) -> str:
    if view.step is None:
        return view.status.state
    return f"step {view.step.index + 1}: {view.step.intent}"


async def follow_remote(
    client: GoferClient,
    view: TaskView,
    *,
    out: TextIO,
    live: bool,
) -> TaskView:
    """Follow a task's views (SSE) until it stops running, with a progress bar of its
    steps, the current step and the status when ``live``; returns the last view."""
    if not isinstance(view.status, Running):
        return view
    last = view
    if not live:
        async for current in client.watch(view.id):
            last = current
            if not isinstance(current.status, Running):
                break
        return last
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TaskProgressColumn())
    with Progress(*columns, console=_console(out), transient=False) as progress:
        bar = progress.add_task(_steps_of(view), total=100, completed=round(view.progress * 100))
        async for current in client.watch(view.id):
            last = current
            progress.update(
                bar,
                completed=round(current.progress * 100),
                description=f"{current.status.state} · {_steps_of(current)}",
            )
            if not isinstance(current.status, Running):
                break
    return last


# ------------------------------------------------------------------ commands


def _server(args: argparse.Namespace, config: GoferConfig) -> str:
    url = getattr(args, "server", None) or config.server
    if not url:
        raise InvalidRequest("say which server: --server URL or GOFER_SERVER")
    return str(url)


async def _ask(client: GoferClient, view: TaskView, stdin: TextIO, out: TextIO) -> TaskView | None:
    """Ask the person at the terminal what the task needs; None when they do not answer."""
    answer = ask_at_terminal(view, stdin, out)
    return None if answer is None else await client.continue_task(answer)


async def _drive(
    client: GoferClient, view: TaskView, *, as_json: bool, interactive: bool
) -> TaskView:
    """Follow the task, answering it at a terminal, until it needs what nobody gives."""
    while True:
        view = await follow_remote(client, view, out=sys.stdout, live=not as_json)
        if not interactive or not isinstance(view.status, NeedsInput | NeedsApproval | NeedsHuman):
            return view
        answered = await _ask(client, view, sys.stdin, sys.stdout)
        if answered is None:
            return view
        view = answered


def _emit(value: Any, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(value.model_dump_json() + "\n")
    elif isinstance(value, TaskView):
        print_view(value, sys.stdout)
    else:
        sys.stdout.write(value.model_dump_json(indent=2) + "\n")


def _create_body(request: StartTaskRequest, title: str | None) -> dict[str, Any]:
    """A person's create (``POST /v1/tasks``) for ``request``, titled ``title``."""
    body = request.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if "task" in body:
        body["instruction"] = body.pop("task")
    return body | ({"title": title} if title else {})


def file_args(pairs: list[str] | None) -> dict[str, Path]:
    """``--file NAME=PATH`` flags as names to paths (INVALID_REQUEST for a malformed
    one, or a path that is no file)."""
    found: dict[str, Path] = {}
    for pair in pairs or []:
        name, sep, path = pair.partition("=")
        if not sep or not name.strip() or not path:
            raise InvalidRequest(f"--file takes NAME=PATH, not {pair[:60]!r}")
        if not Path(path).is_file():
            raise InvalidRequest(f"--file {name.strip()}: there is no file at {path}")
        found[name.strip()] = Path(path)
    return found


def _inputs(pairs: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidRequest(f"--input takes NAME=VALUE, not {name.strip()[:40]!r}")
        found[name.strip()] = value
    return found


async def _save_files(client: GoferClient, report: TaskReport, folder: Path) -> None:
    """Write every file the task holds that its owner may fetch (all but secret ones)
    into ``folder``, under its own name (made safe: no folder of the site's choosing)."""
    folder.mkdir(parents=True, exist_ok=True)
    for info in report.files:
        if info.secret:
            continue
        data = await client.read_file(report.id, info.name)
        target = folder / safe_filename(info.filename)
        target.write_bytes(data)
        sys.stderr.write(f"{info.name}: {target} ({len(data)} bytes)\n")


async def _remote_command(
    args: argparse.Namespace,
    config: GoferConfig,
    request_of: Callable[[argparse.Namespace], StartTaskRequest],
    exit_of: Exit,
) -> int:
    command = args.command
    async with GoferClient(_server(args, config), config.token) as client:
        if command == "start":
            created = _create_body(request_of(args), args.title)
            secret = set(getattr(args, "secret", None) or [])
            for name, path in file_args(getattr(args, "file", None)).items():
                created.setdefault("files", {})[name] = (
                    await client.upload_file(path, secret=name in secret)
                ).id
            view = (await client.create(created, idempotency_key=args.idempotency_key)).view
            if not args.no_wait:
                view = await _drive(
                    client,
                    view,
                    as_json=args.json,
                    interactive=sys.stdin.isatty() and not args.json,
                )
            _emit(view, args.json)
            return RUNNING_EXIT if isinstance(view.status, Running) else exit_of(view)
        if command == "list":
            listed = await client.list_tasks({"limit": args.limit, "cursor": args.cursor})
            if args.json:  # next_cursor only when there is a next page
                page = listed.model_dump(mode="json", exclude={"next_cursor"})
                more = {"next_cursor": listed.next_cursor} if listed.next_cursor else {}
                sys.stdout.write(json.dumps(page | more, ensure_ascii=False) + "\n")
            for listed_view in [] if args.json else listed.tasks:
                print_view(listed_view, sys.stdout)
            if not args.json:
                say_more(listed.next_cursor)
            return 0
        if command == "report":
            report = await client.task_report({"id": args.id})
            if args.files:
                await _save_files(client, report, Path(args.files))
            _emit(report, True)
            return 0
        if command == "await":
            view = await client.await_task({"id": args.id, "timeout_ms": args.timeout_ms})
            _emit(view, args.json)
            return RUNNING_EXIT if isinstance(view.status, Running) else exit_of(view)
        if command == "continue":
            body: dict[str, Any] = {
                "id": args.id,
                "inputs": _inputs(args.input),
                "secret_inputs": list(args.secret_input),
            }
            if args.approve or args.decline:
                body["approve"] = bool(args.approve)
                body["approval_id"] = args.approval_id
            view = await client.continue_task(body)
        else:
            view = await client.cancel_task({"id": args.id})
        _emit(view, args.json)
        return 0


async def _token_command(args: argparse.Namespace, config: GoferConfig) -> int:
    assert config.tokens is not None
    async with store_for(config.tokens) as db:
        store = Tokens(db)
        if args.token_command == "create":
            issued = await store.create(args.owner, args.label)
            if args.json:
                sys.stdout.write(
                    json.dumps(
                        {"token": issued.token, "id": issued.info.id, "owner": issued.info.owner}
                    )
                    + "\n"
                )
            else:
                sys.stdout.write(f"{issued.token}\n")
                sys.stderr.write(
                    f"token {issued.info.id} for {issued.info.owner}; it is shown "
                    "only now: keep it (export GOFER_TOKEN=...)\n"
                )
            return 0
        if args.token_command == "list":
            rows = [
                {
                    "id": t.id,
                    "owner": t.owner,
                    "label": t.label,
                    "created_at": t.created_at,
                    "revoked_at": t.revoked_at,
                }
                for t in await store.list()
            ]
            if args.json:
                sys.stdout.write(json.dumps(rows) + "\n")
            else:
                for row in rows:
                    state = "revoked" if row["revoked_at"] else "live"
                    sys.stdout.write(f"{row['id']} {row['owner']} {state} {row['label']}\n")
            return 0
        if not await store.revoke(args.id):
            raise InvalidRequest(f"no live token has the id {args.id!r}", code="UNKNOWN_TOKEN")
        return 0


async def _serve(args: argparse.Namespace, config: GoferConfig) -> int:
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # An exception's message may quote a request (a fact's value): every line the
    # server logs keeps its type and frames only.
    quiet(*logging.getLogger().handlers)
    assert config.tokens is not None
    if args.per_process < 0:
        raise InvalidRequest("--per-process is a number of turns, 0 or more")
    http = not args.stdio or args.port is not None
    async with (
        store_for(config.tokens) as token_db,
        open_gofer(
            config,
            source="server",
            work=args.per_process > 0,
            limits=TurnLimits(per_process=max(1, args.per_process)),
            policy=config.browser_policy(
                operator=False,
                allow_private=args.allow_private,
                browser_endpoint=args.browser_endpoint,
            ),
        ) as gofer,
        GoferServer(
            gofer.tasks,
            Tokens(token_db),
            store=gofer.store,
            host=args.host,
            port=DEFAULT_PORT if args.port is None else args.port,
            listen=http,
            public_url=args.public_url,
            local_owner=args.local_owner,
        ) as server,
        live_endpoint(args, config, gofer.tasks) as live,
    ):
        freeze_startup()
        if http:
            sys.stderr.write(
                f"gofer serving on {server.url} (HTTP API under /v1, OpenAPI at "
                f"/openapi.json, MCP at /mcp)\n"
            )
            sys.stderr.write(
                f"your tasks' pages: {server.page_url('').rstrip('/')} (sign in "
                "with a token from `gofer token create`)\n"
            )
        else:
            sys.stderr.write("gofer serving MCP on stdio (no HTTP port: give --port for one)\n")
        sys.stderr.write(
            f"live views of the browsers it holds, for the other servers: {live.address}\n"
        )
        sys.stderr.flush()
        loop = asyncio.get_running_loop()
        cut = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(
                    sig, lambda: cut.set() if server.stopped.is_set() else server.stop()
                )
        # A worker that dies stops the server: it would accept tasks it never runs.
        died = asyncio.create_task(gofer.tasks.worker.died.wait(), name="gofer-worker-died")
        died.add_done_callback(lambda _t: server.stop())
        if args.stdio:
            stdio = asyncio.create_task(server.run_stdio(), name="gofer-mcp-stdio")
            stopped = asyncio.create_task(server.stopped.wait())
            await asyncio.wait({stdio, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not stdio.done():
                stdio.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stdio
        else:
            await server.stopped.wait()
        died.cancel()
        # Stop claiming before HTTP shuts down; turns running get their grace.
        await gofer.tasks.drain(args.drain_seconds, cut)
        gofer.tasks.check_healthy()
    return 0


async def _demo(
    args: argparse.Namespace,
    config: GoferConfig,
    start: Callable[[str], dict[str, Any]],
    exit_of: Exit,
) -> int:
    """The README's main job through a server: the demo airline, ``gofer serve``'s parts
    on a free port, and the booking handed to it over HTTP."""
    from gofer.demo import DemoServer

    tokens = MemoryTokenStore()
    token = (await tokens.create("demo", "gofer demo")).token
    async with (
        DemoServer(seed=args.seed) as site,
        open_gofer(
            config,
            source="demo",
            durable=False,
            models=False,
            policy=config.browser_policy(operator=True),
        ) as gofer,
        GoferServer(gofer.tasks, tokens) as server,
        GoferClient(server.url, token) as client,
    ):
        url = site.url + (f"?variant={args.variant}" if args.variant else "")
        sys.stdout.write(
            f"The demo airline is at {site.url}\n"
            f"gofer is serving at {server.url} (OpenAPI at /openapi.json, MCP "
            "at /mcp); the booking goes to it over HTTP.\n"
        )
        body = start(url) | {"title": "Book the cheapest Delhi–Srinagar flight on 14 October"}
        view = (await client.create(body)).view
        view = await _drive(client, view, as_json=False, interactive=sys.stdin.isatty())
        print_view(view, sys.stdout)
        report = await client.task_report({"id": view.id})
        sys.stdout.write(f"Records: {json.dumps(report.records, ensure_ascii=False)}\n")
        paid = site.events_of("payment")
        sys.stdout.write(f"Payments made on the site: {len(paid)}\n")
        if args.headed and sys.stdin.isatty() and isinstance(view.status, Checkpoint):
            sys.stdout.write(
                "The browser stays open on the payment page; press Enter to close it. "
            )
            sys.stdout.flush()
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    return 0 if isinstance(view.status, Checkpoint) and not paid else 1


def run_command(
    args: argparse.Namespace,
    config: GoferConfig,
    *,
    request_of: Callable[[argparse.Namespace], StartTaskRequest],
    exit_of: Exit,
    demo_start: Callable[[str], dict[str, Any]],
) -> int | None:
    """Run ``args.command`` if it is one of this module's; None when it is not."""
    work: Coroutine[Any, Any, int]
    if args.command == "serve":
        work = _serve(args, config)
    elif args.command == "token":
        return asyncio.run(_token_command(args, config))
    elif args.command in REMOTE_COMMANDS:
        work = _remote_command(args, config, request_of, exit_of)
    elif args.command == "demo":
        work = _demo(args, config, demo_start, exit_of)
    else:
        return None
    return asyncio.run(work)
