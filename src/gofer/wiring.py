"""Building what a configuration switches on, for the entry points.

:class:`ModelPasses` opens one chat model per configured role and makes the pass
that uses it; ``async with`` closes the models again. :func:`store_for` is the
connector ``GOFER_DB`` names.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any

from gofer.decider import VotingDecider
from gofer.models import ModelsConfig, OpenAIChatModel, open_model
from gofer.planner import ModelPlanner
from gofer.rescue import ModelRescuer
from gofer.runtime import ModelDecider
from gofer.shape import ModelShaper
from gofer.store import Connector, SecretBox
from gofer.store.postgres import PostgresConnector
from gofer.store.sqlite import SQLiteConnector

__all__ = ["ModelPasses", "store_for"]


def store_for(
    db: str, secret_key: str | None = None, key_file: str | Path | None = None
) -> Connector:
    """The connector for ``GOFER_DB``: PostgreSQL for a ``postgresql://`` URL, else a
    SQLite file at that path (open it with ``async with``).

    Fact values are sealed with ``secret_key`` (``GOFER_SECRET_KEY``) when given; else
    with the key in ``key_file`` (PostgreSQL) or in the key file beside the SQLite file."""
    secrets = SecretBox.from_text(secret_key) if secret_key else None
    if db.startswith(("postgresql://", "postgres://")):
        if secrets is None and key_file is not None:
            secrets = SecretBox.from_file(Path(key_file).expanduser())
        return PostgresConnector(db, secrets=secrets)
    return SQLiteConnector(Path(db).expanduser(), secrets=secrets)


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

    def for_tasks(self) -> dict[str, Any]:
        """The passes as ``Tasks`` keyword arguments."""
        return {
            "planner": self.planner,
            "rescuer": self.rescuer,
            "shaper": self.shaper,
            "decider": self.decider,
        }

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
