"""Seeds the corpus's Tryton database once it is made (tools/corpus/tryton.sh): the
shop's company in euros as the admin's company, the first-login configuration wizard
done, a customer and a product for the tasks to sell. Run with Debian's python3 and
its trytond: seed.py CONFIG DATABASE."""

from __future__ import annotations

import sys
from decimal import Decimal

from trytond.config import config
from trytond.pool import Pool
from trytond.transaction import Transaction


def main(conf: str, database: str) -> None:
    config.update_etc(conf)
    Pool.start()
    pool = Pool(database)
    pool.init()
    with Transaction().start(database, 0, context={}) as transaction:
        currency = pool.get("currency.currency")
        party = pool.get("party.party")
        company = pool.get("company.company")
        user = pool.get("res.user")
        uom = pool.get("product.uom")
        template = pool.get("product.template")
        item = pool.get("ir.module.config_wizard.item")

        (euro,) = currency.create(
            [{"name": "Euro", "code": "EUR", "symbol": "€", "rounding": Decimal("0.01"),
              "digits": 2}]
        )  # fmt: skip
        (shop,) = party.create([{"name": "Gofer Outdoor Supplies"}])
        (ours,) = company.create([{"party": shop.id, "currency": euro.id}])
        (admin,) = user.search([("login", "=", "admin")])
        user.write([admin], {"companies": [("add", [ours.id])], "company": ours.id})
        item.write(item.search([]), {"state": "done"})
        party.create([{"name": "Lena Novak"}])
        (unit,) = uom.search([("name", "=", "Unit")])
        template.create(
            [{"name": "Camp Stove", "type": "goods", "default_uom": unit.id,
              "list_price": Decimal("45.00"), "salable": True, "sale_uom": unit.id,
              "products": [("create", [{}])]}]
        )  # fmt: skip
        transaction.commit()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
