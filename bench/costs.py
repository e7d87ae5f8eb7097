"""What a booking costs the machine: CPU seconds of every process it runs in, and the
DevTools commands Playwright's driver sends Chromium for it.

CPU comes from ``/proc/<pid>/stat`` of every process in a tree (a process that ended
was added to its parent's when reaped), split into Chromium's, the driver's (Node) and
Python's. Reading it costs the reader a little CPU of its own; :class:`CpuMeter` times
each reading and takes it off Python's share.

DevTools commands come from the driver's protocol log (``DEBUG=pw:protocol``): a driver
started inside :func:`protocol_log` writes every message it sends or receives to a file.
:func:`mark` sends a command no booking sends (``SystemInfo.getProcessInfo``) on a session of
the browser's own; :func:`commands_between` counts the commands sent between two marks,
by method.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import CDPSession

CHROMIUM_NAMES = ("chrome", "chromium", "headless_shell")
DRIVER_NAMES = ("node",)
MARK_METHOD = "SystemInfo.getProcessInfo"


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            found.extend(int(c) for c in text.split())
    except OSError:
        return []
    return found


def tree(roots: list[int], leave_out: frozenset[int] = frozenset()) -> list[int]:
    """Every process under ``roots``, the roots too, but none under ``leave_out``."""
    seen: list[int] = []
    todo = [r for r in roots if r not in leave_out]
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.append(pid)
            todo.extend(c for c in _children(pid) if c not in leave_out)
    return seen


def _ticks(pid: int) -> tuple[str, int] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    head, _, rest = text.rpartition(")")
    fields = rest.split()
    # utime, stime, cutime and cstime are fields 14-17; ``rest`` starts at field 3
    return head.partition("(")[2], sum(int(f) for f in fields[11:15])


@dataclass
class Cpu:
    """CPU seconds by kind of process."""

    chromium: float = 0.0
    driver: float = 0.0
    python: float = 0.0

    @property
    def total(self) -> float:
        return self.chromium + self.driver + self.python

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.chromium - other.chromium, self.driver - other.driver, self.python - other.python
        )

    def __add__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.chromium + other.chromium, self.driver + other.driver, self.python + other.python
        )

    def line(self) -> str:
        return (
            f"{self.total:.3f} s (Chromium {self.chromium:.3f}, driver {self.driver:.3f}, "
            f"Python {self.python:.3f})"
        )


def read_cpu(roots: list[int], leave_out: frozenset[int] = frozenset()) -> Cpu:
    """CPU used so far by the processes under ``roots``; the roots count as Python."""
    hertz = os.sysconf("SC_CLK_TCK")
    found = Cpu()
    for pid in tree(roots, leave_out):
        got = _ticks(pid)
        if got is None:
            continue
        name, ticks = got
        seconds = ticks / hertz
        if pid in roots:
            found.python += seconds
        elif name.casefold().startswith(CHROMIUM_NAMES):
            found.chromium += seconds
        elif name.casefold().startswith(DRIVER_NAMES):
            found.driver += seconds
        else:
            found.python += seconds
    return found


@dataclass
class CpuMeter:
    """Readings of this process's tree (less ``leave_out``), each one's own cost noted."""

    leave_out: frozenset[int] = frozenset()
    overhead_s: list[float] = field(default_factory=list)

    def read(self) -> Cpu:
        started = time.process_time()
        found = read_cpu([os.getpid()], self.leave_out)
        self.overhead_s.append(time.process_time() - started)
        return found

    def used(self, before: Cpu, after: Cpu) -> Cpu:
        """What ran between two readings, the later reading's own cost taken off Python's
        (the earlier one's ended before ``before`` was taken)."""
        spent = after - before
        spent.python -= self.overhead_s[-1] if self.overhead_s else 0.0
        return spent


# the protocol log -----------------------------------------------------------------


@contextmanager
def protocol_log(path: Path) -> Iterator[None]:
    """Within, a Playwright driver started logs its protocol messages into ``path`` (its
    standard error, which it inherits, points there; ours is back after)."""
    saved_env = os.environ.get("DEBUG")
    os.environ["DEBUG"] = "pw:protocol"
    saved_fd = os.dup(2)
    with path.open("ab") as out:
        os.dup2(out.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved_fd, 2)
        os.close(saved_fd)
        if saved_env is None:
            del os.environ["DEBUG"]
        else:
            os.environ["DEBUG"] = saved_env


async def mark(session: CDPSession) -> None:
    """A mark in the protocol log: a command no booking sends."""
    await session.send(MARK_METHOD)


_SENT = re.compile(r"SEND \u25ba (\{.*)$")
_METHOD = re.compile(r'"method":"([^"]+)"')


def sent_methods(path: Path) -> list[str]:
    """The methods of every command in the log, in order."""
    methods: list[str] = []
    for line in path.read_text(errors="replace").splitlines():
        sent = _SENT.search(line)
        if sent is None:
            continue
        text = sent.group(1)
        try:
            method = json.loads(text).get("method")
        except json.JSONDecodeError:  # a long message is cut short in the log
            found = _METHOD.search(text)
            method = found.group(1) if found else None
        if isinstance(method, str):
            methods.append(method)
    return methods


def commands_between(methods: list[str], nth: int) -> Counter[str]:
    """The commands sent between the ``nth`` mark (from 0) and the next one."""
    marks = [i for i, m in enumerate(methods) if m == MARK_METHOD]
    if len(marks) < nth + 2:
        raise ValueError(f"the protocol log holds {len(marks)} marks, not {nth + 2}")
    return Counter(methods[marks[nth] + 1 : marks[nth + 1]])
