"""Starting a corpus application as a subprocess on a free loopback port."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_answering(url: str, proc: subprocess.Popen[bytes], seconds: float) -> None:
    """Return once ``url`` answers; fail when the process exits or time runs out."""
    wait_until_up(url, proc, None, seconds)


def wait_until_up(
    url: str, proc: subprocess.Popen[bytes], log: Path | None, within_s: float
) -> None:
    """Return once ``url`` answers; raise (with the end of the server's ``log``, if it
    keeps one) when the process exits first or never answers."""

    def tail() -> str:
        return f":\n{log.read_text()[-3000:]}" if log is not None else ""

    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with {proc.returncode} before answering{tail()}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)  # nothing announces readiness: the port is asked again
    raise RuntimeError(f"the app did not answer at {url} within {within_s:.0f} s{tail()}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def python_query(
    python: Path,
    env: Mapping[str, str],
    code: str,
    values: Mapping[str, Any] | None = None,
    cwd: Path | None = None,
    prelude: str = "",
) -> Any:
    """Run ``prelude`` then ``code`` in an app's own ``python``, with ``values`` as
    globals (set first); ``code`` sets ``result``, returned as JSON."""
    script = (
        "import json\n"
        + "".join(f"{name} = {value!r}\n" for name, value in (values or {}).items())
        + f"{prelude}\nresult = None\n"
        + code
        + "\nprint('RESULT=' + json.dumps(result, default=str))\n"
    )
    done = subprocess.run(
        [str(python), "-c", script],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the app's query failed:\n{done.stderr[-3000:]}")
    out = done.stdout
    line = next(x for x in reversed(out.splitlines()) if x.startswith("RESULT="))
    return json.loads(line[len("RESULT=") :])


def django_query(
    python: Path,
    env: Mapping[str, str],
    code: str,
    values: Mapping[str, Any] | None = None,
    cwd: Path | None = None,
) -> Any:
    """:func:`python_query` in a Django app (``env`` names its settings), set up."""
    return python_query(python, env, code, values, cwd, "import django\ndjango.setup()")


@contextmanager
def serving(
    prepare: Sequence[Sequence[str]],
    serve: Callable[[int], Sequence[str]],
    *,
    work: Path,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    path: str = "/",
    port: int | None = None,
) -> Iterator[str]:
    """Run each ``prepare`` command (migrate, seed ...), then the server ``serve(port)``
    on ``port`` (a free loopback one unless the app must know it beforehand), logging to
    ``work``/server.log; yield its address (ending in ``path``) once it answers there,
    and terminate the server when the block ends."""
    run_env = dict(env) if env is not None else None
    for command in prepare:
        done = subprocess.run(
            list(command), env=run_env, cwd=cwd, timeout=300, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command)} exited with {done.returncode}:\n{done.stderr[-3000:]}"
            )
    port = port or free_port()
    log = work / "server.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            list(serve(port)), env=run_env, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        url = f"http://127.0.0.1:{port}{path}"
        wait_until_up(url, proc, log, 60)
        yield url
    finally:
        stop(proc)


def django_env(work: Path, path: Path, settings: str, **more: str) -> dict[str, str]:
    """The environment of a Django app's commands: its settings module (found on
    ``path``), a home of its own in ``work`` and no warnings, with ``more``."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(work),
        "PYTHONPATH": str(path),
        "PYTHONWARNINGS": "ignore",
        "DJANGO_SETTINGS_MODULE": settings,
        **more,
    }


def runserver(manage: Sequence[str]) -> Callable[[int], list[str]]:
    """Django's development server of ``manage`` (manage.py or django-admin) on a port."""
    return lambda port: [*manage, "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"]


@dataclass
class SQLiteApp:
    """A served application whose state is a SQLite file: its address and its rows."""

    url: str
    db: Path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return list(conn.execute(sql, args))


@contextmanager
def serving_a_copy(
    template: Path,
    work: Path,
    serve: Sequence[str],
    env: Mapping[str, str],
    *,
    db: str = "db.sqlite3",
    path: str = "/",
    folder_env: str | None = None,
) -> Iterator[SQLiteApp]:
    """A copy of an app's migrated and seeded ``template`` folder in ``work``, served
    by ``serve`` (a Django-style command that takes ``127.0.0.1:PORT`` last) from that
    folder (also named by ``folder_env`` in its environment, when given) until the
    block ends; its SQLite file is ``db`` in the copy."""
    home = work / "home"
    shutil.copytree(template, home)
    run_env = {**env, "HOME": str(work), "PYTHONWARNINGS": "ignore"}
    if folder_env is not None:
        run_env[folder_env] = str(home)
    with serving(
        [],
        lambda port: [*serve, f"127.0.0.1:{port}"],
        work=work,
        env=run_env,
        cwd=home,
        path=path,
    ) as url:
        yield SQLiteApp(url.removesuffix(path).rstrip("/"), home / db)
