"""The browser surface on real Chromium: origins, sessions, tabs, settling, effects."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.errors import BlockedOrigin, SurfaceError
from gofer.surfaces import BrowserEngine, BrowserOptions, Screen

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]


def ref_of(screen: Screen, name: str) -> str:
    for el in screen.elements:
        if el.name == name:
            return el.ref
    raise AssertionError(f"no element named {name!r} in {[e.name for e in screen.elements]}")


async def test_origins_block_navigation_and_subresources(
    engine: BrowserEngine, make_site: Any
) -> None:
    home, other = make_site(), make_site()
    svg = "<svg xmlns='http://www.w3.org/2000/svg'/>"
    other.add("/pixel.svg", svg, content_type="image/svg+xml")
    other.add("/page", "<p>elsewhere</p>")
    home.add(
        "/",
        f"<h1>Home</h1><img src='{other.url('/pixel.svg')}'>"
        f"<a href='{other.url('/page')}'>Leave</a>",
    )
    surface = await engine.new_session(BrowserOptions(origins=(home.origin,)))
    try:
        await surface.goto(home.url("/"))
        assert other.url("/pixel.svg") in surface.blocked
        assert "/pixel.svg" not in other.hits

        with pytest.raises(BlockedOrigin) as err:
            await surface.goto(other.url("/page"))
        assert err.value.details["url"] == other.url("/page")
        assert "blocked by origins" in str(err.value)

        screen = await surface.snapshot()
        with pytest.raises(BlockedOrigin) as err:
            await surface.click(ref_of(screen, "Leave"))
        assert err.value.details["url"] == other.url("/page")
        assert other.hits == []
    finally:
        await surface.close()


async def test_sessions_do_not_share_cookies(engine: BrowserEngine, site: Any) -> None:
    site.add("/set", "<p>set</p>", headers={"Set-Cookie": "who=alice; Path=/"})
    site.add("/echo", "<p>cookie: {cookie}</p>")
    first = await engine.new_session()
    second = await engine.new_session()
    try:
        await first.goto(site.url("/set"))
        await first.goto(site.url("/echo"))
        assert "cookie: who=alice" in (await first.snapshot()).text
        await second.goto(site.url("/echo"))
        assert "cookie: none" in (await second.snapshot()).text
    finally:
        await first.close()
        await second.close()
    await first.close()  # idempotent


async def test_new_tab_is_followed_and_left(engine: BrowserEngine, site: Any) -> None:
    site.add("/", "<a href='/tab' target='_blank'>Open details</a>")
    site.add("/tab", "<h1>Details</h1><button onclick='window.close()'>Done</button>")
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        effect = await surface.click(ref_of(await surface.snapshot(), "Open details"))
        assert effect.new_page and effect.changed
        assert surface.url == site.url("/tab")
        screen = await surface.snapshot()
        assert "Details" in screen.text
        assert surface.pages == 2

        await surface.click(ref_of(screen, "Done"))
        assert surface.url == site.url("/")
        assert "Open details" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_settle_waits_for_a_slow_fetch(engine: BrowserEngine, site: Any) -> None:
    site.add("/data", '{"price": "4,500"}', content_type="application/json", delay_s=0.4)
    site.add(
        "/",
        """<button id=b>Search</button><div id=out></div><script>
        b.onclick = async () => {
          const r = await fetch('/data'); const d = await r.json();
          out.textContent = 'Cheapest: ' + d.price;
        };</script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        effect = await surface.click(ref_of(await surface.snapshot(), "Search"))
        assert effect.dom_changed
        assert "Cheapest: 4,500" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_click_that_does_nothing_is_told_apart(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        """<button>Nothing</button><button onclick="document.body.append('Added!')">Add</button>
        <a href="#">Top</a>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        nothing = await surface.click(ref_of(screen, "Nothing"))
        assert not nothing.changed
        added = await surface.click(ref_of(screen, "Add"))
        assert added.dom_changed and not added.navigated
        assert "Added!" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_fields_and_reading_values(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        """<label>Name <input id=n></label><div id=echo></div>
        <label>Class
          <select><option>Economy</option><option>Business class</option></select></label>
        <label><input type=checkbox> Insurance</label>
        <div contenteditable=true aria-label="Notes"></div>
        <label>City <input role=combobox aria-autocomplete=list id=c></label><ul id=sug></ul>
        <label>Phone <input id=p></label>
        <script>
        n.addEventListener('change', () => { echo.textContent = 'changed to ' + n.value; });
        p.addEventListener('change', () => setTimeout(() => {
          p.value = p.value.replace(/([0-9]{3})([0-9]{3})([0-9]+)/, '$1 $2 $3');
        }, 20));
        c.addEventListener('keyup', () => { sug.innerHTML = '<li>' + c.value + ' (city)</li>'; });
        </script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        await surface.fill(ref_of(screen, "Name"), "Asha")
        assert await surface.read_value(ref_of(screen, "Name")) == "Asha"
        await surface.select_option(ref_of(screen, "Class"), "business CLASS")
        assert await surface.read_value(ref_of(screen, "Class")) == "Business class"
        await surface.set_checked(ref_of(screen, "Insurance"), True)
        assert await surface.read_value(ref_of(screen, "Insurance")) == "true"
        await surface.fill(ref_of(screen, "Notes"), "window seat")
        effect = await surface.fill(ref_of(screen, "City"), "Srinagar")
        assert effect.dom_changed
        assert effect.value == "Srinagar"
        # the value the field holds once the page settled, not the echo of the typing
        assert (await surface.fill(ref_of(screen, "Phone"), "9876543210")).value == "987 654 3210"
        after = await surface.snapshot()
        assert "changed to Asha" in after.text
        assert "Srinagar (city)" in after.text
        assert after.element(ref_of(after, "Notes")) is not None
        assert await surface.read_value(ref_of(after, "Notes")) == "window seat"
        assert after.element(ref_of(after, "Insurance")).checked is True  # type: ignore[union-attr]
        refs = [ref_of(after, "Name"), ref_of(after, "Insurance"), "e99999"]
        assert await surface.read_values(refs) == ["Asha", "true", None]
    finally:
        await surface.close()


async def test_an_action_begins_as_its_element_is_found(engine: BrowserEngine, site: Any) -> None:
    """On a page without frames an action takes no read of its own before it: its effect
    is still told (a box ticked by its hidden input's label, nothing else changing), and
    a ref whose element went away is STALE_REF, the page left as it was."""
    site.add(
        "/",
        """<label id=l><input type=checkbox id=c style="position:absolute; opacity:0">
        Insurance</label>
        <button>Idle</button><button id=gone>Going</button>
        <button onclick="document.getElementById('gone').remove()">Remove it</button>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        box = next(e.ref for e in screen.elements if e.role == "checkbox")
        ticked = await surface.click(box)
        assert ticked.state_changed and ticked.values_changed
        assert not ticked.navigated
        assert await surface.read_value(box) == "true"
        assert not (await surface.click(ref_of(screen, "Idle"))).changed
        going = ref_of(screen, "Going")
        await surface.click(ref_of(screen, "Remove it"))
        with pytest.raises(SurfaceError) as stale:
            await surface.click(going)
        assert stale.value.code == "STALE_REF"
        assert await surface.read_value(box) == "true"
    finally:
        await surface.close()


async def test_wait_for_change_and_screenshot(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        "<button onclick=\"setTimeout(() => document.body.append('Late'), 300)\">Later</button>",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        assert await surface.wait_for_change(200) is False
        screen = await surface.snapshot()
        element = await surface.element(ref_of(screen, "Later"))
        await element.evaluate("(b) => b.click()")
        assert await surface.wait_for_change(3000) is True
        png = await surface.screenshot()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
    finally:
        await surface.close()


async def test_keys_focus_and_scrolling(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        """<form onsubmit="event.preventDefault(); document.body.append('Sent ' + q.value)">
        <input id=q aria-label="Query"></form>
        <div style="height: 3000px"></div><button>Far away</button>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        await surface.focus(ref_of(screen, "Query"))
        await surface.press("a")
        effect = await surface.press("Enter")
        assert effect.dom_changed
        assert "Sent a" in (await surface.snapshot()).text
        far = ref_of(screen, "Far away")
        await surface.scroll_into_view(far)
        after = await surface.snapshot()
        box = next(el.box for el in after.elements if el.name == "Far away")
        assert 0 <= box.y < after.viewport.height
    finally:
        await surface.close()


async def test_settle_sees_late_and_chained_changes(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        """<button id=late>Late</button><button id=chain>Chain</button><div id=out></div>
        <script>
        late.onclick = () => setTimeout(() => out.append('Arrived late.'), 10);
        chain.onclick = () => {
          out.append('First part.');
          setTimeout(() => out.append('Second part.'), 30);
        };</script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        effect = await surface.click(ref_of(screen, "Late"))
        assert effect.dom_changed
        assert "Arrived late." in (await surface.snapshot()).text
        await surface.click(ref_of(screen, "Chain"))
        assert "Second part." in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_settle_waits_for_an_animation(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        """<button id=go>Slide</button>
        <div id=box style="width: 80px; height: 40px"><button>Target</button></div>
        <script>
        go.onclick = () => box.animate(
          [{ transform: 'translateX(0)' }, { transform: 'translateX(400px)' }],
          { duration: 300, fill: 'forwards' });
        </script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.click(ref_of(await surface.snapshot(), "Slide"))
        after = await surface.snapshot()
        target = next(el for el in after.elements if el.name == "Target")
        assert target.box.x >= 400
    finally:
        await surface.close()


TWEEN = """<button id=go>Show sizes</button><button id=spin>Spin</button>
<div id=panel style="height: 0; overflow: hidden"><p>Small</p><p>Medium</p><p>Large</p></div>
<button id=after>Add to cart</button><i id=dial></i>
<script>
// a script's slide-down, as jQuery's slideDown does it: the height set frame by frame
go.onclick = () => {
  const start = performance.now();
  const step = (now) => {
    const t = Math.min(1, (now - start) / 400);
    panel.style.height = (120 * t) + 'px';
    if (t < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
};
// an endless script animation the action starts: decoration once it ran a while
spin.onclick = () => {
  const step = (now) => {
    dial.style.opacity = String(now % 1000 / 1000);
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
};
</script>"""


async def test_settle_waits_for_a_script_tween_the_action_started(
    engine: BrowserEngine, site: Any
) -> None:
    """A panel a script slides open frame by frame (an inline style changed every frame) is
    the action's effect: the settle ends once it is open, not after its first frames; an
    endless script animation an action starts still lets the settle end."""
    site.add("/", TWEEN)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.click(ref_of(await surface.snapshot(), "Show sizes"))
        after = await surface.snapshot()
        add = next(el for el in after.elements if el.name == "Add to cart")
        show = next(el for el in after.elements if el.name == "Show sizes")
        assert add.box.y - (show.box.y + show.box.height) >= 120
        effect = await surface.click(ref_of(after, "Spin"))
        assert effect is not None
    finally:
        await surface.close()


SLOW_TWEEN = """<button id=go>Show sizes</button>
<div id=panel style="height: 0; overflow: hidden"><p>Small</p><p>Medium</p><p>Large</p></div>
<button id=after>Add to cart</button>
<script>
// a slide-down whose frames come 80 ms apart, as on a starved CPU or a tween drawn at a
// low frame rate: longer than the quiet a settle waits for between two frames
go.onclick = () => {
  const start = performance.now();
  let drawn = start;
  const step = (now) => {
    const t = Math.min(1, (now - start) / 500);
    if (now - drawn >= 80 || t === 1) {
      drawn = now;
      panel.style.height = (120 * t) + 'px';
    }
    if (t < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
};
</script>"""


async def test_settle_waits_for_a_tween_whose_frames_come_far_apart(
    engine: BrowserEngine, site: Any
) -> None:
    site.add("/", SLOW_TWEEN)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.click(ref_of(await surface.snapshot(), "Show sizes"))
        after = await surface.snapshot()
        add = next(el for el in after.elements if el.name == "Add to cart")
        show = next(el for el in after.elements if el.name == "Show sizes")
        assert add.box.y - (show.box.y + show.box.height) >= 120
    finally:
        await surface.close()


async def test_window_opened_by_a_script_is_followed(engine: BrowserEngine, site: Any) -> None:
    site.add("/", "<button onclick=\"window.open('/tab')\">Show receipt</button>")
    site.add("/tab", "<h1>Receipt</h1>")
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        effect = await surface.click(ref_of(await surface.snapshot(), "Show receipt"))
        assert effect.new_page
        assert surface.url == site.url("/tab")
        assert "Receipt" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_settle_waits_for_a_short_timer_the_action_set(
    engine: BrowserEngine, site: Any
) -> None:
    site.add(
        "/",
        """<button id=add>Add to cart</button><p id=cart>Cart is empty</p><script>
        add.onclick = () => {
          add.textContent = 'Adding…';
          setTimeout(() => { cart.textContent = 'Cart: 1 item'; add.textContent = 'Add'; }, 150);
        };</script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.click(ref_of(await surface.snapshot(), "Add to cart"))
        text = (await surface.snapshot()).text
        assert "Cart: 1 item" in text
        assert "Adding…" not in text
    finally:
        await surface.close()


async def test_screenshots_paint_over_typed_values(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/pay",
        "<label>Card number <input id=c></label>"
        "<iframe srcdoc='<label>CVC <input id=v></label>'></iframe>",
    )
    surface = await engine.new_session()
    try:
        shots: dict[tuple[str, bool], bytes] = {}
        for card in ("4111 1111 1111 1111", "5500 0000 0000 0004"):
            await surface.goto(site.url("/pay"))
            screen = await surface.snapshot()
            await surface.fill(ref_of(screen, "Card number"), card)
            await surface.fill(ref_of(screen, "CVC"), card[-3:])
            shots[card, True] = await surface.screenshot()
            shots[card, False] = await surface.screenshot(hide_fields=False)
        # The typed values show in a plain screenshot, and nothing of them in a hidden one.
        assert shots["4111 1111 1111 1111", False] != shots["5500 0000 0000 0004", False]
        assert shots["4111 1111 1111 1111", True] == shots["5500 0000 0000 0004", True]
    finally:
        await surface.close()


async def test_screenshots_paint_over_fields_in_dialogs_and_shadow_roots(
    engine: BrowserEngine, site: Any
) -> None:
    """A field in a modal dialog (drawn above the page) or in an open shadow root is
    painted over too, and nothing of the painting stays in the page afterwards."""
    site.add(
        "/sign-in",
        "<dialog id=d><label>Password <input id=p></label><div id=host></div></dialog>"
        "<script>"
        "document.getElementById('d').showModal();"
        "const root = document.getElementById('host').attachShadow({mode: 'open'});"
        "root.innerHTML = '<label>PIN <input id=n></label>';"
        "</script>",
    )
    surface = await engine.new_session()
    try:
        shots: dict[tuple[str, bool], bytes] = {}
        for secret in ("hunter2-first", "swordfish-second"):
            await surface.goto(site.url("/sign-in"))
            page = surface.page
            await page.fill("#p", secret)
            await page.locator("#n").fill(secret[-4:])
            shots[secret, True] = await surface.screenshot()
            shots[secret, False] = await surface.screenshot(hide_fields=False)
            left = await page.evaluate("document.querySelectorAll('gofer-mask').length")
            assert left == 0
            assert await page.input_value("#p") == secret
        assert shots["hunter2-first", False] != shots["swordfish-second", False]
        assert shots["hunter2-first", True] == shots["swordfish-second", True]
    finally:
        await surface.close()


async def test_screenshots_paint_over_text_the_mask_changes(
    engine: BrowserEngine, site: Any
) -> None:
    """A secret the page shows as text (a file's name it lists, in a frame and in a
    shadow root too) is painted over when the screenshot is given the task's mask;
    the rest of the page is not, and nothing of the painting stays in the page."""
    site.add(
        "/taken",
        "<style>body { font-family: monospace }</style><h1>Your documents</h1>"
        "<ul><li id=l></li><li>receipt-2026.pdf</li></ul><div id=host></div>"
        "<iframe srcdoc=''></iframe>",
    )
    surface = await engine.new_session()
    try:
        shots: dict[tuple[str, bool], bytes] = {}
        for secret in ("passport-aaaa.png", "passport-bbbb.png"):
            await surface.goto(site.url("/taken"))
            page = surface.page
            await page.evaluate(
                """(name) => {
                  document.getElementById('l').textContent = 'uploaded: ' + name;
                  const root = document.getElementById('host').attachShadow({mode: 'open'});
                  root.innerHTML = '<p style="font-family: monospace">' + name + '</p>';
                  const inner = document.querySelector('iframe').contentDocument;
                  inner.body.innerHTML = '<p style="font-family: monospace">' + name + '</p>';
                }""",
                secret,
            )
            shots[secret, True] = await surface.screenshot(
                hide_text=lambda text, s=secret: text.replace(s, "${passport}")
            )
            shots[secret, False] = await surface.screenshot()
            left = await page.evaluate(
                "[document.querySelectorAll('gofer-mask').length,"
                " Object.keys(window).filter((k) => k.startsWith('__gofer_texts')).length]"
            )
            assert left == [0, 0]
        assert shots["passport-aaaa.png", False] != shots["passport-bbbb.png", False]
        assert shots["passport-aaaa.png", True] == shots["passport-bbbb.png", True]
        assert shots["passport-aaaa.png", True] != shots["passport-aaaa.png", False]
    finally:
        await surface.close()


async def test_a_ticked_box_or_chosen_option_is_a_change(engine: BrowserEngine, site: Any) -> None:
    """Ticking a box or choosing an option changes no attribute; the effect still
    tells it, so the runtime does not wait for a late change. An inert span changes
    nothing."""
    site.add(
        "/",
        """<label><input type="checkbox"> Send me offers</label>
        <label><input type="radio" name="seat"> Window</label>
        <label>Cabin <select><option>Economy</option><option>Business</option></select></label>
        <span onclick="" id="inert">Just words</span>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        inert = await surface.click(ref_of(screen, "Just words"))
        assert not inert.changed and not inert.state_changed
        ticked = await surface.click(ref_of(screen, "Send me offers"))
        assert ticked.changed and ticked.state_changed and not ticked.dom_changed
        radio = await surface.set_checked(ref_of(screen, "Window"), True)
        assert radio.state_changed
        chosen = await surface.select_option(ref_of(screen, "Cabin"), "Business")
        assert chosen.changed and chosen.state_changed
    finally:
        await surface.close()


RACE = """<form action="/next"><input name="q" aria-label="Query"></form><div id="busy"></div>
<script>
document.querySelector('form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  setInterval(() => { document.getElementById('busy').textContent = performance.now(); }, 4);
  setTimeout(() => ev.target.submit(), 30);
});
</script>"""


async def test_a_page_replaced_while_it_settles_is_a_navigation(
    engine: BrowserEngine, site: Any
) -> None:
    """Enter submits a form and the next page commits while the surface is still
    settling the old one (never quiet): the action navigated and the new page is
    settled and read, every time."""
    site.add("/", RACE)
    site.add("/next", "<h1>Results</h1>", delay_s=0.05)
    surface = await engine.new_session()
    try:
        for _ in range(5):
            await surface.goto(site.url("/"))
            await surface.fill(ref_of(await surface.snapshot(), "Query"), "shoes")
            effect = await surface.press("Enter")
            assert effect.navigated
            assert surface.url == site.url("/next?q=shoes")
            assert "Results" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_snapshots_taken_while_the_page_is_replaced_read_a_whole_page(
    engine: BrowserEngine, site: Any
) -> None:
    """A page that replaces itself while it is being read: every snapshot reads
    either the old page or the new one, whole, and none fails."""
    rows = "".join(f"<li><a href='#{i}'>Item {i}</a></li>" for i in range(600))
    site.add(
        "/",
        f"<h1>Old page</h1><ul>{rows}</ul><script>"
        "setTimeout(() => { location.href = '/next'; }, 1500);</script>",
    )
    site.add("/next", "<h1>Results</h1>" + "<p>line</p>" * 300, delay_s=0.02)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        for _ in range(500):
            text = (await surface.snapshot()).text
            if "Results" in text:
                break
            assert "Old page" in text and "Item 599" in text
        assert "Results" in text
    finally:
        await surface.close()


async def test_a_change_between_reading_and_waiting_is_not_missed(
    engine: BrowserEngine, site: Any
) -> None:
    site.add("/", "<p>Results are loading</p>")
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.snapshot()
        assert await surface.wait_for_change(150) is False
        # The page changes after the screen was read but before anyone waits.
        await surface.page.evaluate("() => document.body.append('10 flights found')")
        assert await surface.wait_for_change(150) is True
        await surface.snapshot()
        assert await surface.wait_for_change(150) is False
    finally:
        await surface.close()


async def test_the_screen_read_as_an_action_settled_gives_way_to_a_later_change(
    engine: BrowserEngine, site: Any
) -> None:
    """The screen comes back with the settle that ends an action; a change the page makes
    after that settle (a timer past the settle's window) is on the next screen read."""
    site.add(
        "/",
        "<button id=go>Search</button><p id=out>idle</p><script>go.onclick = () => {"
        "out.textContent = 'searching'; setTimeout(() => { out.textContent = '3 found'; }, 900);"
        "};</script>",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.click(ref_of(await surface.snapshot(), "Search"))
        settled = await surface.snapshot()
        assert "searching" in settled.text and "3 found" not in settled.text
        assert await surface.wait_for_change(10_000) is True
        assert "3 found" in (await surface.snapshot()).text
    finally:
        await surface.close()


BUSY = """<header><span id=badge>0</span> <time id=clock></time>
<span id=spin style="display:inline-block;width:10px;height:10px;background:#333;
  animation:spin 0.5s linear infinite"></span></header>
<style>@keyframes spin{to{transform:rotate(360deg)}}</style>
<button id=none>Nothing</button><button id=search>Search</button>
<button id=add>Add to cart</button><p id=out></p>
<script>
window.polls = 0; window.ticks = 0;
setInterval(() => fetch('/poll').then((r) => r.json()).then((d) => {
  window.polls += 1; badge.textContent = d.count;
}), 60);
(function tick() {
  window.ticks += 1; clock.textContent = 'tick ' + window.ticks; setTimeout(tick, 200);
})();
search.onclick = async () => {
  const r = await fetch('/data'); const d = await r.json();
  out.textContent = 'Cheapest: ' + d.price;
};
add.onclick = () => setTimeout(() => { out.textContent = 'Cart: 1 item'; }, 150);
</script>"""


async def test_a_busy_page_settles_on_what_the_action_did(engine: BrowserEngine, site: Any) -> None:
    """A page that polls, animates and runs a clock: its own changes are no action's
    effect, and an action's own fetch and timer are still waited for."""
    site.add("/poll", '{"count": 3}', content_type="application/json", delay_s=0.02)
    site.add("/data", '{"price": "4,500"}', content_type="application/json", delay_s=0.4)
    site.add("/", BUSY)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.page.wait_for_function("window.polls >= 10 && window.ticks >= 3")
        screen = await surface.snapshot()
        nothing = await surface.click(ref_of(screen, "Nothing"))
        assert not nothing.changed
        searched = await surface.click(ref_of(screen, "Search"))
        assert searched.dom_changed
        assert "Cheapest: 4,500" in (await surface.snapshot()).text
        added = await surface.click(ref_of(screen, "Add to cart"))
        assert added.dom_changed
        assert "Cart: 1 item" in (await surface.snapshot()).text
    finally:
        await surface.close()


WAYS_TO_LEAVE_WORK = {
    "a timer": "setTimeout(() => {}, 5)",
    "a frame callback": "requestAnimationFrame(() => {})",
    "a message": "new MessageChannel().port1.postMessage(null)",
    "a request": "fetch('/').catch(() => {})",
    "a route change": "history.pushState(null, '', '#next')",
    "an element that loads": "document.body.append(document.createElement('iframe'))",
}


async def test_a_settle_knows_what_work_an_action_left(engine: BrowserEngine, site: Any) -> None:
    """Settling ends early only after an action that left nothing for later: every way a
    page schedules work while acting counts, what it does while idle does not."""
    site.add("/", "<script src=/app.js></script><p>Ready</p>")
    site.add("/app.js", "document.title = 'App';", content_type="text/javascript")
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        page = surface.page
        # the script the document loaded with has run: nothing is left of its load
        assert await page.evaluate("window.__gofer.workLeft()") is False
        begin = "window.__gofer.counters(null, true)"
        for way, script in WAYS_TO_LEAVE_WORK.items():
            await page.evaluate(begin)
            assert await page.evaluate("window.__gofer.workLeft()") is False, way
            await page.evaluate(script)
            assert await page.evaluate("window.__gofer.workLeft()") is True, way
        await page.evaluate(begin)
        await surface.settle()  # the page is idle from here on: its own work is no action's
        await page.evaluate("setInterval(() => {}, 1000); requestAnimationFrame(() => {})")
        assert await page.evaluate("window.__gofer.workLeft()") is False
    finally:
        await surface.close()


async def test_actions_reach_frames_and_shadow_roots_unseen_by_the_page(
    engine: BrowserEngine, site: Any
) -> None:
    """Refs in the page, in an open shadow root (nested too) and in a frame are clicked,
    filled and chosen; finding them leaves nothing the page can see (no mutation, no
    attribute); a ref whose element went away is STALE_REF."""
    site.add(
        "/",
        """<button onclick="out.textContent = 'light clicked'">Light</button>
        <p id=out></p><div id=host></div>
        <iframe srcdoc="<label>Framed <input id=f></label>
          <button onclick='this.textContent = &quot;Framed done&quot;'>Framed</button>"
          style="width:300px; height:90px; border:0"></iframe>
        <button id=gone>Going</button>
        <button onclick="document.getElementById('gone').remove()">Remove it</button>
        <script>
        const outer = host.attachShadow({mode: 'open'});
        outer.innerHTML = '<label>Inner <input id=i></label><div id=deeper></div>';
        const inner = outer.getElementById('deeper').attachShadow({mode: 'open'});
        inner.innerHTML = '<select aria-label="Deep"><option>One</option><option>Two</option>'
          + '</select>';
        window.seen = [];
        const watch = (root) => new MutationObserver((records) => {
          for (const r of records) if (r.type === 'attributes') seen.push(r.attributeName);
        }).observe(root, {subtree: true, attributes: true});
        watch(document); watch(outer); watch(inner);
        </script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        framed_input = ref_of(screen, "Framed")
        assert framed_input.startswith("f1:")
        await surface.click(ref_of(screen, "Light"))
        await surface.fill(ref_of(screen, "Inner"), "in the shadow")
        await surface.select_option(ref_of(screen, "Deep"), "Two")
        await surface.fill(framed_input, "in the frame")
        framed_button = next(
            e.ref for e in screen.elements if e.role == "button" and e.name == "Framed"
        )
        await surface.click(framed_button)
        assert await surface.read_value(ref_of(screen, "Inner")) == "in the shadow"
        assert await surface.read_value(ref_of(screen, "Deep")) == "Two"
        assert await surface.read_value(framed_input) == "in the frame"
        after = await surface.snapshot()
        assert "light clicked" in after.text
        assert "Framed done" in [e.name for e in after.elements]
        page = surface.page
        assert await page.evaluate("window.seen") == []
        attributes = await page.evaluate(
            "[...document.querySelectorAll('*')].flatMap((e) => [...e.attributes])"
            ".map((a) => a.name).filter((n) => n.startsWith('data-') || n.includes('gofer'))"
        )
        assert attributes == []

        going = ref_of(after, "Going")
        await surface.click(ref_of(after, "Remove it"))
        with pytest.raises(SurfaceError) as stale:
            await surface.click(going)
        assert stale.value.code == "STALE_REF"

        # a page whose policy forbids inline scripts and eval is acted on alike
        site.add(
            "/strict",
            "<label>Code <input id=c></label><a href='/after'>Go on</a>",
            headers={"Content-Security-Policy": "default-src 'self'; script-src 'none'"},
        )
        site.add("/after", "<p>Arrived</p>")
        await surface.goto(site.url("/strict"))
        strict = await surface.snapshot()
        await surface.fill(ref_of(strict, "Code"), "1234")
        assert await surface.read_value(ref_of(strict, "Code")) == "1234"
        assert (await surface.click(ref_of(strict, "Go on"))).navigated
        assert "Arrived" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_a_switch_drawn_small_in_a_wide_box_is_clicked_on_its_track(
    engine: BrowserEngine, site: Any
) -> None:
    # Bokeh's switch: a role=switch box as wide as its column whose shadow root draws the
    # track at its left; only the track takes a click, the middle of the box does nothing.
    site.add(
        "/",
        """<div id=sw role=switch aria-checked=false aria-label="Email me offers"
            style="display:block;width:240px;height:18px"></div>
        <script>
          const host = document.getElementById("sw");
          const root = host.attachShadow({ mode: "open" });
          root.innerHTML = '<style>.bar{width:30px;height:16px;background:#bbb}</style>' +
            '<div class="bar"></div>';
          const flip = () => host.getAttribute("aria-checked") !== "true";
          root.querySelector(".bar").addEventListener("click", () =>
            host.setAttribute("aria-checked", String(flip())));
        </script>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        await surface.click(ref_of(screen, "Email me offers"))
        switch = next(e for e in (await surface.snapshot()).elements if e.role == "switch")
        assert switch.checked is True
    finally:
        await surface.close()
