"""Seeds the pretix template database: one organizer, one live event with ticket
categories, a product with variations, quotas, questions, a voucher and bank transfer.

Run by tools/corpus/pretix.sh with the corpus venv's python and PRETIX_CONFIG_FILE set.
"""

from __future__ import annotations

import datetime as dt
import os
from decimal import Decimal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pretix.settings")

import django

django.setup()

from django.utils.timezone import now  # noqa: E402
from django_scopes import scopes_disabled  # noqa: E402
from pretix.base.models import (  # noqa: E402
    Event,
    Item,
    ItemCategory,
    ItemVariation,
    Organizer,
    Question,
    QuestionOption,
    Quota,
    Voucher,
)


def seed() -> None:
    organizer = Organizer.objects.create(
        name="Riverside Events", slug="riverside", plugins="pretix.plugins.banktransfer"
    )
    event = Event.objects.create(
        organizer=organizer,
        name="Harbour Jazz Festival",
        slug="jazz",
        date_from=now() + dt.timedelta(days=90),
        currency="EUR",
        live=True,
        plugins="pretix.plugins.banktransfer,pretix.plugins.sendmail",
    )
    event.settings.payment_banktransfer__enabled = True
    event.settings.payment_banktransfer_bank_details_type = "other"
    event.settings.payment_banktransfer_bank_details = (
        "Riverside Events, IBAN DE02 1203 0000 0000 2020 51"
    )
    event.settings.attendee_names_asked = True
    event.settings.attendee_names_required = True
    event.settings.invoice_address_asked = False

    tickets = ItemCategory.objects.create(event=event, name="Tickets", position=0)
    merch = ItemCategory.objects.create(event=event, name="Merchandise", position=1)
    day = Item.objects.create(
        event=event,
        category=tickets,
        name="Day Pass",
        default_price=Decimal("45.00"),
        admission=True,
        personalized=True,
        position=0,
    )
    weekend = Item.objects.create(
        event=event,
        category=tickets,
        name="Weekend Pass",
        default_price=Decimal("120.00"),
        admission=True,
        personalized=True,
        position=1,
    )
    student = Item.objects.create(
        event=event,
        category=tickets,
        name="Student Day Pass",
        default_price=Decimal("25.00"),
        admission=True,
        personalized=True,
        position=2,
    )
    shirt = Item.objects.create(
        event=event,
        category=merch,
        name="Festival T-Shirt",
        default_price=Decimal("20.00"),
        admission=False,
        position=0,
    )
    sizes = [
        ItemVariation.objects.create(
            item=shirt, value=size, position=i, default_price=Decimal(price)
        )
        for i, (size, price) in enumerate(
            [("Small", "20.00"), ("Medium", "20.00"), ("Large", "22.00")]
        )
    ]
    quota = Quota.objects.create(event=event, name="Tickets", size=200)
    quota.items.add(day, weekend, student)
    shirts = Quota.objects.create(event=event, name="Shirts", size=50)
    shirts.items.add(shirt)
    shirts.variations.add(*sizes)

    meal = Question.objects.create(
        event=event,
        question="Meal preference",
        type=Question.TYPE_CHOICE,
        required=True,
        position=0,
    )
    for i, answer in enumerate(["Vegetarian", "Vegan", "No preference"]):
        QuestionOption.objects.create(question=meal, answer=answer, position=i)
    meal.items.add(day, weekend, student)
    university = Question.objects.create(
        event=event, question="University", type=Question.TYPE_STRING, required=True, position=1
    )
    university.items.add(student)

    Voucher.objects.create(
        event=event, code="HARBOUR10", price_mode="subtract", value=Decimal("10.00"), max_usages=100
    )


if __name__ == "__main__":
    with scopes_disabled():
        seed()
