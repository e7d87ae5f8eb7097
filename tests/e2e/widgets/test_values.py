"""What the browser surface says a click changed when its only effect is a new value in
another field: a "Today" shortcut, a spinner's arrow, "same as billing" copying an
address. The page changes no node, yet the click changed something."""

from __future__ import annotations

import pytest

from gofer.surfaces import BrowserEngine, Screen

from .conftest import WidgetSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _ref(screen: Screen, name: str) -> str:
    return next(e.ref for e in screen.elements if e.display_name == name)


async def test_a_click_that_only_fills_another_field_is_a_value_change(
    engine: BrowserEngine, widgets: WidgetSite
) -> None:
    surface = await engine.new_session()
    try:
        await surface.goto(widgets.url("shortcuts"))
        screen = await surface.snapshot()
        for button in ("Today", "More guests"):
            effect = await surface.click(_ref(screen, button))
            assert effect.values_changed and effect.changed, button
            assert not effect.dom_changed and not effect.navigated, button
        assert await surface.read_value(_ref(screen, "Guests")) == "3"
        effect = await surface.click(_ref(screen, "Day"))  # the field itself: no new value
        assert not effect.values_changed
    finally:
        await surface.close()


async def test_same_as_billing_copies_the_address_as_a_value_change(
    engine: BrowserEngine, widgets: WidgetSite
) -> None:
    surface = await engine.new_session()
    try:
        await surface.goto(widgets.url("same-as-billing"))
        screen = await surface.snapshot()
        await surface.fill(_ref(screen, "Street"), "1 Main St")
        effect = await surface.click(_ref(screen, "Shipping address same as billing"))
        assert effect.values_changed
        assert await surface.read_value(_ref(screen, "Shipping street")) == "1 Main St"
    finally:
        await surface.close()
