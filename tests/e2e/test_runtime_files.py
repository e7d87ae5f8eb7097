"""Downloads a page starts itself: an export the page prepares after the click and
then hands to the browser, kept whole; and a click that starts none fails saying so."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from gofer.runtime import RunStatus

from .conftest import FAST, Opener, Pages

SOON = replace(FAST, download_wait_ms=4_000)
"""A page here starts its download within 1.5 s of the click, or never."""

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

CSV = "month,total\\nJanuary,120.00\\nFebruary,98.50\\nMarch,41.50\\n"
PREPARED = f"""
<h1>Statements</h1>
<button id="go">Export statement</button>
<p id="note"></p>
<script>
document.getElementById("go").addEventListener("click", () => {{
  document.getElementById("note").textContent = "Preparing your export...";
  setTimeout(() => {{
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob(["{CSV}"], {{ type: "text/csv" }}));
    link.download = "statement-2026.csv";
    document.body.appendChild(link);
    link.click();
    document.getElementById("note").textContent = "Your export has started.";
  }}, 1500);
}});
</script>
"""


async def test_an_export_the_page_starts_later_is_kept_and_read(
    run_open: Opener, pages: Pages
) -> None:
    url = pages.add("/files/prepared", PREPARED)
    flow = [
        {"browse": url},
        {"download": "Export statement", "as": "statement"},
        {"read": "the total of March", "from": "statement", "as": "march"},
    ]
    async with run_open(flow, settings=SOON) as done:
        result = done.result
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps)
    [kept] = result.kept
    want = CSV.replace("\\n", "\n").encode()
    assert kept.filename == "statement-2026.csv"
    assert kept.sha256 == hashlib.sha256(want).hexdigest()
    assert result.variables["march"] == "41.50"


async def test_a_click_that_downloads_nothing_fails_saying_so(
    run_open: Opener, pages: Pages
) -> None:
    url = pages.add(
        "/files/nothing",
        "<h1>Statements</h1><button onclick=\"this.textContent='Done'\">Export</button>",
    )
    flow = [{"browse": url}, {"download": "Export", "as": "x"}]
    async with run_open(flow, settings=SOON) as done:
        result = done.result
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "started no download" in result.failure.reason
    assert result.kept == []
