"""pretix, one instance per session: the migrated and seeded data folder that
tools/corpus/pretix.sh made is copied to a tmp dir and served by Django's own server
(DEBUG, so it serves its static files) on a free loopback port. Tasks are judged by the
copy's SQLite database: the carts, the answers kept on cart positions, and the orders."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from ..app_process import free_port, stop, wait_answering

ROOT = Path(__file__).resolve().parents[4]
HOME = ROOT / ".corpus" / "pretix"
PYTHON = HOME / "venv" / "bin" / "python"
TEMPLATE = HOME / "template" / "data"
INVOICE = Path(__file__).with_name("invoice.py")
SHOP = "riverside/jazz"

POSITIONS = (
    "SELECT p.id, i.name, v.value, p.price, p.attendee_name_cached, vo.code "
    "FROM pretixbase_cartposition p "
    "JOIN pretixbase_item i ON i.id = p.item_id "
    "LEFT JOIN pretixbase_itemvariation v ON v.id = p.variation_id "
    "LEFT JOIN pretixbase_voucher vo ON vo.id = p.voucher_id "
    "ORDER BY p.id"
)
ANSWERS = (
    "SELECT q.question, a.answer FROM pretixbase_questionanswer a "
    "JOIN pretixbase_question q ON q.id = a.question_id "
    "WHERE a.cartposition_id = ? ORDER BY q.position"
)


def i18n(value: Any) -> Any:
    """A pretix translatable field as English text (stored plain or as a JSON object)."""
    if isinstance(value, str) and value.startswith("{"):
        return json.loads(value).get("en")
    return value


@dataclass(frozen=True)
class Position:
    product: str
    variation: str | None
    price: Decimal
    attendee: str | None
    voucher: str | None
    answers: dict[str, str]


@dataclass(frozen=True)
class Invoice:
    """An order pretix placed and invoiced: the address of its page for the buyer, and
    the invoice's number and the digest of the PDF pretix stored for it."""

    page: str
    number: str
    sha256: str


@dataclass
class Pretix:
    url: str
    db: Path
    config: Path

    @property
    def shop(self) -> str:
        return f"{self.url}/{SHOP}/"

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return list(conn.execute(sql, args))

    def orders(self) -> int:
        return int(self.rows("SELECT count(*) FROM pretixbase_order")[0][0])

    def cart(self) -> list[Position]:
        """Every position in every cart (the tests empty the carts first, one browser each)."""
        found = []
        for pid, item, variation, price, attendee, voucher in self.rows(POSITIONS):
            answers = {i18n(q): a for q, a in self.rows(ANSWERS, pid)}
            found.append(
                Position(
                    i18n(item),
                    i18n(variation),
                    Decimal(str(price)),
                    attendee or None,
                    voucher,
                    answers,
                )
            )
        return found

    def invoiced_order(self, email: str, attendee: str) -> Invoice:
        """A paid order for one Day Pass with its invoice, issued by pretix itself."""
        env = {
            **os.environ,
            "PRETIX_CONFIG_FILE": str(self.config),
            "ORDER_EMAIL": email,
            "ORDER_ATTENDEE": attendee,
        }
        done = subprocess.run(
            [str(PYTHON), str(INVOICE)], env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr[-3000:]
        made = json.loads(done.stdout.strip().splitlines()[-1])
        page = f"{self.shop}order/{made['code']}/{made['secret']}/"
        return Invoice(page, made["number"], made["sha256"])

    def empty_carts(self) -> None:
        with sqlite3.connect(self.db) as conn:
            conn.execute("DELETE FROM pretixbase_questionanswer WHERE cartposition_id IS NOT NULL")
            conn.execute("DELETE FROM pretixbase_cartposition")


@pytest.fixture(scope="session")
def pretix_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pretix]:
    if not (PYTHON.exists() and (TEMPLATE / "db.sqlite3").exists()):
        pytest.fail("pretix is not installed: run ./dev setup (tools/corpus/pretix.sh)")
    home = tmp_path_factory.mktemp("pretix")
    data = home / "data"
    shutil.copytree(TEMPLATE, data)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    config = home / "pretix.cfg"
    config.write_text(
        f"[pretix]\ninstance_name=corpus\nurl={url}\ndatadir={data}\ncurrency=EUR\n"
        "[database]\nbackend=sqlite3\n[django]\ndebug=true\n[mail]\nfrom=shop@example.org\n"
    )
    env = {**os.environ, "PRETIX_CONFIG_FILE": str(config)}
    proc = subprocess.Popen(
        [str(PYTHON), "-m", "pretix", "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        cwd=home,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_answering(f"{url}/{SHOP}/", proc, 120)
        yield Pretix(url, data / "db.sqlite3", config)
    finally:
        stop(proc)


@pytest.fixture
def pretix(pretix_app: Pretix) -> Pretix:
    """The shared shop with every cart emptied, so a task sees only what its run put there."""
    pretix_app.empty_carts()
    return pretix_app
