"""Every test has a time limit (pytest-timeout's ``timeout``, set in pyproject.toml; a
test's own ``@pytest.mark.timeout(S)`` overrides it). Shortly before the limit, the
tasks of every running event loop print where each one waits, past pytest's output
capture; then pytest-timeout fails the test (with every thread's stack) instead of
letting it hang the suite."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
from collections.abc import Generator

import pytest


def limit_s(item: pytest.Item) -> float:
    """The item's time limit in seconds (0: none)."""
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    return float(item.config.getini("timeout") or 0)


def _print_tasks(item: pytest.Item, after_s: float) -> None:
    """From the watchdog's thread: every running event loop prints its tasks' stacks on
    its own thread, past pytest's output capture."""
    capture = item.config.pluginmanager.getplugin("capturemanager")
    loops = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop)]
    for loop in loops:
        if not loop.is_running():
            continue

        def dump(loop: asyncio.AbstractEventLoop = loop) -> None:
            with capture.global_and_fixture_disabled():
                print(f"\n=== {item.nodeid} runs past {after_s:.1f} s; its tasks:", file=sys.stderr)
                for task in asyncio.all_tasks(loop):
                    print(f"--- {task.get_name()}", file=sys.stderr)
                    task.print_stack(limit=15, file=sys.stderr)

        loop.call_soon_threadsafe(dump)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    limit = limit_s(item)
    if not limit:
        yield
        return
    after = limit - min(15.0, limit * 0.2)
    watchdog = threading.Timer(after, _print_tasks, args=(item, after))
    watchdog.daemon = True
    watchdog.start()
    try:
        yield
    finally:
        watchdog.cancel()
