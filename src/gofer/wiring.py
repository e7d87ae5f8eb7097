"""The composition root: what a configuration switches on, built once for the entry points.

:func:`open_gofer` opens the whole engine an entry point runs (``gofer run``,
``worker``, ``tasks``, ``describe``, ``serve``, ``demo``): the store ``GOFER_DB``
names, the model passes of the configured roles, the browser runner (the model
decider goes to it) and the task controller over them; leaving the block closes
them in the reverse order. :class:`ModelPasses` opens one chat model per configured
role and makes the pass that uses it; :func:`store_for` is the connector
``GOFER_DB`` names.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TypedDict

from gofer.config import GoferConfig
from gofer.decider import VotingDecider
from gofer.models import ModelsConfig, OpenAIChatModel, open_model
from gofer.planner import ModelPlanner
from gofer.rescue import ModelRescuer
from gofer.runtime import ModelDecider
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.shape import ModelShaper
from gofer.store import Connector, SecretBox
from gofer.store.postgres import PostgresConnector
from gofer.store.sqlite import SQLiteConnector
from gofer.surfaces import BrowserPolicy
from gofer.tasks import LOCAL_OWNER, Planner, Rescuer, RunnerPasses, Shaper, Tasks, TurnLimits

__all__ = ["Gofer", "ModelPasses", "TaskPasses", "freeze_startup", "open_gofer", "store_for"]


def freeze_startup() -> None:
    """Keep what a long-running process made to start (modules, classes, its wiring) out
    of the cycle collector's full passes, which would otherwise walk all of it again
    every few tasks (a tenth of a second each, on the processes' shared cores)."""
    gc.collect()
    gc.freeze()


def store_for(
    db: str,
    secret_key: str | None = None,
    key_file: str | Path | None = None,
    runtime_dir: str | None = None,
) -> Connector:
    """The connector for ``GOFER_DB``: PostgreSQL for a ``postgresql://`` URL, else a
    SQLite file at that path (open it with ``async with``).

    Fact values are sealed with ``secret_key`` (``GOFER_SECRET_KEY``) when given; else
    with the key in ``key_file`` (PostgreSQL) or in the key file beside the SQLite file.
    ``runtime_dir`` is where a SQLite file's wake-up sockets go when their folder beside
    it makes too long a socket address."""
    secrets = SecretBox.from_text(secret_key) if secret_key else None
    if db.startswith(("postgresql://", "postgres://")):
        if secrets is None and key_file is not None:
            secrets = SecretBox.from_file(Path(key_file).expanduser())
        return PostgresConnector(db, secrets=secrets)
    return SQLiteConnector(Path(db).expanduser(), secrets=secrets, runtime_dir=runtime_dir)


class TaskPasses(TypedDict):
    """The model passes as the task controller's keyword arguments (None: not configured)."""

    planner: Planner | None
    rescuer: Rescuer | None
    shaper: Shaper | None
    runner_passes: RunnerPasses


class ModelPasses:
    """The planner, rescuer, shaper and decider of a :class:`ModelsConfig` (None for a
    role it leaves out)."""

    def __init__(self, config: ModelsConfig) -> None:
        self._models: list[OpenAIChatModel] = []
        self.planner = ModelPlanner(self._open(config, "planner")) if config.planner else None
        self.rescuer = ModelRescuer(self._open(config, "rescue")) if config.rescue else None
        self.shaper = ModelShaper(self._open(config, "output")) if config.output else None
        self.decider: ModelDecider | None = (
            VotingDecider(self._open(config, "decider")) if config.decider else None
        )

    def _open(self, config: ModelsConfig, role: str) -> OpenAIChatModel:
        route = config.route(role)
        assert route is not None
        model = open_model(route)
        self._models.append(model)
        return model

    def for_tasks(self) -> TaskPasses:
        """The passes as ``Tasks`` keyword arguments."""
        return TaskPasses(
            planner=self.planner,
            rescuer=self.rescuer,
            shaper=self.shaper,
            runner_passes=RunnerPasses(decider=self.decider is not None),
        )

    async def aclose(self) -> None:
        """Close every model's HTTP client (idempotent)."""
        models, self._models = self._models, []
        for model in models:
            await model.aclose()

    async def __aenter__(self) -> ModelPasses:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


@dataclass(frozen=True, slots=True)
class Gofer:
    """The engine :func:`open_gofer` opened: the controller, and the store it keeps its
    tasks in (None: in memory, gone when the block ends)."""

    tasks: Tasks
    store: Connector | None


@asynccontextmanager
async def open_gofer(
    config: GoferConfig,
    *,
    source: str,
    durable: bool = True,
    models: bool = True,
    work: bool = True,
    owner: str = LOCAL_OWNER,
    limits: TurnLimits | None = None,
    policy: BrowserPolicy,
    own_only: bool = False,
) -> AsyncIterator[Gofer]:
    """The engine ``config`` describes, open for the block.

    ``durable`` keeps the tasks in the store ``GOFER_DB`` names (else in memory);
    ``models`` switches on the configured model passes (else none); ``work=False``
    leaves the running to worker processes. ``source`` is recorded with every task
    started, ``owner`` is whom the calls answer for, ``limits`` caps the turns running,
    ``policy`` is what the operator lets the browsers reach; ``own_only`` runs only
    the tasks started here (``gofer run``: :mod:`gofer.tasks.able`).
    """
    async with AsyncExitStack() as stack:
        store = (
            await stack.enter_async_context(
                store_for(config.db, config.secret_key, config.key_file, config.runtime_dir)
            )
            if durable
            else None
        )
        passes = await stack.enter_async_context(
            ModelPasses(config.models if models else ModelsConfig())
        )
        runner = await stack.enter_async_context(
            WorkspaceRunner(chromium=config.chromium, decider=passes.decider, policy=policy)
        )
        tasks = await stack.enter_async_context(
            Tasks(
                runner,
                store=store,
                owner=owner,
                work=work,
                limits=limits,
                source=source,
                notify_private=policy.allow_private,
                browser=policy.remote,
                own_only=own_only,
                flow_limits=config.flow_limits,
                file_limits=config.file_limits,
                **passes.for_tasks(),
            )
        )
        yield Gofer(tasks, store)
