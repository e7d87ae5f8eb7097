"""The runtime's other step kinds, guards and budgets on hand-written pages."""

from __future__ import annotations

import pytest

from gofer.runtime import RunBudget, RunStatus, RuntimeSettings, StepOutcome, Workspace
from gofer.surfaces import BrowserEngine, BrowserOptions

from .conftest import FAST, Opener, Pages, Runner

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

QUICK = RuntimeSettings(target_timeout_ms=600, settle_timeout_ms=5_000, wait_timeout_ms=2_000)


async def test_read_a_value_by_its_label(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/read/label",
        """
<h1>Your order</h1>
<p>Order total: <strong>₹1,250</strong></p>
<dl><dt>Status</dt><dd>Shipped</dd><dt>Carrier</dt><dd>BlueDart</dd></dl>
<label for="ref">Reference</label><input id="ref" value="AB-77" readonly>""",
    )
    result = await run(
        {
            "vars": {"total": "", "status": "", "ref": ""},
            "steps": [
                {"browse": url},
                {"read": "Order total", "as": "total"},
                {"read": "the status", "as": "status"},
                {"read": "Reference", "as": "ref"},
            ],
        }
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.changed == {"total": "₹1,250", "status": "Shipped", "ref": "AB-77"}


async def test_read_a_table_as_a_list_of_objects(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/read/table",
        """
<h1>Trains</h1>
<table>
  <thead><tr><th>Train</th><th>Departs</th><th>Fare</th><th></th></tr></thead>
  <tbody>
    <tr><td>Rajdhani</td><td>16:55</td><td>₹2,890</td><td><button>Book</button></td></tr>
    <tr><td>Duronto</td><td>22:10</td><td>₹2,410</td><td><button>Book</button></td></tr>
    <tr><td>Garib Rath</td><td>06:05</td><td>₹1,340</td><td><button>Book</button></td></tr>
  </tbody>
</table>""",
    )
    result = await run(
        {
            "vars": {"trains": []},
            "steps": [{"browse": url}, {"read": "the trains", "as": "trains", "list": True}],
        }
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    trains = result.changed["trains"]
    assert isinstance(trains, list) and len(trains) == 3
    first = trains[0]
    assert isinstance(first, dict)
    assert first["Train"] == "Rajdhani"
    assert first["Departs"] == "16:55"
    assert first["Fare"] == "₹2,890"
    assert [t["Train"] for t in trains if isinstance(t, dict)] == [
        "Rajdhani",
        "Duronto",
        "Garib Rath",
    ]
    assert all("Book" not in str(t.get("text")) for t in trains if isinstance(t, dict))


async def test_read_stays_in_the_card_or_column_its_words_name(run: Runner, pages: Pages) -> None:
    cards = "".join(
        f'<div class="card"><div class="t">{name}</div><div>{score} Excellent</div>'
        f"<div>${price}</div><a href='#'>See availability</a></div>"
        for name, score, price in (("Parkside Suites", "8.7", 199), ("The Wren", "9.4", 275))
    )
    url = pages.add(
        "/read/columns",
        f"""
<style>.grid{{display:grid;grid-template-columns:1fr 1fr;gap:16px}}
.card{{border:1px solid #ccc;padding:8px}}</style>
<h1>Stays</h1><div class="grid">{cards}</div>
<div class="grid"><div><p>Departure</p><p>06:10</p></div>
  <section><h3>Arrival</h3><p>08:45 next day</p></section></div>
<dl><dt>Fare</dt><dd>₹2,400 incl. taxes</dd></dl>
<table><tr><th>Subtotal</th><td>₹3,000</td></tr><tr><th>Total</th><td>₹3,512</td></tr></table>""",
    )
    result = await run(
        {
            "vars": {"wren": "", "arrival": "", "fare": "", "total": ""},
            "steps": [
                {"browse": url},
                {"read": "The Wren", "as": "wren"},
                {"read": "Arrival", "as": "arrival"},
                {"read": "Fare", "as": "fare"},
                {"read": "Total", "as": "total"},
            ],
        }
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    wren = str(result.changed["wren"])
    assert "9.4" in wren and "$275" in wren
    assert "8.7" not in wren and "See availability" not in wren
    assert result.changed["arrival"] == "08:45 next day"
    assert result.changed["fare"] == "₹2,400 incl. taxes"
    assert result.changed["total"] == "₹3,512"


LOAD_MORE = """
<ul id="items"><li>Item 1</li><li>Item 2</li></ul>
<button id="more">Load more</button>
<p id="end" hidden>No more results</p>
<script>
let n = 2;
document.getElementById('more').onclick = () => {
  setTimeout(() => {
    for (let i = 0; i < 2; i++) {
      n += 1; const li = document.createElement('li'); li.textContent = 'Item ' + n;
      document.getElementById('items').appendChild(li);
    }
    if (n >= 8) {
      document.getElementById('more').remove();
      document.getElementById('end').hidden = false;
    }
  }, 80);
};
</script>"""


async def test_repeat_until_load_more_runs_out(run: Runner, pages: Pages) -> None:
    url = pages.add("/steps/more", LOAD_MORE)
    result = await run(
        {
            "steps": [
                {"browse": url},
                {"verify": {"not_shows": "Item 3"}},
                {"repeat_until": {"shows": "No more results"}, "do": [{"click": "Load more"}]},
                {"verify": {"all": [{"shows": "Item 8"}, {"not_shows": "Item 9"}]}},
                {"repeat_until": {"shows": "No more results"}, "do": [{"click": "Load more"}]},
            ],
        }
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    clicks = [r for r in result.steps if r.path.startswith("2.do")]
    assert len(clicks) == 3 and all(r.outcome is StepOutcome.DONE for r in clicks)
    assert result.steps[-1].outcome is StepOutcome.ALREADY_DONE


async def test_repeat_until_gives_up_after_max_rounds(run: Runner, pages: Pages) -> None:
    url = pages.add("/steps/more-max", LOAD_MORE)
    result = await run(
        [
            {"browse": url},
            {
                "repeat_until": {"shows": "No more results"},
                "do": [{"click": "Load more"}],
                "max": 2,
            },
        ]
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "1"
    assert "after 2 rounds" in result.failure.reason


async def test_wait_and_if_and_verify(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/steps/wait",
        """
<p id="state">Loading…</p>
<button id="go" hidden>Start</button>
<script>setTimeout(() => {
  document.getElementById('state').textContent = 'Ready';
  document.getElementById('go').hidden = false;
}, 400);
document.getElementById('go').onclick = () => {
  document.getElementById('state').textContent = 'Started'; };
</script>""",
    )
    result = await run(
        {
            "vars": {"mode": "fast"},
            "steps": [
                {"browse": url},
                {"wait": {"shows": "Ready"}, "timeout_ms": 3000},
                {"if": {"var": "mode", "equals": "slow"}, "then": [{"click": "Nothing here"}]},
                {
                    "if": {"any": [{"shows": "Nope"}, {"var": "mode", "equals": "FAST"}]},
                    "then": [{"click": "Start"}],
                    "else": [{"click": "Nothing here"}],
                },
                {"verify": {"shows": "Started"}},
                {"wait": {"shows": "never"}, "timeout_ms": 300},
            ],
        }
    )
    assert result.status is RunStatus.FAILED
    outcomes = {r.path: r.outcome for r in result.steps}
    assert outcomes["2"] is StepOutcome.SKIPPED
    assert outcomes["3"] is StepOutcome.DONE and outcomes["3.then.0"] is StepOutcome.DONE
    assert "3.else.0" not in outcomes
    assert outcomes["4"] is StepOutcome.DONE
    assert result.failure is not None and result.failure.path == "5"
    assert "300 ms" in result.failure.reason
    assert result.top_level_done == 5


async def test_a_target_that_comes_late_is_waited_for(run_open: Opener, pages: Pages) -> None:
    url = pages.add(
        "/steps/late",
        """
<p id="out">waiting</p>
<script>setTimeout(() => {
  const b = document.createElement('button'); b.textContent = 'Continue';
  b.onclick = () => {
    const out = document.getElementById('out');
    out.textContent = 'went on'; out.dataset.clicks = Number(out.dataset.clicks || 0) + 1;
  };
  document.body.appendChild(b);
}, 700);</script>""",
    )
    async with run_open(
        [{"browse": url}, {"click": "Continue"}, {"verify": {"shows": "went on"}}]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        out = done.page.locator("#out")
        assert await out.text_content() == "went on"
        assert await out.get_attribute("data-clicks") == "1"


LATE_ROW = """
<h1>Festival T-Shirt</h1>
<div id="rows">
  <section aria-labelledby="s"><h5 id="s">Small</h5>
    <label>Quantity <input type="number" name="small"></label></section>
</div>
<script>setTimeout(() => {
  const row = document.createElement('section');
  row.setAttribute('aria-labelledby', 'l');
  row.innerHTML = '<h5 id="l">Large</h5><label>Quantity <input type="number" name="large"></label>';
  document.getElementById('rows').appendChild(row);
}, DELAY);</script>"""


async def test_a_place_the_within_words_name_that_comes_late_is_waited_for(
    run_open: Opener, pages: Pages
) -> None:
    """Until the row the within words name is drawn, the one row on screen is not it."""
    url = pages.add("/steps/late-row", LATE_ROW.replace("DELAY", "700"))
    async with run_open(
        [{"browse": url}, {"enter": "1", "into": "Quantity", "within": "Large"}]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("input[name=large]").input_value() == "1"
        assert await done.page.locator("input[name=small]").input_value() == ""


async def test_a_place_the_within_words_name_that_never_comes_fails_the_step(
    run_open: Opener, pages: Pages
) -> None:
    url = pages.add("/steps/no-row", LATE_ROW.replace("DELAY", "60000"))
    async with run_open(
        [{"browse": url}, {"enter": "1", "into": "Quantity", "within": "Large"}],
        settings=QUICK,
    ) as done:
        assert done.result.status is RunStatus.FAILED
        assert done.result.failure is not None
        assert "could not find 'Large'" in done.result.failure.reason
        assert await done.page.locator("input[name=small]").input_value() == ""


async def test_press_a_key(run_open: Opener, pages: Pages) -> None:
    url = pages.add(
        "/steps/press",
        """
<label for="q">Search</label><input id="q">
<p id="out"></p>
<ol id="searches"></ol>
<script>document.getElementById('q').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    document.getElementById('out').textContent = 'Searched for ' + e.target.value;
    const li = document.createElement('li'); li.textContent = e.target.value;
    document.getElementById('searches').appendChild(li);
  }
});</script>""",
    )
    async with run_open(
        [
            {"browse": url},
            {"enter": "shoes", "into": "Search"},
            {"press": "Enter"},
            {"verify": {"shows": "Searched for shoes"}},
            {"enter": "boots", "into": "Search", "submit": True},
            {"verify": {"shows": "Searched for boots"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        # one search per Enter, each with what was typed then
        assert await done.page.locator("#searches li").all_text_contents() == ["shoes", "boots"]
        assert await done.page.locator("#q").input_value() == "boots"


async def test_a_click_that_changes_nothing_fails(run: Runner, pages: Pages) -> None:
    url = pages.add("/steps/dead", "<p>Form</p><button>Save</button>")
    result = await run([{"browse": url}, {"click": "Save"}])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "changed nothing" in result.failure.reason
    assert result.steps[1].outcome is StepOutcome.FAILED


async def test_clickable_without_a_role_and_a_dialog_that_opens(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/steps/dialog",
        """
<div class="card" style="cursor:pointer" onclick="document.getElementById('dlg').showModal()">
  Show details</div>
<dialog id="dlg"><h2>Details</h2><p>Free cancellation until 24 h before.</p>
  <button onclick="this.closest('dialog').close(); document.body.append('closed')">Close</button>
</dialog>""",
    )
    result = await run(
        [
            {"browse": url},
            {"click": "Show details"},
            {"verify": {"shows": "Free cancellation"}},
            {"click": "Close"},
            {"verify": {"shows": "closed"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].element is not None and result.steps[1].element.role == "clickable"


async def test_a_new_tab_is_followed_and_left(run_open: Opener, pages: Pages) -> None:
    pages.add("/tabs/asked", "noted")
    pages.add(
        "/tabs/help",
        """<h1>Help centre</h1>
<button onclick="fetch('/tabs/asked', {method: 'POST'})
  .then(() => document.body.append('asked'))">Ask</button>
<button onclick="window.close()">Close this tab</button>""",
    )
    url = pages.add(
        "/tabs/main",
        """<h1>Shop</h1>
<a href="/tabs/help" target="_blank">Open help</a>""",
    )
    async with run_open(
        [
            {"browse": url},
            {"click": "Open help"},
            {"verify": {"shows": "Help centre"}},
            {"click": "Ask"},
            {"verify": {"shows": "asked"}},
            {"click": "Close this tab"},
            {"verify": {"shows": "Shop"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        # the help tab was opened once, asked in once, and is gone; the run is back home
        assert pages.hits.count("/tabs/help") == 1
        assert pages.hits.count("/tabs/asked") == 1
        assert [p.url for p in done.page.context.pages] == [url]


async def test_payment_and_irreversible_clicks_are_gated(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/guard/order",
        """<h1>Basket</h1>
<button onclick="document.body.append('ordered')">Place order</button>
<button onclick="document.body.append('deleted')">Delete account</button>""",
    )
    result = await run([{"browse": url}, {"click": "Place order"}])
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.consequence == "payment"
    assert "ordered" not in result.screen_text

    result = await run([{"browse": url}, {"click": "Delete account"}])
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.consequence == "irreversible"

    result = await run(
        [{"browse": url}, {"click": "Place order"}, {"verify": {"shows": "ordered"}}],
        allow_destructive=True,
    )
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_any_click_on_a_card_form_screen_is_gated(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/guard/card",
        """<h1>Payment</h1>
<form><label for="cn">Card number</label><input id="cn" autocomplete="cc-number">
<label for="cv">CVV</label><input id="cv" autocomplete="cc-csc">
<label for="ex">Expiry date</label><input id="ex" placeholder="MM/YY">
<button type="button" onclick="document.body.append('went')">Continue</button></form>""",
    )
    result = await run([{"browse": url}, {"click": "Continue"}])
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.payment_screen
    assert result.gate.consequence == "payment"
    assert "went" not in result.screen_text

    # a key that would submit the card form is a payment too
    typed = await run([{"browse": url}, {"enter": "08/29", "into": "Expiry date", "submit": True}])
    assert typed.status is RunStatus.GATED, typed.failure
    assert typed.gate is not None and typed.gate.payment_screen
    pressed = await run([{"browse": url}, {"press": "Enter"}])
    assert pressed.status is RunStatus.GATED
    assert pressed.steps[-1].outcome is StepOutcome.GATED


async def test_max_actions_is_a_clear_stop(run: Runner, pages: Pages) -> None:
    url = pages.add("/budget/more", LOAD_MORE)
    result = await run(
        [
            {"browse": url},
            {"repeat_until": {"shows": "No more results"}, "do": [{"click": "Load more"}]},
        ],
        budget=RunBudget(max_actions=2),
    )
    assert result.status is RunStatus.BUDGET_SPENT
    assert "max_actions" in result.reason and "2" in result.reason
    assert result.spend.actions == 2


async def test_do_needs_a_model_decider(run: Runner, pages: Pages) -> None:
    url = pages.add("/do/page", "<p>Hello</p>")
    result = await run([{"browse": url}, {"do": "close whatever popup is showing"}])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.kind == "do"
    assert "needs a model decider" in result.failure.reason

    judged = await run([{"browse": url}, {"verify": "the greeting is friendly"}])
    assert judged.status is RunStatus.FAILED
    assert judged.failure is not None and "needs a model decider" in judged.failure.reason


async def test_blocked_origins_fail_saying_so(run: Runner, pages: Pages) -> None:
    url = pages.add("/origins/home", '<a href="http://localhost:9/elsewhere">Elsewhere</a>')
    result = await run(
        [{"browse": url}, {"browse": "http://localhost:9/x"}], origins=(pages.origin,)
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "1"
    assert "blocked" in result.failure.reason and "origins" in result.failure.reason

    clicked = await run([{"browse": url}, {"click": "Elsewhere"}], origins=(pages.origin,))
    assert clicked.status is RunStatus.FAILED
    assert clicked.failure is not None and "blocked" in clicked.failure.reason


async def test_an_optional_step_that_fails_is_skipped(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/optional/page",
        """<p id="o">start</p>
<button onclick="document.getElementById('o').textContent='pressed'">Press me</button>""",
    )
    result = await run(
        [
            {"browse": url},
            {"click": "Accept cookies", "optional": True},
            {"click": "Press me"},
            {"verify": {"shows": "pressed"}},
        ],
        settings=QUICK,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].outcome is StepOutcome.SKIPPED
    assert result.steps[1].reason
    assert FAST.target_timeout_ms > QUICK.target_timeout_ms


async def test_a_workspace_whose_last_page_closed_opens_a_new_session(
    engine: BrowserEngine, pages: Pages
) -> None:
    url = pages.add("/steps/only-page", "<h1>Hello</h1>")
    workspace = Workspace(engine, BrowserOptions())
    try:
        first = await workspace.browser()
        await first.goto(url)
        await first.page.close()  # the site (or a crash) took the last page away
        second = await workspace.browser()
        assert second is not first and first.closed
        await second.goto(url)
        assert "Hello" in (await second.snapshot()).text
    finally:
        await workspace.close()


async def test_stop_before_prefers_an_enabled_control_and_never_presses_a_disabled_one(
    run: Runner, pages: Pages
) -> None:
    url = pages.add(
        "/steps/disabled-pay",
        """
<button disabled>Pay with wallet</button>
<button onclick="document.body.append('Paid by card')">Pay by card</button>""",
    )
    result = await run([{"browse": url}, {"stop_before": "paying"}])
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.label == "Pay by card"

    url = pages.add("/steps/only-disabled", "<button disabled>Delete account</button>")
    result = await run(
        [{"browse": url}, {"stop_before": "deleting the account"}], allow_destructive=True
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "is disabled" in result.failure.reason


async def test_a_slider_drawn_over_a_hidden_read_only_input_is_moved_by_its_keys(
    run_open: Opener, pages: Pages
) -> None:
    # a slider script's shape: the value lives in a read-only input out of the tab order
    # and out of sight; the drawn track holds the tab stop and writes the value only when
    # it redraws, on a timer of its own
    url = pages.add(
        "/steps/drawn-slider",
        """
<div><label for="budget">Budget</label>
<span class="track" tabindex="0" style="display:block;width:300px;height:1px;margin:8px 0"></span>
<span class="shown">100</span>
<input id="budget" value="100" readonly tabindex="-1"
  style="position:absolute;top:0;left:0;width:0;height:0;padding:0;border:2px solid transparent">
</div>
<div><label for="ref">Reference</label><input id="ref" value="R-1" readonly></div>
<script>
let want = 100;
document.querySelector('.track').addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') want = Math.min(500, want + 10);
  if (e.key === 'ArrowLeft') want = Math.max(50, want - 10);
});
const draw = () => {
  const input = document.getElementById('budget');
  if (String(want) !== input.value) {
    input.value = String(want);
    document.querySelector('.shown').textContent = String(want);
  }
  setTimeout(draw, 300);
};
draw();
</script>""",
    )
    async with run_open([{"browse": url}, {"enter": "150", "into": "Budget"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#budget").input_value() == "150"
    async with run_open([{"browse": url}, {"enter": "7", "into": "Reference"}]) as done:
        assert done.result.failure is not None
        assert "read-only and nothing on the page fills it" in done.result.failure.reason
        assert await done.page.locator("#ref").input_value() == "R-1"


async def test_a_value_an_interval_sends_later_goes_before_the_next_click(
    run_open: Opener, pages: Pages
) -> None:
    # a scheduler's debounce (as rxjs runs it, on setInterval): the slider's value goes
    # to the app 300 ms after its last change; a send clicked before then sent the old one
    url = pages.add(
        "/steps/debounced",
        """
<label for="b">Budget</label><input id="b" type="range" min="0" max="500" step="50" value="100">
<button id="send">Send request</button><p id="out"></p>
<script>
let known = '100', pending = null, sent = [];
document.getElementById('b').addEventListener('input', (e) => {
  if (pending !== null) clearInterval(pending);
  pending = setInterval(() => {
    clearInterval(pending); pending = null; known = e.target.value;
  }, 300);
});
document.getElementById('send').addEventListener('click', () => {
  sent.push(known);
  document.getElementById('out').textContent = 'Sent ' + known;
});
</script>""",
    )
    flow = [{"browse": url}, {"enter": "250", "into": "Budget"}, {"click": "Send request"}]
    async with run_open(flow, allow_destructive=True) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("sent") == ["250"]


async def test_a_slider_is_named_by_its_caption_not_by_its_axis(
    run_open: Opener, pages: Pages
) -> None:
    # a slider drawn with a scale of numbers inside it before its handle, captioned by a
    # label tied to nothing: the numbers are its own, the caption names it
    url = pages.add(
        "/steps/axis-slider",
        """
<div><label>Hotel budget (EUR)</label>
<div class="slider" style="position:relative;width:300px;height:40px">
  <div class="axis"><span>50</span> <span>200</span> <span>350</span> <span>500</span></div>
  <span id="h" role="slider" tabindex="0" aria-valuemin="50" aria-valuemax="500"
    aria-valuenow="100" style="position:absolute;top:20px;left:20px;width:12px;height:12px;
    background:#333"></span>
</div></div>
<script>
const h = document.getElementById('h');
h.addEventListener('keydown', (e) => {
  const now = Number(h.getAttribute('aria-valuenow'));
  if (e.key === 'ArrowRight') h.setAttribute('aria-valuenow', String(Math.min(500, now + 50)));
  if (e.key === 'ArrowLeft') h.setAttribute('aria-valuenow', String(Math.max(50, now - 50)));
});
</script>""",
    )
    async with run_open([{"browse": url}, {"enter": "250", "into": "Hotel budget (EUR)"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#h").get_attribute("aria-valuenow") == "250"


async def test_a_slider_whose_box_has_no_area_is_moved_through_its_thumb(
    run_open: Opener, pages: Pages
) -> None:
    # the element with the slider's role and name is a zero-size container around the
    # thumb it draws (a component library's thumb container)
    url = pages.add(
        "/steps/thumb-slider",
        """
<p>Budget</p>
<div style="position:relative;width:300px;height:30px;background:#eee">
  <div id="s" role="slider" tabindex="0" aria-label="Budget" aria-valuemin="0"
    aria-valuemax="10" aria-valuenow="2" style="position:absolute;left:60px;top:15px;
    width:0;height:0">
    <div style="position:absolute;left:-6px;top:-6px;width:12px;height:12px;
      border-radius:50%;background:#1976d2"></div>
  </div>
</div>
<script>
const s = document.getElementById('s');
s.addEventListener('keydown', (e) => {
  const now = Number(s.getAttribute('aria-valuenow'));
  const next = e.key === 'ArrowRight' ? Math.min(10, now + 1)
    : e.key === 'ArrowLeft' ? Math.max(0, now - 1) : now;
  s.setAttribute('aria-valuenow', String(next));
  s.style.left = next * 30 + 'px';
});
</script>""",
    )
    async with run_open([{"browse": url}, {"enter": "7", "into": "Budget"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#s").get_attribute("aria-valuenow") == "7"
