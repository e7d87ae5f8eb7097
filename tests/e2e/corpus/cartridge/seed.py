"""What the corpus's Cartridge shop holds beside Mezzanine's demo product (the
"Django Pony" in sizes and colours): a discount code. Run inside the shop's own
virtual environment (``conftest.py``)."""

from decimal import Decimal

import django

django.setup()

from cartridge.shop.models import DiscountCode  # noqa: E402

DiscountCode.objects.create(
    title="Ten pounds off", code="PONY10", active=True, discount_deduct=Decimal("10.00")
)
