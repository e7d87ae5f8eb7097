"""Misago, the forum, run for real: its own virtual environment (tools/corpus/misago.sh),
a fresh database on the suite's PostgreSQL, the package's own ``devproject`` served by
Django's development server on a free loopback port, for the whole session.

Tasks are judged by Misago's own database, read through its own models
(:meth:`Misago.query`)."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from ..app_process import django_env, django_query, runserver, serving

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
VENV = ROOT / ".corpus" / "misago" / "venv"
ADMIN = ("admin", "Adm1n-pass-123")


@dataclass(frozen=True)
class Misago:
    url: str
    env: dict[str, str]

    def query(self, code: str) -> Any:
        """Run ``code`` in Misago's own Python with Django set up; it sets ``result``,
        returned as JSON."""
        return django_query(VENV / "bin" / "python", self.env, code)


def sign_in_steps(url: str) -> list[dict[str, Any]]:
    """The forum's own sign-in, as a person does it."""
    return [
        {"browse": url},
        {"click": "Sign in"},
        {"enter": ADMIN[0], "into": "Username or email"},
        {"enter": ADMIN[1], "into": "Password"},
        {"click": "Sign in", "within": "the sign in dialog"},
        {"wait": {"not_shows": "Username or e-mail"}},
    ]


def admin_sign_in_steps(url: str) -> list[dict[str, Any]]:
    """The forum's sign-in, then the administration's own sign-in form."""
    return [
        *sign_in_steps(url),
        {"browse": url + "admincp/"},
        {"enter": ADMIN[0], "into": "Username"},
        {"enter": ADMIN[1], "into": "Password"},
        {"click": "Sign in"},
        {"wait": {"shows": "Dashboard"}},
    ]


def pg_admin_url() -> str:
    """The suite's PostgreSQL (``./dev test`` starts one): without it the tasks are
    skipped on a developer's machine and fail in CI, as the store's tests are."""
    url = os.environ.get("GOFER_TEST_PG_URL", "")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("GOFER_TEST_PG_URL is not set: CI must run ./dev test")
        pytest.skip("GOFER_TEST_PG_URL is not set (./dev test starts PostgreSQL)")
    return url


@pytest.fixture(scope="session")
def misago() -> Iterator[Misago]:
    if not (VENV / "bin" / "django-admin").exists():
        pytest.fail(f"Misago is not installed ({VENV} is missing): run ./dev setup")
    with running_misago(pg_admin_url()) as forum:
        yield forum


@contextmanager
def running_misago(admin_url: str) -> Iterator[Misago]:
    """Misago on a fresh database of the PostgreSQL server at ``admin_url``, seeded
    (``seed.py``) and served on a free loopback port until the block ends."""
    django_admin = VENV / "bin" / "django-admin"
    name = f"misago_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        with tempfile.TemporaryDirectory(prefix="gofer-misago-", ignore_cleanup_errors=True) as tmp:
            work = Path(tmp)
            db_url = urlunsplit(urlsplit(admin_url)._replace(path=f"/{name}", query=""))
            env = django_env(
                work,
                HERE,
                "misago_settings",
                MISAGO_DB_URL=db_url,
                MISAGO_MEDIA_ROOT=str(work / "media"),
            )
            manage = [str(django_admin)]
            prepare = [
                [*manage, "migrate", "--noinput", "-v0"],
                [str(VENV / "bin" / "python"), str(HERE / "seed.py")],
            ]
            with serving(prepare, runserver(manage), work=work, env=env) as url:
                yield Misago(url=url, env=env)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
