"""A test that hangs fails at its time limit, saying where it waited, instead of
hanging the suite: run here in a pytest of its own over a test that awaits forever."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HUNG = """
import asyncio

import pytest


@pytest.mark.timeout(4)
async def test_waits_for_a_worker_that_is_gone():
    async def wait_for_the_worker():
        await asyncio.Event().wait()

    await asyncio.create_task(wait_for_the_worker(), name="the worker's answer")
"""


def test_a_hung_test_fails_within_its_limit_with_the_stacks_of_its_tasks(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_hung.py").write_text(HUNG)
    tests = Path(__file__).parents[1]
    began = time.monotonic()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "timelimit",
            "-p",
            "no:cacheprovider",
            "-o",
            "asyncio_mode=auto",
            "test_hung.py",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tests), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    took = time.monotonic() - began
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed" in out
    assert "Timeout" in out
    assert "runs past 3.2 s; its tasks:" in out, "the event loop's tasks were printed"
    assert "the worker's answer" in out and "wait_for_the_worker" in out
    assert took < 60, "it failed at its limit, not later"
