"""The ``gofer`` command: describe, run a flow as a task, run a worker, list the tasks,
the bundled demo, and (in :mod:`gofer.cli_remote`) serve, token and the commands that
call a server.

This is an entry point: it alone reads the environment (:func:`config_from_env`)
and hands explicit objects down.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from gofer.api import GoferClient
from gofer.cli_flows import add_flow_commands, flows_command, saved_flow_of
from gofer.cli_remote import (
    add_commands,
    add_drain_option,
    add_live_option,
    file_args,
    live_endpoint,
    paging,
    run_command,
    say_more,
)
from gofer.cli_terminal import ask_at_terminal, print_details
from gofer.config import GoferConfig, config_from_env
from gofer.errors import GoferError, InvalidRequest, invalid_request
from gofer.tasks import (
    LOCAL_OWNER,
    TURNS_PER_OWNER,
    TURNS_PER_PROCESS,
    Checkpoint,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    StartTaskRequest,
    State,
    Tasks,
    TaskView,
    TurnLimits,
)
from gofer.wiring import freeze_startup, open_gofer

__all__ = ["EXIT_CODES", "main"]

EXIT_CODES: dict[str, int] = {
    State.DONE: 0,
    "refused": 2,
    State.FAILED: 3,
    State.CANCELLED: 4,
    State.CHECKPOINT: 5,
    State.NEEDS_INPUT: 6,
    State.NEEDS_APPROVAL: 7,
    State.NEEDS_HUMAN: 8,
    State.NEEDS_PLAN: 9,
}
"""``gofer run``'s exit code for each final state (``refused``: the request was invalid)."""

DEMO_FACTS = {
    "first name": "Asha",
    "last name": "Raina",
    "email": "asha@example.com",
    "mobile number": "9876543210",
}


def demo_flow(url: str) -> dict[str, Any]:
    """The seeds' booking job on the demo airline, as a flow."""
    return {
        "vars": {"cheapest": ""},
        "steps": [
            {"browse": url},
            {"choose": "Delhi", "in": "From"},
            {"choose": "Srinagar", "in": "To"},
            {"choose": "14 October", "in": "Departure date"},
            {"click": "Search flights"},
            {"choose": "Lowest price", "in": "Sort by"},
            {"read": "the first result: airline, departure time and price", "as": "cheapest"},
            {"click": "Select", "within": "the first result"},
            {"click": "Select", "within": "Economy"},
            {"enter": "${first name}", "into": "First name"},
            {"enter": "${last name}", "into": "Last name"},
            {"enter": "${email}", "into": "Email"},
            {"enter": "${mobile number}", "into": "Mobile number"},
            {"click": "Continue"},
            {"if": {"shows": "Add extras"}, "then": [{"click": "No thanks"}]},
            {"stop_before": "paying for the booking"},
        ],
    }


# ------------------------------------------------------------------ printing


def _exit_code(view: TaskView) -> int:
    """The exit code for a task that stopped in ``view``."""
    return EXIT_CODES.get(view.status.state, 3)


def _line(view: TaskView) -> str:
    progress = f"{round(view.progress * 100):>3}%"
    return f"{view.id} {view.status.state:<15} {progress} {view.summary}"


def _print_final(view: TaskView, as_json: bool, out: TextIO) -> None:
    if as_json:
        out.write(view.model_dump_json() + "\n")
        return
    print_details(view, out)


# ------------------------------------------------------------------ run


