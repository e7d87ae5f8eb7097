"""Downloads a page starts itself: an export the page prepares after the click and
then hands to the browser, kept whole; a click that starts none fails saying so; and a
PDF a script opens in a new window, kept in the local headless browser and in a remote
Chrome with its PDF viewer, within the operator's limit."""

from __future__ import annotations

import hashlib
import io
from dataclasses import replace

import pytest
from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

from gofer.runtime import FileLimits, RunStatus

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


def a_pdf(text: str) -> bytes:
    """A one-page PDF whose text layer holds ``text`` (pypdf's writer)."""
    writer = PdfWriter()
    page = writer.add_blank_page(width=300, height=200)
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
    )
    stream = DecodedStreamObject()
    stream.set_data(f"BT /F1 12 Tf 20 150 Td ({text}) Tj ET".encode())
    page[NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def opened_by_script(pages: Pages, where: str, pdf: bytes) -> str:
    """A statements page whose button opens the statement PDF in a new window
    (``window.open``), served inline."""
    document = pages.document(
        f"/files/{where}/statement.pdf",
        pdf,
        "application/pdf",
        'inline; filename="statement-march.pdf"',
    )
    return pages.add(
        f"/files/{where}/statements",
        f"<h1>Statements</h1><button onclick=\"window.open('{document}')\">View statement"
        "</button><p>March statement ready</p>",
    )


@pytest.mark.parametrize("browser", ["local", "remote"])
async def test_a_pdf_a_script_opens_in_a_new_window_is_kept(
    browser: str, run_open: Opener, remote_open: Opener, pages: Pages
) -> None:
    """Kept from the new window (a download in the local headless browser, the PDF
    viewer's in the remote Chrome), its window closed and the task on the page."""
    pdf = a_pdf("Closing balance 1234.56")
    url = opened_by_script(pages, f"window-{browser}", pdf)
    flow = [
        {"browse": url},
        {"download": "View statement", "as": "statement"},
        {"read": "Closing balance", "from": "statement", "as": "balance"},
        {"verify": {"shows": "March statement ready"}},
    ]
    async with (run_open if browser == "local" else remote_open)(flow, settings=SOON) as done:
        result = done.result
        tabs = [p.url for p in done.page.context.pages]
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps)
    [kept] = result.kept
    assert kept.sha256 == hashlib.sha256(pdf).hexdigest()
    assert kept.filename == "statement-march.pdf"
    assert result.variables["balance"] == "1234.56"
    assert tabs == [url]


async def test_a_pdf_past_the_limit_in_a_remote_viewer_fails_and_nothing_is_kept(
    remote_open: Opener, pages: Pages
) -> None:
    url = opened_by_script(pages, "window-large", a_pdf("Closing balance 1234.56"))
    flow = [{"browse": url}, {"download": "View statement", "as": "statement"}]
    async with remote_open(flow, settings=SOON, file_limits=FileLimits(bytes=200)) as done:
        result = done.result
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "more than the 200 a task may keep" in result.failure.reason, result.failure
    assert result.kept == [] and "statement" not in result.variables
