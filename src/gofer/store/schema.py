"""The store's SQL as files shipped in the package: named queries and migrations.

Queries live in ``sql/<dialect>/*.sql``. A line ``-- name --`` starts the block named
``name``, which runs to the next such line; every file of a dialect is loaded and a
name may appear only once across them (``Connector.queries[name]``). PostgreSQL blocks
take ``%(name)s`` placeholders, SQLite blocks ``:name``.

Migrations live in ``migrations/<dialect>/NNNN_what.sql``. When a connector opens it
applies, in version order, every one not yet recorded in ``gofer_migrations``: all of
them in one transaction under the database's write lock (SQLite: ``BEGIN IMMEDIATE``;
PostgreSQL: an advisory lock), so processes opening one database at once apply each
exactly once, and a failing one leaves none applied. A migration once landed is never
edited: a change is a new file with the next number, in every dialect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from gofer.errors import StoreError
from gofer.store.transaction import Dialect

__all__ = [
    "MIGRATIONS_TABLE",
    "Migration",
    "load_migrations",
    "load_queries",
    "parse_queries",
    "pending",
]

MIGRATIONS_TABLE = "gofer_migrations"
"""Where applied migrations are recorded: ``(version, name, applied_at)``."""

_NAME_LINE = re.compile(r"^--\s*([a-z][a-z0-9_]*)\s*--\s*$")
_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One versioned schema change."""

    version: int
    name: str
    sql: str


def _root(dialect: Dialect, part: str) -> Traversable:
    return resources.files("gofer.store").joinpath(part, dialect)


def parse_queries(text: str, *, source: str = "<sql>") -> dict[str, str]:
    """The named blocks in ``text``: ``{name: sql}`` (text before the first name line
    is a comment for readers and is dropped)."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        named = _NAME_LINE.match(line.strip())
        if named:
            name = named.group(1)
            if name in blocks:
                raise StoreError(f"{source}: query {name!r} is named twice", code="STORE_BAD_SQL")
            current = blocks[name] = []
        elif current is not None:
            current.append(line)
    queries = {name: "\n".join(lines).strip() for name, lines in blocks.items()}
    empty = [name for name, sql in queries.items() if not sql]
    if empty:
        raise StoreError(f"{source}: queries {empty} are empty", code="STORE_BAD_SQL")
    return queries


def load_queries(dialect: Dialect) -> dict[str, str]:
    """Every named query of ``dialect``'s ``sql/`` files (none for ``memory``)."""
    if dialect == "memory":
        return {}
    queries: dict[str, str] = {}
    root = _root(dialect, "sql")
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".sql"):
            continue
        source = f"sql/{dialect}/{entry.name}"
        for name, sql in parse_queries(entry.read_text(encoding="utf-8"), source=source).items():
            if name in queries:
                raise StoreError(
                    f"{source}: query {name!r} is also named in another file", code="STORE_BAD_SQL"
                )
            queries[name] = sql
    return queries


def load_migrations(dialect: Dialect) -> list[Migration]:
    """``dialect``'s migrations in version order (none for ``memory``)."""
    if dialect == "memory":
        return []
    found: dict[int, Migration] = {}
    for entry in _root(dialect, "migrations").iterdir():
        if not entry.name.endswith(".sql"):
            continue
        named = _MIGRATION_FILE.match(entry.name)
        if named is None:
            raise StoreError(
                f"migrations/{dialect}/{entry.name}: not named NNNN_what.sql", code="STORE_BAD_SQL"
            )
        version = int(named.group(1))
        if version in found:
            raise StoreError(
                f"migrations/{dialect}: version {version} is taken twice", code="STORE_BAD_SQL"
            )
        found[version] = Migration(version, named.group(2), entry.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def pending(migrations: list[Migration], applied: dict[int, str]) -> list[Migration]:
    """The migrations not yet applied. A recorded version whose name differs from the
    file's, or one this code does not know (the database is newer than the code), is
    refused rather than guessed at."""
    known = {m.version: m for m in migrations}
    for version, name in sorted(applied.items()):
        mine = known.get(version)
        if mine is None:
            raise StoreError(
                f"the database has migration {version:04d}_{name}, which this version of "
                f"gofer does not know: it was written by a newer gofer",
                code="STORE_SCHEMA_NEWER",
            )
        if mine.name != name:
            raise StoreError(
                f"migration {version:04d} is {name!r} in the database but {mine.name!r} here",
                code="STORE_SCHEMA_MISMATCH",
            )
    return [m for m in migrations if m.version not in applied]
