"""What a process can run a turn with, and what a task's turns need.

A process says what it has (:class:`Abilities`: a planner, a rescuer, a model decider,
an output shaper, a desktop, the browser its tasks run in) and claims only the turns
whose needs it meets: a task started where a model rescues, decides or plans is
never run to its end by a process without one, nor a task on a remote browser by a
process on a local one. The needs are written with each of the task's turns
(``needs`` in the queue item's payload); the queue passes over what a claimer cannot
run (:class:`gofer.store.queue.Fit`), so it waits for a process that can.

A process that runs only its own tasks (``gofer run``) reserves each of their turns
for itself (the queue's claim preference) and claims nothing else. A worker keeps the
reservations made for it (its own tasks', and those of the tasks whose browser it
holds for a person) while it lives (:data:`KEPT_MS`): the task goes on in the browser
it has. Once the process is gone they lapse, and a process that can runs the turn in
a fresh browser, saying so in the task's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gofer.flow.steps import Flow
from gofer.store.queue import Fit, WorkQueue
from gofer.store.transaction import Transaction
from gofer.tasks.cell import step_surfaces
from gofer.tasks.contract import TaskConstraints
from gofer.tasks.seams import FlowRunner
from gofer.tasks.status import task_group

__all__ = [
    "KEPT_MS",
    "LOCAL_BROWSER",
    "Abilities",
    "abilities_of",
    "needs_before",
    "needs_of",
]

LOCAL_BROWSER = "local"
"""The browser a process runs its tasks in when it has no remote one."""

KEPT_MS = 30_000
"""How long a reservation for a worker lasts past the last time the worker pushed it
on (every third of it while the worker lives); as long as a turn's lease."""


@dataclass(frozen=True, slots=True)
class Abilities:
    """What this process runs turns with. ``browser`` is the remote browser every task
    of the process runs in (None: a local Chromium); ``own_only`` makes the process
    run only the tasks it started (and reserves those for it); ``works`` is False for
    a process that runs no turns (a server left to its workers), whose rescuer,
    decider and browser its tasks do not need."""

    planner: bool = False
    rescuer: bool = False
    decider: bool = False
    shaper: bool = False
    desktop: bool = False
    browser: str | None = None
    own_only: bool = False
    works: bool = True

    def names(self) -> list[str]:
        """The needs this process meets, as the queue reads them."""
        models = ("planner", "rescuer", "decider", "shaper", "desktop")
        found = [name for name in models if getattr(self, name)]
        return [*found, _browser(self.browser)]

    def fit(self) -> Fit:
        """Which turns this process claims."""
        return Fit(self.names(), own=self.own_only)


def _browser(endpoint: str | None) -> str:
    return f"browser:{endpoint or LOCAL_BROWSER}"


def needs_of(
    abilities: Abilities,
    *,
    flow: Flow | None,
    output: bool,
    constraints: TaskConstraints,
) -> list[str]:
    """What every turn of a task started in this process needs: what this process
    would run it with (a plain-language task its planner; the rescuer and decider it
    has; its shaper for ``output``; the desktop the task asks for; the browser its
    tasks run in, unless the task names its own; none of these three when this
    process runs no turns)."""
    needs: list[str] = []
    if flow is None:
        needs.append("planner")
    if abilities.works:
        needs.extend(name for name in ("rescuer", "decider") if getattr(abilities, name))
    if output:
        needs.append("shaper")
    if _uses_desktop(flow, constraints.surfaces):
        needs.append("desktop")
    if constraints.browser_endpoint is None and abilities.works:
        needs.append(_browser(abilities.browser))
    return needs


def _uses_desktop(flow: Flow | None, surfaces: Sequence[str]) -> bool:
    if "desktop" in surfaces:
        return True
    if flow is None:
        return False
    return "desktop" in step_surfaces(flow, frozenset(surfaces)).values()


def abilities_of(
    runner: FlowRunner,
    planner: object | None,
    rescuer: object | None,
    shaper: object | None,
    decider: bool,
    browser: str | None,
    own_only: bool,
    works: bool,
) -> Abilities:
    """What a process with these passes and this runner runs turns with."""
    return Abilities(
        planner=planner is not None,
        rescuer=rescuer is not None,
        decider=decider,
        shaper=shaper is not None,
        desktop=runner.available_surfaces().get("desktop", "none") is None,
        browser=browser,
        own_only=own_only,
        works=works,
    )


async def needs_before(queue: WorkQueue, task_id: str, tx: Transaction) -> list[str] | None:
    """What the task's turns need, as its first turn was written (None: it has had no
    turn yet, or it was written before turns carried needs)."""
    items = await queue.items(group=task_group(task_id), tx=tx)
    needs = items[0].payload.get("needs") if items else None
    return [str(n) for n in needs] if isinstance(needs, list) else None
