"""``gofer flows save|list|show|run|delete``: the saved flows in ``GOFER_DB``.

``run`` starts a task from a saved flow and follows it like ``gofer run`` (its facts,
constraints and budget flags are the same); the others read or change the store.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from gofer.config import GoferConfig
from gofer.errors import InvalidRequest
from gofer.tasks import LOCAL_OWNER, MAX_LIST_LIMIT, SavedFlowEntry, SavedFlowView
from gofer.wiring import open_gofer

__all__ = ["add_flow_commands", "flows_command", "saved_flow_of"]


def add_flow_commands(sub: Any, task_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``gofer flows ...`` to the subcommands ``sub``; ``task_options`` adds the flags
    that say what a task may do (facts, origins, budget)."""
    flows = sub.add_parser("flows", help="save, list, show, run or delete saved flows")
    verbs = flows.add_subparsers(dest="flows_command", required=True)

    save = verbs.add_parser("save", help="save a flow file, or what a task ran, under a name")
    save.add_argument("name", help="the name to save it under (saving a name again adds a version)")
    what = save.add_mutually_exclusive_group(required=True)
    what.add_argument("--from-task", metavar="ID", help="save what this finished task ran")
    what.add_argument("--flow", metavar="FILE", help="a flow as a JSON file")
    save.add_argument("--description", default="", help="what the flow does, in a sentence")
    save.add_argument("--secret", action="append", metavar="NAME", help="a secret parameter")

    listing = verbs.add_parser("list", help="the latest version of each saved flow")
    show = verbs.add_parser("show", help="one saved flow: parameters, steps, hints")
    show.add_argument("name", help="the saved flow's name")
    show.add_argument(
        "--version", type=int, metavar="N", help="which version (default: the latest)"
    )
    run = verbs.add_parser("run", help="run a saved flow as a task with new facts")
    run.add_argument("name", help="the saved flow's name")
    run.add_argument("--version", type=int, metavar="N", help="which version (default: the latest)")
    task_options(run)
    delete = verbs.add_parser("delete", help="delete every version of a saved flow")
    delete.add_argument("name", help="the saved flow's name")
    for parser in (save, listing, show, delete, run):
        parser.add_argument("--json", action="store_true", help="print JSON")
    for parser in (save, listing, show, delete):
        parser.add_argument(
            "--owner", default=LOCAL_OWNER, help=f"whose flows (default: {LOCAL_OWNER})"
        )


def saved_flow_of(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``saved_flow`` a ``gofer flows run`` asks for (None for other commands)."""
    if getattr(args, "flows_command", None) != "run":
        return None
    return {"name": args.name, "version": args.version}


def _line(view: SavedFlowView | SavedFlowEntry) -> str:
    params = ", ".join(
        f"${{{p}}}" + (" (secret)" if p in view.secret_params else "") for p in view.params
    )
    about = f" — {view.description}" if view.description else ""
    return f"{view.name} v{view.version}{about}; asks for: {params or 'nothing'}"


async def flows_command(
    args: argparse.Namespace, config: GoferConfig, load_json: Callable[[str, str], Any]
) -> int:
    """``gofer flows save|list|show|delete``."""
    out = sys.stdout
    async with open_gofer(
        config,
        source="cli",
        models=False,
        work=False,
        owner=args.owner,
        policy=config.browser_policy(operator=False),
    ) as gofer:
        flows = gofer.tasks.flows
        if args.flows_command == "save":
            request: dict[str, Any] = {
                "name": args.name,
                "description": args.description,
                "secret_facts": list(args.secret or []),
            }
            if args.from_task:
                request["task_id"] = args.from_task
            else:
                request["flow"] = load_json(args.flow, "flow file")
            views: list[SavedFlowView | SavedFlowEntry] = [await flows.save(request)]
        elif args.flows_command == "show":
            views = [await flows.show(args.name, args.version)]
        elif args.flows_command == "list":
            cursor: str | None = None
            listed: list[SavedFlowView | SavedFlowEntry] = []
            while True:
                page = await flows.list({"limit": MAX_LIST_LIMIT, "cursor": cursor})
                listed.extend(page.flows)
                cursor = page.next_cursor
                if cursor is None:
                    break
            views = listed
        elif args.flows_command == "delete":
            gone = await flows.delete(args.name)
            out.write(
                json.dumps({"name": args.name, "deleted": gone})
                if args.json
                else f"deleted {gone} version{'s' if gone != 1 else ''} of {args.name}"
            )
            out.write("\n")
            return 0
        else:
            raise InvalidRequest(f"unknown flows command {args.flows_command!r}")
    if args.json:
        data: Any = [v.model_dump(mode="json") for v in views]
        out.write(json.dumps(data[0] if args.flows_command != "list" else {"flows": data}) + "\n")
        return 0
    for view in views:
        out.write(_line(view) + "\n")
        if args.flows_command == "show" and isinstance(view, SavedFlowView):
            out.write(json.dumps(view.flow, indent=2, ensure_ascii=False) + "\n")
    if not views:
        out.write("no saved flows\n")
    return 0
