"""Places a paid order for one Day Pass and issues its invoice the way pretix does
(its own invoice builder and PDF renderer), then prints the order's code and secret,
the invoice's number and the SHA-256 of the PDF pretix stored, as one JSON line.

Run by the pretix fixture with the corpus venv's python and PRETIX_CONFIG_FILE set.
"""

from __future__ import annotations

import hashlib
import json
import os
from decimal import Decimal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pretix.settings")

import django

django.setup()

from django.db import transaction  # noqa: E402
from django_scopes import scopes_disabled  # noqa: E402
from pretix.base.models import Event, Item, Order, OrderPosition  # noqa: E402
from pretix.base.services.invoices import generate_invoice  # noqa: E402


def invoiced(email: str, attendee: str) -> dict[str, str]:
    event = Event.objects.get(slug="jazz", organizer__slug="riverside")
    event.settings.invoice_address_from_name = "Riverside Events"
    event.settings.invoice_address_from = "Harbour Street 1"
    event.settings.invoice_address_from_city = "Hamburg"
    day = Item.objects.get(event=event, name__icontains="Day Pass", default_price=Decimal("45"))
    with transaction.atomic():
        order = Order.objects.create(
            event=event,
            email=email,
            status=Order.STATUS_PAID,
            total=Decimal("45.00"),
            locale="en",
            sales_channel=event.organizer.sales_channels.get(identifier="web"),
        )
        OrderPosition.objects.create(
            order=order,
            item=day,
            price=Decimal("45.00"),
            positionid=1,
            attendee_name_parts={"_scheme": "full", "full_name": attendee},
        )
        order.create_transactions()
    invoice = generate_invoice(order)
    invoice.refresh_from_db()
    with invoice.file.open("rb") as stored:
        data = stored.read()
    return {
        "code": order.code,
        "secret": order.secret,
        "number": invoice.number,
        "sha256": hashlib.sha256(data).hexdigest(),
    }


if __name__ == "__main__":
    with scopes_disabled():
        print(json.dumps(invoiced(os.environ["ORDER_EMAIL"], os.environ["ORDER_ATTENDEE"])))
