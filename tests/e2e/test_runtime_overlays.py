"""What covers a step's target and the flow does not mention: consent walls, popups,
and walls only a person may pass."""

from __future__ import annotations

import time

import pytest

from gofer.runtime import RunStatus
from gofer.safety import human_wall

from .conftest import Pages, Runner

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PAGE = """
<h1>Shop</h1><p id="said">Nothing chosen</p>
<button onclick="document.getElementById('said').textContent = 'Opened the sale'">
  Summer sale</button>
<div id="wall" style="position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:9">
  <div role="dialog" aria-modal="true" aria-labelledby="t"
       style="background:#fff;margin:120px auto;width:480px;padding:16px">
    <h2 id="t">{title}</h2><p>{body}</p>{buttons}
  </div></div>
<script>
for (const b of document.querySelectorAll('#wall button')) b.addEventListener('click', () => {{
  document.getElementById('wall').remove();
  document.getElementById('said').textContent = 'Wall answered: ' + b.textContent.trim();
}});
</script>"""

SALE = [{"click": "Summer sale"}, {"verify": {"shows": "Opened the sale"}}]


def _wall(title: str, body: str, *buttons: str) -> str:
    return PAGE.format(
        title=title, body=body, buttons="".join(f"<button>{b}</button>" for b in buttons)
    )


async def test_a_wall_over_the_target_is_closed_with_its_least_consenting_choice(
    run: Runner, pages: Pages
) -> None:
    url = pages.add(
        "/cover/consent",
        _wall(
            "We care about your privacy",
            "We and our partners use cookies.",
            "Accept all",
            "Close",
            "Only necessary",
            "Reject all",
        ),
    )
    result = await run([{"browse": url}, *SALE])
    assert result.status is RunStatus.COMPLETED, result.failure
    dismissed = [t.detail for t in result.trace if t.event == "dismiss"]
    assert dismissed == [{"cover": "We care about your privacy", "control": "Reject all"}]
    assert result.steps[1].actions == 3  # Escape, Reject all, the click itself


async def test_a_wall_with_nothing_that_closes_it_fails_at_once_saying_so(
    run: Runner, pages: Pages
) -> None:
    url = pages.add(
        "/cover/no-way-out",
        _wall(
            "We care about your privacy",
            "We and our partners use cookies.",
            "Accept all",
            "Manage settings",
        ),
    )
    started = time.perf_counter()
    result = await run([{"browse": url}, *SALE])
    assert time.perf_counter() - started < 6
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert result.failure.reason == (
        "'Summer sale' is covered by a dialog ('We care about your privacy'); "
        "the flow does not say how to close it"
    )


async def test_a_login_wall_over_the_target_is_left_for_a_person(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/cover/login", _wall("Sign in to continue", "Members see the sale first.", "Sign in", "×")
    )
    result = await run([{"browse": url}, *SALE])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "a login wall" in result.failure.reason
    assert not [t for t in result.trace if t.event == "dismiss"]
    assert human_wall(result.screen_text) == "a login wall"


async def test_a_banner_over_part_of_the_page_is_closed_too(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/cover/banner",
        """
<h1>Shop</h1><p id="said">Nothing chosen</p>
<div style="height:640px"></div>
<button style="width:300px;height:60px"
  onclick="document.getElementById('said').textContent = 'Opened the sale'">Summer sale</button>
<div id="banner" style="position:fixed;left:0;right:0;top:600px;height:200px;background:#eee;
     z-index:9"><p>Get 10% off your first order when you join our newsletter.</p>
  <button>Join</button><button>No thanks</button></div>
<script>
document.querySelector('#banner button:last-child').onclick = () =>
  document.getElementById('banner').remove();
</script>""",
    )
    result = await run([{"browse": url}, *SALE])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [t.detail["control"] for t in result.trace if t.event == "dismiss"] == ["No thanks"]


async def test_a_card_form_over_the_target_is_not_closed(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/cover/card",
        _wall(
            "Complete your membership",
            """
<label>Card number <input name="cc"></label> <label>CVV <input name="cvv"></label>
<label>Expiry date <input name="exp"></label>""",
            "Pay $9",
            "Close",
        ),
    )
    result = await run([{"browse": url}, *SALE])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "asking for card details" in result.failure.reason
    assert not [t for t in result.trace if t.event == "dismiss"]