def _load_json(path: str, what: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidRequest(f"cannot read {what} {path}: {exc.strerror}", path=path) from exc
    except json.JSONDecodeError as exc:
        raise InvalidRequest(
            f"{what} {path} is not JSON: {exc.msg} (line {exc.lineno})", path=path
        ) from exc


def _request(args: argparse.Namespace) -> StartTaskRequest:
    facts = _load_json(args.facts, "facts file") if args.facts else {}
    if not isinstance(facts, dict):
        raise InvalidRequest("the facts file must hold a JSON object of name to value")
    data: dict[str, Any] = {
        "facts": facts,
        "secret_facts": list(args.secret or []),
        "constraints": {
            "origins": list(args.origin or []),
            "payment": args.payment,
            "allow_destructive": args.allow_destructive,
            "headed": args.headed,
            "browser_endpoint": args.browser_endpoint,
        },
        "budget": {
            k: v
            for k, v in {
                "max_actions": args.max_actions,
                "max_model_calls": args.max_model_calls,
                "max_elapsed_ms": args.max_elapsed_ms,
            }.items()
            if v is not None
        },
    }
    if getattr(args, "task", None):
        data["task"] = args.task
    if getattr(args, "flow", None):
        data["flow"] = _load_json(args.flow, "flow file")
    saved = saved_flow_of(args)
    if saved is not None:
        data["saved_flow"] = saved
    if args.output_schema:
        data["output"] = {
            "instructions": "Shape the records to the schema.",
            "schema": _load_json(args.output_schema, "output schema"),
        }
    try:
        return StartTaskRequest.model_validate(data)
    except ValidationError as exc:
        raise invalid_request(exc, "invalid request") from None


async def _answer(tasks: Tasks, view: TaskView, stdin: TextIO, out: TextIO) -> TaskView | None:
    """Ask the person at the terminal what the task needs; None when they do not answer."""
    answer = ask_at_terminal(view, stdin, out)
    return None if answer is None else await tasks.continue_task(answer)


async def follow(
    tasks: Tasks,
    view: TaskView,
    *,
    as_json: bool,
    interactive: bool,
    stdin: TextIO,
    out: TextIO,
) -> TaskView:
    """Print a task's views as it moves; answer it at a terminal; return the final view."""
    while True:
        last = view
        async for current in tasks.watch(view.id):
            if not as_json and current != last:
                out.write(_line(current) + "\n")
                out.flush()
            last = current
        view = last
        if not interactive or not isinstance(view.status, NeedsInput | NeedsApproval | NeedsHuman):
            return view
        answered = await _answer(tasks, view, stdin, out)
        if answered is None:
            return view
        view = answered


async def _run(args: argparse.Namespace, config: GoferConfig) -> int:
    request = _request(args)
    interactive = sys.stdin.isatty() and not args.json
    async with open_gofer(
        config, source="cli", policy=config.browser_policy(operator=True), own_only=True
    ) as gofer:
        tasks = gofer.tasks
        given = {}
        for name, path in file_args(getattr(args, "file", None)).items():
            upload = await tasks.files.upload_path(path, secret=name in (args.secret or []))
            given[name] = upload.id
        if given:
            request = request.model_copy(update={"files": given})
        view = await tasks.start_task(request)
        if not args.json:
            sys.stdout.write(_line(view) + "\n")
        view = await follow(
            tasks, view, as_json=args.json, interactive=interactive, stdin=sys.stdin, out=sys.stdout
        )
        _print_final(view, args.json, sys.stdout)
        if interactive and args.headed and isinstance(view.status, Checkpoint):
            sys.stdout.write("The browser stays open for you; press Enter to close it. ")
            sys.stdout.flush()
            sys.stdin.readline()
        return EXIT_CODES.get(view.status.state, 3)


# ------------------------------------------------------------------ worker and tasks


async def _worker(args: argparse.Namespace, config: GoferConfig) -> int:
    """Run turns from the store until SIGINT or SIGTERM; the turns running then have
    ``--drain-seconds`` to reach their stop, and what still runs goes back on the queue
    for the next worker."""
    stop, cut = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda: (cut if stop.is_set() else stop).set())
    limits = TurnLimits(per_owner=args.per_owner, per_process=args.per_process)
    policy = config.browser_policy(
        operator=False, allow_private=args.allow_private, browser_endpoint=args.browser_endpoint
    )
    async with (
        open_gofer(config, source="worker", limits=limits, policy=policy) as gofer,
        live_endpoint(args, config, gofer.tasks) as live,
    ):
        freeze_startup()
        sys.stderr.write(
            f"gofer worker {gofer.tasks.worker.worker_id} on {_where(config.db)} "
            f"(live views of the browsers it holds at {live.address})\n"
        )
        sys.stderr.flush()
        await gofer.tasks.serve(stop)
        await gofer.tasks.drain(args.drain_seconds, cut)
    return 0


def _where(db: str) -> str:
    """The store named without a password."""
    if "://" in db and "@" in db:
        scheme, rest = db.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return db


async def _tasks(args: argparse.Namespace, config: GoferConfig) -> int:
    async with open_gofer(
        config,
        source="cli",
        models=False,
        work=False,
        owner=args.owner,
        policy=config.browser_policy(operator=False),
    ) as gofer:
        listed = await gofer.tasks.list_tasks({"limit": args.limit, "cursor": args.cursor})
        views = listed.tasks
        titles = {v.id: (await gofer.tasks.task_record(v.id)).title for v in views}
    if args.json:
        sys.stdout.write(
            json.dumps(
                {
                    "tasks": [
                        {**v.model_dump(mode="json"), "title": titles.get(v.id, "")} for v in views
                    ],
                }
                | ({"next_cursor": listed.next_cursor} if listed.next_cursor else {}),
                ensure_ascii=False,
            )
            + "\n"
        )
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Tasks of {args.owner}" if views else f"{args.owner} has no tasks")
    for column in ("id", "status", "progress"):
        table.add_column(column, no_wrap=True)
    for column in ("title", "summary"):
        table.add_column(column, overflow="fold")
    for view in views:
        table.add_row(
            view.id,
            view.status.state,
            f"{round(view.progress * 100)}%",
            titles.get(view.id, ""),
            view.summary,
        )
    Console(file=sys.stdout, soft_wrap=False).print(table)
    say_more(listed.next_cursor)
    return 0


