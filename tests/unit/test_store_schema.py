"""The store's SQL files: named blocks, versioned migrations and what is pending."""

from __future__ import annotations

import pytest

from gofer.errors import StoreError
from gofer.store.schema import Migration, load_migrations, load_queries, parse_queries, pending

DIALECTS = ["sqlite", "postgres"]
QUEUE_QUERIES = {
    "enqueue_item",
    "renew_lease",
    "finish_item",
    "release_item",
    "get_item",
    "item_by_key",
    "items_by_group",
    "items_by_owner",
}


def test_named_blocks_run_to_the_next_name_line() -> None:
    text = "-- a file comment\n-- first --\nSELECT 1\n-- a note\n\n-- second_2 --\nSELECT 2;\n"
    assert parse_queries(text) == {"first": "SELECT 1\n-- a note", "second_2": "SELECT 2;"}


@pytest.mark.parametrize(
    "text, problem",
    [
        ("-- one --\nSELECT 1\n-- one --\nSELECT 2\n", "named twice"),
        ("-- one --\n\n-- two --\nSELECT 2\n", "empty"),
    ],
)
def test_a_name_twice_or_an_empty_block_is_refused(text: str, problem: str) -> None:
    with pytest.raises(StoreError, match=problem) as raised:
        parse_queries(text, source="x.sql")
    assert raised.value.code == "STORE_BAD_SQL"
    assert "x.sql" in raised.value.message


@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_dialect_ships_the_queue_queries_and_its_first_migration(dialect: str) -> None:
    queries = load_queries(dialect)  # type: ignore[arg-type]
    assert set(queries) >= QUEUE_QUERIES
    migrations = load_migrations(dialect)  # type: ignore[arg-type]
    assert [(m.version, m.name) for m in migrations[:1]] == [(1, "work_queue")]
    assert [m.version for m in migrations] == sorted({m.version for m in migrations})
    assert "work_items" in migrations[0].sql


def test_the_same_versions_exist_in_every_dialect() -> None:
    names = {
        d: [(m.version, m.name) for m in load_migrations(d)]  # type: ignore[arg-type]
        for d in DIALECTS
    }
    assert len({tuple(v) for v in names.values()}) == 1


MIGRATIONS = [Migration(1, "work_queue", ""), Migration(2, "tasks", "")]


def test_pending_is_what_the_database_has_not_recorded() -> None:
    assert pending(MIGRATIONS, {}) == MIGRATIONS
    assert pending(MIGRATIONS, {1: "work_queue"}) == MIGRATIONS[1:]
    assert pending(MIGRATIONS, {1: "work_queue", 2: "tasks"}) == []


def test_a_database_newer_than_the_code_or_renamed_is_refused() -> None:
    with pytest.raises(StoreError) as newer:
        pending(MIGRATIONS, {1: "work_queue", 3: "later"})
    assert newer.value.code == "STORE_SCHEMA_NEWER"
    with pytest.raises(StoreError) as renamed:
        pending(MIGRATIONS, {1: "queue"})
    assert renamed.value.code == "STORE_SCHEMA_MISMATCH"


def test_a_gap_in_the_versions_is_applied_once_it_is_filled() -> None:
    gap = [Migration(1, "work_queue", ""), Migration(3, "later", "")]
    assert pending(gap, {}) == gap
    filled = [gap[0], Migration(2, "between", ""), gap[1]]
    assert pending(filled, {1: "work_queue", 3: "later"}) == [filled[1]]
