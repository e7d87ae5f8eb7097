"""What the corpus's Oscar shop holds before the tasks: books with prices and stock,
the countries it ships to, a voucher and a customer account. Run inside the shop's
own virtual environment (``conftest.py``)."""

from decimal import Decimal

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.sites.models import Site  # noqa: E402
from oscar.apps.address.models import Country  # noqa: E402
from oscar.apps.catalogue.categories import create_from_breadcrumbs  # noqa: E402
from oscar.apps.catalogue.models import Product, ProductCategory, ProductClass  # noqa: E402
from oscar.apps.offer.models import Benefit, Condition, ConditionalOffer, Range  # noqa: E402
from oscar.apps.partner.models import Partner, StockRecord  # noqa: E402
from oscar.apps.voucher.models import Voucher  # noqa: E402

Site.objects.filter(pk=1).update(domain="127.0.0.1", name="Corpus Books")
for code, name in (("GB", "United Kingdom"), ("IN", "India"), ("FR", "France")):
    Country.objects.create(
        iso_3166_1_a2=code, name=name, printable_name=name, is_shipping_country=True
    )

books = ProductClass.objects.create(name="Book", requires_shipping=True, track_stock=True)
partner = Partner.objects.create(name="Corpus Warehouse")
fiction = create_from_breadcrumbs("Books > Fiction")
science = create_from_breadcrumbs("Books > Science")
CATALOGUE = [
    ("The Silent Harbour", "SH-001", "12.50", 40, fiction),
    ("A Field Guide to Moths", "FG-002", "24.00", 15, science),
    ("Quiet Orbits", "QO-003", "8.99", 30, science),
    ("The Lantern Keeper", "LK-004", "17.25", 25, fiction),
    ("Rivers of Salt", "RS-005", "31.00", 10, fiction),
    ("Tide Tables for Beginners", "TT-006", "5.75", 50, science),
]
for title, sku, price, stock, category in CATALOGUE:
    product = Product.objects.create(
        title=title,
        product_class=books,
        structure=Product.STANDALONE,
        description=f"{title}: a book from the corpus shop.",
    )
    ProductCategory.objects.create(product=product, category=category)
    StockRecord.objects.create(
        product=product,
        partner=partner,
        partner_sku=sku,
        price=Decimal(price),
        num_in_stock=stock,
    )

everything = Range.objects.create(name="Everything", includes_all_products=True)
condition = Condition.objects.create(range=everything, type=Condition.COUNT, value=1)
benefit = Benefit.objects.create(range=everything, type=Benefit.PERCENTAGE, value=10)
offer = ConditionalOffer.objects.create(
    name="Ten percent off",
    offer_type=ConditionalOffer.VOUCHER,
    condition=condition,
    benefit=benefit,
)
voucher = Voucher.objects.create(
    name="Ten off",
    code="TENOFF",
    usage=Voucher.MULTI_USE,
    start_datetime="2020-01-01T00:00:00Z",
    end_datetime="2099-01-01T00:00:00Z",
)
voucher.offers.add(offer)

get_user_model().objects.create_user(
    username="mira", email="mira@example.com", password="Mira-pass-456", first_name="Mira"
)
