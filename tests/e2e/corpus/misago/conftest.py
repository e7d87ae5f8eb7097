"""Misago, the forum, run for real: its own virtual environment (tools/corpus/misago.sh),
a fresh database on the suite's PostgreSQL, the package's own ``devproject`` served by
Django's development server on a free loopback port, for the whole session.

Tasks are judged by Misago's own database, read through its own models
(:meth:`Misago.query`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
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

from ..app_process import free_port, wait_until_up

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
        script = (
            "import json, django\ndjango.setup()\nresult = None\n"
            + code
            + "\nprint('RESULT=' + json.dumps(result, default=str))\n"
        )
        out = subprocess.run(
            [str(VENV / "bin" / "python"), "-c", script],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        line = next(x for x in reversed(out.splitlines()) if x.startswith("RESULT="))
        return json.loads(line[len("RESULT=") :])


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
    work = Path(tempfile.mkdtemp(prefix="gofer-misago-"))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(work),
        "PYTHONPATH": str(HERE),
        "DJANGO_SETTINGS_MODULE": "misago_settings",
        "MISAGO_DB_URL": urlunsplit(urlsplit(admin_url)._replace(path=f"/{name}", query="")),
        "MISAGO_MEDIA_ROOT": str(work / "media"),
    }
    proc: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run(
            [str(django_admin), "migrate", "--noinput", "-v0"], env=env, check=True, timeout=300
        )
        subprocess.run(
            [str(VENV / "bin" / "python"), str(HERE / "seed.py")], env=env, check=True, timeout=120
        )
        port = free_port()
        log = work / "server.log"
        with log.open("wb") as sink:
            proc = subprocess.Popen(
                [str(django_admin), "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"],
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/"
        wait_until_up(url, proc, log, 60)
        yield Misago(url=url, env=env)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        shutil.rmtree(work, ignore_errors=True)
