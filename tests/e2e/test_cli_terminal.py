"""``gofer run`` at a terminal: it asks for missing values (secrets without echo) and
for approval, then carries on. The command runs under a pseudo-terminal that is its
controlling terminal, as when a person types at it."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from gofer.cli import EXIT_CODES

from .conftest import Pages

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PASSWORD = "canary-Pw-5521"

FORM = """<form onsubmit="event.preventDefault();
    document.getElementById('s').textContent = 'Sent for ' + city.value">
  <label>City <input id="city"></label>
  <label>Password <input id="pw" type="password"></label>
  <button>Send</button>
</form><p id="s"></p>"""


class Terminal:
    """The person's side of a pseudo-terminal: read what the command shows, type answers."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.seen = ""

    async def expect(self, text: str, timeout_s: float = 60) -> None:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout_s):
            while text not in self.seen:
                chunk = await loop.run_in_executor(None, _read, self.fd)
                if not chunk:
                    raise AssertionError(f"the command ended before showing {text!r}:\n{self.seen}")
                self.seen += chunk

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    async def rest(self, timeout_s: float = 60) -> None:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout_s):
            while chunk := await loop.run_in_executor(None, _read, self.fd):
                self.seen += chunk


def _read(fd: int) -> str:
    try:
        return os.read(fd, 4096).decode(errors="replace")
    except OSError:  # the other side closed
        return ""


def _own_terminal() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def test_run_asks_at_a_terminal_and_carries_on(pages: Pages, tmp_path: Path) -> None:
    url = pages.add("/cli/form", FORM)
    flow = tmp_path / "flow.json"
    flow.write_text(
        json.dumps(
            [
                {"browse": url},
                {"enter": "${city}", "into": "City"},
                {"enter": "${password}", "into": "Password"},
                {"stop_before": "sending the form"},
                {"verify": {"shows": "Sent for Pune"}},
            ]
        )
    )
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gofer.cli", "run", str(flow)],
        stdin=child,
        stdout=child,
        stderr=child,
        preexec_fn=_own_terminal,
        close_fds=True,
    )
    os.close(child)
    person = Terminal(main)
    try:
        await person.expect("city: ")
        person.type("Pune")
        await person.expect("password (hidden): ")
        person.type(PASSWORD)
        await person.expect("Press 'Send' (sending the form)? [y/N]")
        person.type("y")
        await person.rest()
        code = await asyncio.get_running_loop().run_in_executor(None, proc.wait, 60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    assert code == EXIT_CODES["done"], person.seen
    assert "done" in person.seen
    # The password was read without echo and never printed.
    assert PASSWORD not in person.seen
