"""A buyer's invoice on pretix's order page: its link opens the PDF in a new tab
(target=_blank, served inline). The download step keeps that PDF, the bytes pretix
stored for the invoice, closes the tab and goes on on the order page; a ``read`` from
it takes the total pretix computed. The same in a remote browser over DevTools, a
full Chrome whose PDF viewer, not a download, takes the new tab."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Pretix

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def keeps_the_invoice(open_run: Opener, pretix: Pretix, attendee: str) -> None:
    invoice = pretix.invoiced_order(f"{attendee.split()[0].lower()}@example.org", attendee)
    flow = [
        {"browse": invoice.page},
        {"download": f"Invoice {invoice.number}", "as": "invoice"},
        {"read": "Invoice total", "from": "invoice", "as": "total"},
        {"verify": {"shows": attendee}},
    ]
    async with open_run(flow) as done:
        result = done.result
        tabs = [p.url for p in done.page.context.pages]
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps)
    [kept] = result.kept
    assert kept.sha256 == invoice.sha256, "the kept file is the PDF pretix stored"
    assert kept.filename == f"{invoice.number}.pdf" and kept.media_type == "application/pdf"
    assert tabs == [invoice.page], "the invoice's tab is closed, the order page is current"
    total = result.variables["total"]
    assert isinstance(total, str) and "45.00" in total, total


async def test_an_invoice_opened_in_a_new_tab_is_kept(run_open: Opener, pretix: Pretix) -> None:
    await keeps_the_invoice(run_open, pretix, "Asha Rao")


async def test_an_invoice_in_a_remote_browsers_pdf_viewer_is_kept(
    remote_open: Opener, pretix: Pretix
) -> None:
    await keeps_the_invoice(remote_open, pretix, "Ines Duarte")
