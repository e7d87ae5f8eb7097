"""Starting a corpus application as a subprocess on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


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