# ------------------------------------------------------------------ describe


async def _describe(args: argparse.Namespace, config: GoferConfig) -> int:
    server = args.server or None
    isolation = ""
    if server is not None:
        async with GoferClient(server, config.token) as client:
            reply = await client.describe(args.detail)
    else:
        from gofer.doctor import isolation as isolation_of

        policy = config.browser_policy(operator=False)
        async with open_gofer(config, source="cli", durable=False, policy=policy) as gofer:
            reply = await gofer.tasks.describe({"detail": args.detail})
            isolation = isolation_of(policy)
    if args.json:
        sys.stdout.write(reply.model_dump_json(indent=2) + "\n")
        return 0
    out = sys.stdout
    out.write(f"gofer flow contract {reply.contract_version}\n\n")
    out.write("Surfaces:\n")
    for name, info in reply.surfaces.items():
        data = info.model_dump()
        state = "available" if data.get("available") else f"unavailable: {data.get('reason')}"
        if name == "browser" and isolation:
            state += f" ({isolation})"
        out.write(f"  {name}: {state}\n")
    out.write(
        "Model passes: planner {}, rescuer {}, output shaper {}, model decider {}\n\n".format(
            *(
                "configured" if x else "not configured"
                for x in (
                    reply.planner_configured,
                    reply.rescue_configured,
                    reply.output_configured,
                    reply.decider_configured,
                )
            )
        )
    )
    out.write("Calls:\n")
    for call, line in reply.call_summaries.items():
        out.write(f"  {call}: {line}\n")
    out.write("\nStep kinds:\n")
    for kind in reply.step_kinds:
        example = json.dumps(kind.get("example"), ensure_ascii=False)
        out.write(f"  {kind['name']}: {kind.get('summary')}  e.g. {example}\n")
    out.write("\nRules:\n" + "".join(f"  - {rule}\n" for rule in reply.rules))
    if reply.guide:
        out.write("\n" + reply.guide.rstrip() + "\n")
    else:
        out.write("\nMore: gofer describe --detail flow (the full guide) or --detail full.\n")
    return 0


def _doctor(args: argparse.Namespace, config: GoferConfig) -> int:
    from rich.console import Console

    from gofer.doctor import as_json, machine_checks, print_checks

    checks = machine_checks(config)
    if args.json:
        sys.stdout.write(json.dumps(as_json(checks), ensure_ascii=False, indent=2) + "\n")
        return 1 if any(c.needed and not c.ok for c in checks) else 0
    return print_checks(checks, Console())


# ------------------------------------------------------------------ demo


def _demo_request(url: str) -> dict[str, Any]:
    """The booking job on the demo airline at ``url``, as a person's create."""
    return {
        "flow": demo_flow(url),
        "facts": DEMO_FACTS,
        "constraints": {"origins": [url.split("?")[0].rstrip("/")]},
    }


async def _demo_site(args: argparse.Namespace) -> int:
    from gofer.demo import DemoServer

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with DemoServer(seed=args.seed, host=args.host, port=args.port) as site:
        sys.stdout.write(f"Serving the demo airline on {site.url} (Ctrl+C stops it)\n")
        sys.stdout.flush()
        await stop.wait()
    return 0


# ------------------------------------------------------------------ parser


USAGE = """\
gofer runs a whole job on the web in a real browser, in the background, and stops
only when it needs you: a missing value, your approval before something that cannot
be undone, a person past a captcha or a login, and always before money moves.

Start with `gofer describe`, write the job as a flow (a JSON file), then
`gofer run flow.json --facts facts.json`. To let an agent use gofer, run
`gofer serve` (HTTP API and MCP) or `gofer serve --stdio` (MCP over stdio)."""

