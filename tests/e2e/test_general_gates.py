"""Gates that judge what a control does, on sites that keep their own records: an admin
whose Delete link leads to an "Are you sure?" page, a shop whose basket lines are
removed and whose checkout stops at "Place order", and header sign-in links that are
no wall beside a page that really is one. Flows as a person would write them, handed
to the task controller, judged by what the servers recorded."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks
from gofer.tasks.contract import Checkpoint, Done, Failed, NeedsApproval, NeedsHuman

from .conftest import FAST, Runner
from .sites import admin, corner
from .sites.base import Site, serve
from .test_tasks_booking import settle, task_page

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest_asyncio.fixture(loop_scope="session")
async def runner(engine: BrowserEngine) -> AsyncIterator[WorkspaceRunner]:
    async with WorkspaceRunner(engine=engine, settings=FAST) as made:
        yield made


@pytest_asyncio.fixture(loop_scope="session")
async def tasks(runner: WorkspaceRunner) -> AsyncIterator[Tasks]:
    async with Tasks(runner) as made:
        yield made


@pytest_asyncio.fixture(loop_scope="session")
async def backoffice() -> AsyncIterator[Site]:
    async with serve(admin.build()) as site:
        yield site


@pytest_asyncio.fixture(loop_scope="session")
async def shop() -> AsyncIterator[Site]:
    async with serve(corner.build()) as site:
        yield site


async def test_deleting_a_user_goes_through_the_delete_link_and_waits_at_are_you_sure(
    tasks: Tasks, runner: WorkspaceRunner, backoffice: Site
) -> None:
    start = await tasks.start_task(
        {
            "flow": [
                {"browse": backoffice.url("/admin/auth/user/")},
                {"click": "asha"},
                {"click": "Delete"},
                {"click": "Yes, I'm sure"},
            ]
        }
    )
    view = await settle(tasks, start.id)
    status = view.status
    assert isinstance(status, NeedsApproval), status
    assert status.target == "Yes, I’m sure"
    assert (await task_page(runner, start.id)).url.endswith("/admin/auth/user/3/delete/")
    assert backoffice.state["deleted"] == []
    assert backoffice.sent("/admin/auth/user/3/delete/") == []
    assert "asha" in backoffice.state["users"].values()

    await tasks.continue_task({"id": start.id, "approve": True})
    view = await settle(tasks, start.id)
    assert isinstance(view.status, Done), view.status
    assert backoffice.state["deleted"] == ["asha"]
    assert backoffice.sent("/admin/auth/user/3/delete/") == [{"post": "yes"}]
    assert sorted(backoffice.state["users"].values()) == ["mina", "ravi"]


async def test_a_delete_link_the_page_runs_by_script_waits_for_approval(
    run: Runner, backoffice: Site
) -> None:
    result = await run(
        [
            {"browse": backoffice.url("/notes")},
            {"click": "Delete", "within": "Welcome call"},
        ]
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.consequence == "irreversible"
    assert backoffice.sent("/notes/7") == []
    assert "Welcome call" not in backoffice.state["deleted"]


async def test_a_basket_line_is_removed_and_checkout_fills_the_address_up_to_place_order(
    tasks: Tasks, runner: WorkspaceRunner, shop: Site
) -> None:
    start = await tasks.start_task(
        {
            "flow": [
                {"browse": shop.url("/basket")},
                {"click": "Remove", "within": "Wool Beanie"},
                {"click": "Proceed to checkout"},
                {"enter": "Asha Raina", "into": "Full name"},
                {"enter": "12 Rua das Flores", "into": "Street address"},
                {"enter": "Porto", "into": "Town or city"},
                {"enter": "4050-262", "into": "Postcode"},
                {"choose": "Portugal", "in": "Country"},
                {"click": "Continue to review"},
                {"click": "Place order"},
            ]
        }
    )
    view = await settle(tasks, start.id)
    status = view.status
    assert isinstance(status, Checkpoint), status
    assert status.location == "Place order" and status.continuable is False
    assert (await task_page(runner, start.id)).url.endswith("/checkout/review")
    assert shop.state["basket"] == {"Linen Shirt": 1, "Canvas Tote": 2}
    assert shop.sent("/basket/remove") == [{"item": "Wool Beanie"}]
    assert shop.state["address"] == {
        "name": "Asha Raina",
        "street": "12 Rua das Flores",
        "city": "Porto",
        "postcode": "4050-262",
        "country": "Portugal",
    }
    assert shop.state["orders"] == []
    assert shop.sent("/checkout/place") == []
    await tasks.cancel_task({"id": start.id})


async def test_continue_on_a_card_form_named_only_by_placeholders_stops_as_a_payment(
    run: Runner, shop: Site
) -> None:
    result = await run([{"browse": shop.url("/checkout/card")}, {"click": "Continue"}])
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.consequence, result.gate.payment_screen) == ("payment", True)
    assert shop.sent("/checkout/card") == []


async def test_a_step_that_fails_beside_header_sign_in_links_stays_failed(
    tasks: Tasks, shop: Site
) -> None:
    start = await tasks.start_task(
        {
            "flow": [
                {"browse": shop.url("/product")},
                {"click": "Write a review"},
            ]
        }
    )
    view = await settle(tasks, start.id)
    status = view.status
    assert isinstance(status, Failed), status
    assert status.recoverable and "Write a review" in status.reason
    await tasks.cancel_task({"id": start.id})


async def test_a_layer_asking_to_log_in_over_the_page_is_a_login_wall(
    tasks: Tasks, shop: Site
) -> None:
    start = await tasks.start_task(
        {
            "flow": [
                {"browse": shop.url("/journal")},
                {"click": "Share"},
            ]
        }
    )
    view = await settle(tasks, start.id)
    status = view.status
    assert isinstance(status, NeedsHuman), status
    assert "login wall" in status.reason and "step 2" in status.reason
    report = await tasks.task_report({"id": start.id})
    assert "covered by a dialog" in report.steps[-1].reason
    await tasks.cancel_task({"id": start.id})


async def test_a_page_that_sends_the_person_to_sign_in_is_a_login_wall(
    tasks: Tasks, runner: WorkspaceRunner, shop: Site
) -> None:
    start = await tasks.start_task(
        {
            "flow": [
                {"browse": shop.url("/orders")},
                {"click": "Order 1001"},
            ]
        }
    )
    view = await settle(tasks, start.id)
    status = view.status
    assert isinstance(status, NeedsHuman), status
    assert "login wall" in status.reason
    assert "/account/login?next=" in (await task_page(runner, start.id)).url
    await tasks.cancel_task({"id": start.id})
