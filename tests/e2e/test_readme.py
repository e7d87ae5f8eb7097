"""The README tells the truth: its Python example runs, and its commands exist."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from gofer.cli import EXIT_CODES

README = Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_the_python_example_books_up_to_the_payment_checkpoint(tmp_path: Path) -> None:
    (block,) = _python_blocks()
    script = tmp_path / "example.py"
    script.write_text(block, encoding="utf-8")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(script),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(120):
        out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    first, second = out.decode().splitlines()[:2]
    assert first.startswith("checkpoint - Stopped: reached the payment step (Pay now")
    assert "Indus Air" in second and "₹3,512" in second


def test_the_exit_code_table_matches_the_command() -> None:
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d) \| `([a-z_]+)`", text, re.M)
    documented = {state: int(code) for code, state in rows}
    expected = {k: v for k, v in EXIT_CODES.items() if k != "refused"}
    assert documented == expected
    assert "| 2 | the request was refused" in text