ENVIRONMENT = """\
environment:
  GOFER_DB              the task store: a SQLite path or a postgresql:// URL
  GOFER_TOKENS          where `gofer serve` keeps tokens and sign-ins (default: GOFER_DB
                        when it is a PostgreSQL URL, else tokens.db)
  GOFER_SERVER, GOFER_TOKEN   the server the remote commands call, and their token
  GOFER_CHROMIUM        the Chromium or Chrome executable
  GOFER_MODEL_BASE_URL, GOFER_MODEL_API_KEY   an OpenAI-compatible endpoint and key
  GOFER_PLANNER_MODEL, GOFER_RESCUE_MODEL, GOFER_OUTPUT_MODEL, GOFER_DECIDER_MODEL
                        model names per role (GOFER_<ROLE>_BASE_URL and
                        GOFER_<ROLE>_API_KEY put one role on its own endpoint)
  GOFER_SECRET_KEY      the key fact values are sealed with in the store
  GOFER_ALLOW_PRIVATE=1 tasks of serve and worker may load private addresses
  GOFER_BROWSER_ENDPOINT    the remote Chromium (DevTools address) every task of
                        serve, worker and run runs in (--browser-endpoint)
  GOFER_BROWSER_ENDPOINTS   DevTools endpoints a task's browser_endpoint may name
  GOFER_BROWSER_USER    the user the browser runs as when gofer runs as root
  GOFER_LIVE_ADDRESS    where serve and worker serve their held browsers' live views
                        to the other servers (--live-address; default 127.0.0.1:0)
  GOFER_NO_SANDBOX=1    run Chromium without its sandbox"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gofer",
        description=USAGE,
        epilog=ENVIRONMENT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    describe = sub.add_parser(
        "describe",
        help="what gofer can do here and how to write a flow",
        description="Print the contract version, the surfaces and model passes available, "
        "each call in a line, every step kind with an example and the rules (a brief that "
        "fits in a prompt); --detail says more.",
    )
    describe.add_argument(
        "--detail",
        choices=["brief", "full", "flow", "calls", "examples"],
        default="brief",
        help="brief (default); flow adds the full flow guide and its JSON Schema; calls, "
        "each call's JSON Schemas; examples, worked examples; full, all of them",
    )
    describe.add_argument("--json", action="store_true", help="print the reply as JSON")
    describe.add_argument(
        "--server", metavar="URL", help="ask the gofer server at URL instead of this machine"
    )

    doctor = sub.add_parser(
        "doctor",
        help="what this machine has and lacks for gofer, and the commands that add it",
        description="Check Chromium, its headless shell, the browser's sandbox, the store, a "
        "model, PostgreSQL and the desktop surface's packages; print the exact command that "
        "adds each missing part. Exits 1 when browser tasks cannot run here.",
    )
    doctor.add_argument("--json", action="store_true", help="print the checks as JSON")

    run = sub.add_parser(
        "run",
        help="run a flow (or a plain-language task) here and follow it",
        description="Start a task on this machine, print its views as it moves and stop "
        "where it needs you; in a terminal, answer its questions and go on. The exit "
        "code says how it ended (see the README).",
    )
    run.add_argument("--json", action="store_true", help="print only the final view as JSON")
    _task_options(run)

    demo = sub.add_parser(
        "demo",
        help="book on the bundled demo airline through gofer's server, stopping at payment",
        description="Start the demo airline and a gofer server on free ports, hand the "
        "booking job to the server over HTTP and follow it to the payment checkpoint.",
    )
    demo.add_argument("--headed", action="store_true", help="show the browser window")
    demo.add_argument(
        "--seed", type=int, default=7, help="the demo's random seed: fares and flights"
    )
    demo.add_argument(
        "--variant",
        default="",
        help="a harder demo: captcha, otp, login, confirm (a gate before booking), ...",
    )

    site = sub.add_parser(
        "demo-site",
        help="serve the demo airline to try flows against",
        description="Serve the bundled demo airline until Ctrl+C; prints its address.",
    )
    site.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    site.add_argument(
        "--port", type=int, default=8765, help="the port (0 picks a free one, printed)"
    )
    site.add_argument(
        "--seed", type=int, default=7, help="the demo's random seed: fares and flights"
    )

    worker = sub.add_parser(
        "worker",
        help="run tasks' turns from GOFER_DB until stopped",
        description="Claim and run the turns of the tasks stored in GOFER_DB until SIGINT "
        "or SIGTERM; the turns running then have --drain-seconds to reach their stop, "
        "and what still runs goes back on the queue.",
    )
    worker.add_argument(
        "--per-owner",
        type=int,
        default=TURNS_PER_OWNER,
        metavar="N",
        help="turns running for one owner across every worker",
    )
    worker.add_argument(
        "--allow-private",
        action="store_true",
        help="let tasks' browsers load loopback, private and metadata addresses "
        "(GOFER_ALLOW_PRIVATE=1)",
    )
    worker.add_argument(
        "--browser-endpoint",
        metavar="URL",
        help="run every task of this process in the remote Chromium at this DevTools "
        "address (http://host:port, ws:// or wss://; GOFER_BROWSER_ENDPOINT): one connection "
        "shared, a fresh browser context per task, connected again when it drops",
    )
    worker.add_argument(
        "--per-process",
        type=int,
        default=TURNS_PER_PROCESS,
        metavar="N",
        help="turns this worker runs at once",
    )
    add_drain_option(worker)
    add_live_option(worker)

    listing = sub.add_parser(
        "tasks",
        help="list an owner's tasks in GOFER_DB with their status",
        description="List a page of an owner's tasks stored in GOFER_DB, with the status "
        "each reads now.",
    )
    listing.add_argument(
        "--owner", default=LOCAL_OWNER, help=f"whose tasks (default: {LOCAL_OWNER})"
    )
    listing.add_argument("--json", action="store_true", help="print the list as JSON")
    paging(listing)
    add_commands(sub, _task_options)
    add_flow_commands(sub, _task_facts)
    return parser


def _task_options(run: argparse.ArgumentParser) -> None:
    """The flags that say what a task is (``run`` and ``start``)."""
    run.add_argument("flow", nargs="?", help="the flow as a JSON file (see gofer describe)")
    run.add_argument(
        "--task", help="the job in plain language instead of a flow (needs a planner model)"
    )
    _task_facts(run)


def _task_facts(run: argparse.ArgumentParser) -> None:
    """The flags that give a task its facts, constraints and budget (``run``, ``start``
    and ``flows run``)."""
    run.add_argument(
        "--facts", metavar="FILE", help="a JSON file of your details: fact name to value"
    )
    run.add_argument(
        "--secret",
        action="append",
        metavar="NAME",
        help="a fact to keep secret: only ever typed into a field (repeatable)",
    )
    run.add_argument(
        "--file",
        action="append",
        metavar="NAME=PATH",
        help="a file the flow uploads as ${NAME}, read from PATH here (repeatable; with "
        "--secret NAME it is a secret file)",
    )
    run.add_argument(
        "--origin",
        action="append",
        metavar="URL",
        help="a site the task may load, e.g. https://.example.com for it and its "
        "subdomains (repeatable; none: any)",
    )
    run.add_argument(
        "--payment",
        choices=["stop_at_payment", "fill_then_approve"],
        default="stop_at_payment",
        help="stop_at_payment (default) ends at a checkpoint before the control that pays; "
        "fill_then_approve fills the payment form and waits for approval (needs --origin)",
    )
    run.add_argument(
        "--allow-destructive",
        action="store_true",
        help="press irreversible controls, payments included, without asking",
    )
    run.add_argument("--headed", action="store_true", help="show the browser window")
    run.add_argument(
        "--browser-endpoint", metavar="URL", help="drive a running Chrome at this DevTools address"
    )
    run.add_argument(
        "--max-actions", type=int, metavar="N", help="the most actions the task may take"
    )
    run.add_argument(
        "--max-model-calls", type=int, metavar="N", help="the most language-model calls it may make"
    )
    run.add_argument(
        "--max-elapsed-ms",
        type=int,
        metavar="N",
        help="the most running time, in ms (time waiting for you is not counted)",
    )
    run.add_argument(
        "--output-schema",
        metavar="FILE",
        help="a JSON Schema the result is shaped to (needs an output model)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The ``gofer`` console command."""
    args = _parser().parse_args(argv)
    config = config_from_env(os.environ)
    try:
        if args.command in ("start", "run") and not args.flow and not args.task:
            raise InvalidRequest("give a flow file or --task")
        handled = run_command(
            args, config, request_of=_request, exit_of=_exit_code, demo_start=_demo_request
        )
        if handled is not None:
            return handled
        if args.command == "describe":
            return asyncio.run(_describe(args, config))
        if args.command == "doctor":
            return _doctor(args, config)
        if args.command == "run":
            return asyncio.run(_run(args, config))
        if args.command == "worker":
            return asyncio.run(_worker(args, config))
        if args.command == "tasks":
            return asyncio.run(_tasks(args, config))
        if args.command == "flows" and args.flows_command == "run":
            return asyncio.run(_run(args, config))
        if args.command == "flows":
            return asyncio.run(flows_command(args, config, _load_json))
        return asyncio.run(_demo_site(args))
    except GoferError as exc:
        if getattr(args, "json", False):
            sys.stdout.write(json.dumps({"error": exc.to_dict()}, ensure_ascii=False) + "\n")
        else:
            sys.stderr.write(f"gofer: {exc}\n")
        return EXIT_CODES["refused"]
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
