"""``choose`` and ``enter`` on hand-written pages: every kind of control a person picks in.

Each page writes what was picked into a status line, and the flow ends with a
``verify`` of that line, so a wrong pick fails the run itself; the tests also read
the controls' own values and the page's log of what was shown.
"""

from __future__ import annotations

import pytest

from gofer.facts import Facts
from gofer.runtime import RunStatus, StepOutcome

from .conftest import Opener, Pages, Runner

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

STATUS = """<p id="status">nothing yet</p>
<script>window.shown = [];
function show(text) {
  document.getElementById('status').textContent = text; window.shown.push(text);
}</script>"""


async def test_native_select(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/choose/select",
        STATUS
        + """
<label for="c">Country</label>
<select id="c" onchange="show('country=' + this.value)">
  <option>India</option><option>Nepal</option><option>Sri Lanka</option>
</select>""",
    )
    result = await run(
        [
            {"browse": url},
            {"choose": "nepal", "in": "Country"},
            {"verify": {"shows": "country=Nepal"}},
            {"choose": "Nepal", "in": "Country"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].element is not None and result.steps[1].element.name == "Country"
    assert result.steps[3].outcome is StepOutcome.ALREADY_DONE


async def test_a_switch_that_keeps_its_own_state_is_read_by_what_it_states(
    run_open: Opener, pages: Pages
) -> None:
    # a component's switch: a hidden native box inside a wrapper whose click handler
    # flips the component's state and cancels the native toggle; the state shows in the
    # drawn track and in aria-checked, while the native box stays unticked
    url = pages.add(
        "/choose/kept-switch",
        """
<label for="sw">Email me offers</label>
<div class="switch" style="display:inline-block;width:40px;height:20px;background:#ccc">
  <input id="sw" type="checkbox" role="switch" aria-checked="false"
    style="position:absolute;width:0;height:0;opacity:0;margin:0">
</div>
<script>
let on = false;
const box = document.getElementById('sw');
document.querySelector('.switch').addEventListener('click', (e) => {
  e.preventDefault();
  on = !on;
  box.setAttribute('aria-checked', String(on));
  e.currentTarget.style.background = on ? '#409eff' : '#ccc';
});
</script>""",
    )
    flow = [{"browse": url}, {"choose": "on", "in": "Email me offers"}]
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#sw").get_attribute("aria-checked") == "true"
        assert await done.page.evaluate("on") is True


async def test_multi_select_adds_to_what_is_selected(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/choose/multi",
        STATUS
        + """
<label for="t">Toppings</label>
<select id="t" multiple size="4" onchange="show('picked: ' +
  Array.from(this.selectedOptions).map(o => o.text).join(', '))">
  <option>Cheese</option><option selected>Olives</option><option>Onion</option>
  <option>Basil</option>
</select>""",
    )
    result = await run(
        [
            {"browse": url},
            {"choose": "Basil", "in": "Toppings"},
            {"choose": "Cheese", "in": "Toppings"},
            {"verify": {"shows": "picked: Cheese, Olives, Basil"}},
            {"choose": "Olives", "in": "Toppings"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[4].outcome is StepOutcome.ALREADY_DONE


async def test_custom_listbox(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/choose/listbox",
        STATUS
        + """
<span id="size-label">Size</span>
<button id="size" aria-haspopup="listbox" aria-expanded="false"
  aria-labelledby="size-label size">Medium</button>
<ul role="listbox" id="sizes" aria-labelledby="size-label" hidden>
  <li role="option" aria-selected="false">Small</li>
  <li role="option" aria-selected="true">Medium</li>
  <li role="option" aria-selected="false">Large</li>
</ul>
<script>
const btn = document.getElementById('size'), list = document.getElementById('sizes');
btn.onclick = () => {
  list.hidden = !list.hidden; btn.setAttribute('aria-expanded', !list.hidden); };
for (const li of list.querySelectorAll('li')) li.onclick = () => {
  for (const o of list.querySelectorAll('li')) o.setAttribute('aria-selected', o === li);
  btn.textContent = li.textContent; list.hidden = true;
  btn.setAttribute('aria-expanded', 'false'); show('size=' + li.textContent);
};
</script>""",
    )
    result = await run(
        [
            {"browse": url},
            {"choose": "Large", "in": "Size"},
            {"verify": {"shows": "size=Large"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    chosen = result.steps[1].element
    assert chosen is not None and (chosen.role, chosen.name) == ("option", "Large")


async def test_radio_group(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/choose/radio",
        STATUS
        + """
<fieldset><legend>Seat preference</legend>
  <label><input type="radio" name="seat" value="window"
    onchange="show('seat=window')"> Window</label>
  <label><input type="radio" name="seat" value="aisle"
    onchange="show('seat=aisle')"> Aisle</label>
  <label><input type="radio" name="seat" value="middle"
    onchange="show('seat=middle')"> Middle</label>
</fieldset>""",
    )
    result = await run(
        [
            {"browse": url},
            {"choose": "Aisle", "in": "Seat preference"},
            {"verify": {"shows": "seat=aisle"}},
            {"choose": "aisle", "in": "Seat preference"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].element is not None and result.steps[1].element.role == "radio"
    assert result.steps[3].outcome is StepOutcome.ALREADY_DONE


async def test_checkbox_ticked_and_already_ticked(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/choose/checkbox",
        STATUS
        + """
<label><input type="checkbox" id="news" onchange="show('offers=' + this.checked)">
  Send me offers</label>
<label><input type="checkbox" id="terms" checked> I accept the terms</label>""",
    )
    result = await run(
        [
            {"browse": url},
            {"choose": "yes", "in": "Send me offers"},
            {"verify": {"shows": "offers=true"}},
            {"choose": "yes", "in": "I accept the terms"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].outcome is StepOutcome.DONE
    assert result.steps[3].outcome is StepOutcome.ALREADY_DONE


async def test_tabs(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/choose/tabs",
        """
<div role="tablist" aria-label="Payment options">
  <button role="tab" id="t1" aria-selected="true" aria-controls="p1">Card</button>
  <button role="tab" id="t2" aria-selected="false" aria-controls="p2" tabindex="-1">UPI</button>
</div>
<div role="tabpanel" id="p1">Enter your card</div>
<div role="tabpanel" id="p2" hidden>Enter your UPI ID</div>
<script>
for (const t of document.querySelectorAll('[role=tab]')) t.onclick = () => {
  for (const o of document.querySelectorAll('[role=tab]')) {
    o.setAttribute('aria-selected', o === t);
    document.getElementById(o.getAttribute('aria-controls')).hidden = o !== t;
  }
};
</script>""",
    )
    result = await run(
        [
            {"browse": url},
            {"choose": "UPI", "in": "Payment options"},
            {"verify": {"shows": "Enter your UPI ID"}},
            {"verify": {"not_shows": "Enter your card"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].element is not None and result.steps[1].element.role == "tab"


CALENDAR = (
    STATUS
    + """
<label for="checkin">Check-in</label>
<input id="checkin" readonly placeholder="Pick a date">
<div id="cal" role="dialog" aria-label="Choose a date" hidden>
  <button id="prev" aria-label="Previous month">&lt;</button>
  <h2 id="month"></h2>
  <button id="next" aria-label="Next month">&gt;</button>
  <div id="days" role="grid"></div>
</div>
<script>
const names = ['January','February','March','April','May','June','July','August',
  'September','October','November','December'];
let year = 2026, month = 8;  // September 2026
const input = document.getElementById('checkin'), cal = document.getElementById('cal');
function draw() {
  document.getElementById('month').textContent = names[month] + ' ' + year;
  const days = document.getElementById('days');
  days.setAttribute('aria-label', names[month] + ' ' + year);
  days.innerHTML = '';
  const n = new Date(year, month + 1, 0).getDate();
  for (let d = 1; d <= n; d++) {
    const b = document.createElement('button');
    b.textContent = d;
    b.onclick = () => {
      input.value = d + ' ' + names[month] + ' ' + year; cal.hidden = true;
      show('check-in=' + input.value);
    };
    days.appendChild(b);
  }
}
input.onclick = () => { cal.hidden = false; draw(); };
document.getElementById('prev').onclick = () => {
  month -= 1; if (month < 0) { month = 11; year -= 1; } draw(); };
document.getElementById('next').onclick = () => {
  month += 1; if (month > 11) { month = 0; year += 1; } draw(); };
</script>"""
)


async def test_date_picker_moves_month_by_month(run: Runner, pages: Pages) -> None:
    url = pages.add("/choose/calendar", CALENDAR)
    result = await run(
        [
            {"browse": url},
            {"choose": "14 Nov 2026", "in": "Check-in"},
            {"verify": {"shows": "check-in=14 November 2026"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    # open, two "Next month" presses, then the day
    assert result.steps[1].actions == 4
    moves = [
        e
        for e in result.trace
        if e.event == "action"
        and e.detail.get("what") == "move the calendar forward with 'Next month'"
    ]
    assert len(moves) == 2


async def test_date_picker_goes_back_too(run_open: Opener, pages: Pages) -> None:
    url = pages.add("/choose/calendar-back", CALENDAR)
    async with run_open(
        [
            {"browse": url},
            {"choose": "2026-07-03", "in": "Check-in"},
            {"verify": {"shows": "check-in=3 July 2026"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#checkin").input_value() == "3 July 2026"
        assert await done.page.locator("#cal").is_hidden()
        assert await done.page.evaluate("window.shown") == ["check-in=3 July 2026"]


PREV = '<button id="prev" aria-label="Previous month">&lt;</button>'
NEXT = '<button id="next" aria-label="Next month">&gt;</button>'
ARROWS = {
    # named by a title that ends with the month it goes to
    "titled": (
        '<button id="prev" title="Go to previous month August"><svg width="12" height="12">'
        '<path d="M8 2 L4 6 L8 10"/></svg></button>',
        '<button id="next" title="Go to next month October"><svg width="12" height="12">'
        '<path d="M4 2 L8 6 L4 10"/></svg></button>',
    ),
    # no name at all: an aria-hidden icon font's chevron inside the button's own box
    "icon": (
        '<button id="prev"><span class="v-btn__content"><i aria-hidden="true" '
        'class="mdi mdi-chevron-left"></i></span></button>',
        '<button id="next"><span class="v-btn__content"><i aria-hidden="true" '
        'class="mdi mdi-chevron-right"></i></span></button>',
    ),
}


@pytest.mark.parametrize("arrows", list(ARROWS))
async def test_a_calendars_month_arrows_named_by_where_they_go(
    arrows: str, run: Runner, pages: Pages
) -> None:
    prev, nxt = ARROWS[arrows]
    html = CALENDAR.replace(PREV, prev).replace(NEXT, nxt)
    url = pages.add(f"/choose/calendar-arrows-{arrows}", html)
    result = await run(
        [
            {"browse": url},
            {"choose": "14 Nov 2026", "in": "Check-in"},
            {"verify": {"shows": "check-in=14 November 2026"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[1].actions == 4  # open, two months forward, the day


async def test_a_field_whose_own_label_lies_over_it_opens_its_calendar(
    run: Runner, pages: Pages
) -> None:
    html = CALENDAR.replace(
        '<label for="checkin">Check-in</label>\n'
        '<input id="checkin" readonly placeholder="Pick a date">',
        '<div style="position: relative; width: 220px">'
        '<input id="checkin" readonly style="width: 200px; height: 40px">'
        '<label for="checkin" style="position: absolute; left: 4px; top: 10px; width: 180px">'
        "Check-in</label></div>",
    )
    url = pages.add("/choose/calendar-label-over", html)
    result = await run(
        [
            {"browse": url},
            {"choose": "14 Nov 2026", "in": "Check-in"},
            {"verify": {"shows": "check-in=14 November 2026"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure


SCROLLING_CALENDAR = (
    STATUS
    + """
<script>document.documentElement.lang = 'en-GB';</script>
<label for="depart">Departure date</label>
<input id="depart">
<div id="cal" hidden><h2>December 2026</h2><div id="days"></div></div>
<script>
const input = document.getElementById('depart'), cal = document.getElementById('cal');
for (let d = 1; d <= 31; d++) {
  const b = document.createElement('button');
  b.textContent = d;
  b.onclick = () => { input.value = '12/' + String(d).padStart(2, '0') + '/2026'; commit(); };
  document.getElementById('days').appendChild(b);
}
input.onclick = () => { cal.hidden = false; };
input.oninput = () => { cal.hidden = false; };
function commit() {
  // takes only month/day/year, and only when Enter closes the calendar
  const m = /^(\\d{2})\\/(\\d{2})\\/(\\d{4})$/.exec(input.value);
  cal.hidden = true;
  if (!m || +m[1] > 12) { input.setAttribute('aria-invalid', 'true'); return; }
  input.removeAttribute('aria-invalid');
  show('depart=' + m[3] + '-' + m[1] + '-' + m[2]);
}
input.onkeydown = (e) => { if (e.key === 'Enter' && !cal.hidden) commit(); };
</script>"""
)


async def test_a_calendar_with_no_way_forward_has_its_field_typed(
    run: Runner, pages: Pages
) -> None:
    url = pages.add("/choose/calendar-no-arrows", SCROLLING_CALENDAR)
    result = await run(
        [
            {"browse": url},
            {"enter": "14 October 2027", "into": "Departure date"},
            {"verify": {"shows": "depart=2027-10-14"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_native_date_and_time_in_written_forms(run_open: Opener, pages: Pages) -> None:
    url = pages.add(
        "/choose/native",
        STATUS
        + """
<label for="d">Departure date</label>
<input type="date" id="d" onchange="report()">
<label for="t">Pickup time</label>
<input type="time" id="t" onchange="report()">
<script>function report() {
  const v = (id) => document.getElementById(id).value;
  show('date=' + v('d') + ' time=' + v('t'));
}</script>""",
    )
    async with run_open(
        [
            {"browse": url},
            {"choose": "14 Oct 2026", "in": "Departure date"},
            {"choose": "6:30 pm", "in": "Pickup time"},
            {"verify": {"shows": "date=2026-10-14 time=18:30"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#d").input_value() == "2026-10-14"
        assert await done.page.locator("#t").input_value() == "18:30"


AUTOCOMPLETE = (
    STATUS
    + """
<label for="city">City</label>
<input id="city" role="combobox" aria-autocomplete="list" aria-expanded="false"
  aria-controls="city-list" autocomplete="off">
<ul id="city-list" role="listbox" hidden></ul>
<script>
const cities = ['Pune (PNQ)', 'Patna (PAT)', 'Port Blair (IXZ)', 'Mumbai (BOM)'];
const box = document.getElementById('city'), list = document.getElementById('city-list');
box.addEventListener('input', () => {
  const q = box.value.toLowerCase();
  list.innerHTML = '';
  for (const c of cities.filter(c => q && c.toLowerCase().startsWith(q))) {
    const li = document.createElement('li');
    li.setAttribute('role', 'option'); li.textContent = c;
    li.onclick = () => { box.value = c; list.hidden = true; show('city=' + c); };
    list.appendChild(li);
  }
  list.hidden = !list.children.length;
  box.setAttribute('aria-expanded', !list.hidden);
});
</script>"""
)


async def test_enter_into_an_autocomplete_picks_the_suggestion(
    run_open: Opener, pages: Pages
) -> None:
    url = pages.add("/enter/autocomplete", AUTOCOMPLETE)
    async with run_open(
        [
            {"browse": url},
            {"enter": "Pune", "into": "City"},
            {"verify": {"shows": "city=Pune (PNQ)"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#city").input_value() == "Pune (PNQ)"
        assert await done.page.locator("#city-list").is_hidden()
        assert await done.page.evaluate("window.shown") == ["city=Pune (PNQ)"]


async def test_choose_in_an_autocomplete(run_open: Opener, pages: Pages) -> None:
    url = pages.add("/choose/autocomplete", AUTOCOMPLETE)
    async with run_open(
        [
            {"browse": url},
            {"choose": "Mumbai", "in": "City"},
            {"verify": {"shows": "city=Mumbai (BOM)"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#city").input_value() == "Mumbai (BOM)"
        assert await done.page.evaluate("window.shown") == ["city=Mumbai (BOM)"]


async def test_enter_reads_the_field_back(run: Runner, pages: Pages) -> None:
    url = pages.add(
        "/enter/maxlength",
        """
<label for="n">Name</label><input id="n">
<label for="pin">PIN code</label><input id="pin" maxlength="3">""",
    )
    result = await run(
        [
            {"browse": url},
            {"enter": "Asha Raina", "into": "Name"},
            {"enter": "Asha Raina", "into": "Name"},
            {"enter": "110001", "into": "PIN code"},
        ]
    )
    assert result.status is RunStatus.FAILED
    assert result.steps[1].outcome is StepOutcome.DONE
    assert result.steps[2].outcome is StepOutcome.ALREADY_DONE
    assert result.failure is not None and result.failure.path == "3"
    assert "does not show what was typed" in result.failure.reason


async def test_a_secret_already_in_its_field_is_compared_on_the_page(
    run: Runner, pages: Pages
) -> None:
    url = pages.add(
        "/enter/secret",
        """
<label for="u">Username</label><input id="u" value="asha">
<label for="p">Password</label><input id="p" type="password" value="old-pass-1">""",
    )
    facts = Facts({"user": "asha", "password": "s3cret-Pass"})
    steps = [
        {"browse": url},
        {"enter": "${user}", "into": "Username"},
        {"enter": "${password}", "into": "Password"},
        {"enter": "${password}", "into": "Password"},
    ]
    result = await run(
        {"vars": {"user": "", "password": ""}, "steps": steps},
        facts=facts.as_dict(),
        private=facts.secret_names,
        mask=facts.mask,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [r.outcome for r in result.steps[1:]] == [
        StepOutcome.ALREADY_DONE,
        StepOutcome.DONE,
        StepOutcome.ALREADY_DONE,
    ]
    assert facts.leaks(repr((result.steps, result.trace, result.screen_text))) == []


async def test_a_custom_dropdown_picks_from_the_list_it_opened(
    run_open: Opener, pages: Pages
) -> None:
    # A list of swatches is always showing with the same option names; choosing in
    # "Accent colour" must pick from the popup that opening it showed.
    url = pages.add(
        "/choose/two-lists",
        STATUS
        + """
<p>Body colour</p>
<ul role="listbox" aria-label="Body colour">
  <li role="option" onclick="show('body=' + this.textContent)">Red</li>
  <li role="option" onclick="show('body=' + this.textContent)">Blue</li>
</ul>
<button id="accent" aria-haspopup="listbox" aria-expanded="false"
  onclick="document.getElementById('menu').hidden = false;
           this.setAttribute('aria-expanded', 'true')">Accent colour</button>
<ul id="menu" role="listbox" hidden>
  <li role="option" onclick="show('accent=' + this.textContent);
      this.parentNode.hidden = true">Red</li>
  <li role="option" onclick="show('accent=' + this.textContent);
      this.parentNode.hidden = true">Green</li>
</ul>""",
    )
    async with run_open(
        [
            {"browse": url},
            {"choose": "Red", "in": "Accent colour"},
            {"verify": {"shows": "accent=Red"}},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        # the always-showing swatch list was never clicked; the popup closed on the pick
        assert await done.page.evaluate("window.shown") == ["accent=Red"]
        assert await done.page.locator("#menu").is_hidden()


async def test_a_multiple_select_drawn_over_its_see_through_input(
    run_open: Opener, pages: Pages
) -> None:
    # a component's multiple select: its combobox input is see-through once chips are
    # drawn over it; the box takes the clicks, and its list fades out when closed
    url = pages.add(
        "/choose/chips",
        """
<p id="cap">Interests</p>
<div id="box" style="position:relative;width:300px;min-height:34px;border:1px solid #888">
  <input id="combo" role="combobox" aria-labelledby="cap" aria-expanded="false" readonly
    style="position:absolute;left:0;top:0;width:100%;height:100%;opacity:0;border:0">
  <div id="chips" style="position:relative;padding:6px;min-height:20px"></div>
</div>
<ul role="listbox" id="list" style="display:none;transition:opacity .25s;margin:0">
  <li role="option" aria-selected="false">Museums</li>
  <li role="option" aria-selected="false">Food</li>
  <li role="option" aria-selected="false">Hiking</li>
</ul>
<p>Meal</p><label><input type="radio" name="meal"> Standard</label>
<label><input type="radio" name="meal"> Vegan</label>
<script>
const list = document.getElementById('list'), combo = document.getElementById('combo');
const picked = [];
const open = (yes) => {
  combo.setAttribute('aria-expanded', String(yes));
  if (yes) { list.style.display = 'block'; list.style.opacity = '1'; return; }
  list.style.opacity = '0';
  setTimeout(() => { list.style.display = 'none'; }, 250);
};
document.getElementById('box').addEventListener('click', () =>
  open(combo.getAttribute('aria-expanded') !== 'true'));
document.addEventListener('keydown', (e) => { if (e.key === 'Escape') open(false); });
for (const li of list.children) li.addEventListener('click', () => {
  if (!picked.includes(li.textContent)) picked.push(li.textContent);
  li.setAttribute('aria-selected', 'true');
  document.getElementById('chips').textContent = picked.join(', ');
  combo.value = picked.join(',');
});
</script>""",
    )
    flow = [
        {"browse": url},
        {"choose": "Food", "in": "Interests"},
        {"choose": "Hiking", "in": "Interests"},
    ]
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("picked") == ["Food", "Hiking"]


async def test_a_search_field_over_a_list_of_rows_narrows_it_and_picks_the_row(
    run_open: Opener, pages: Pages
) -> None:
    # a selector with a filter: a search field named by its placeholder under a caption
    # tied to nothing (several wrappers up), over rows drawn as buttons that show all along
    cities = ["Amsterdam", "Athens", "Berlin", "Lisbon", "Madrid", "Paris", "Rome"]
    rows = "".join(f'<div role="button" tabindex="0" data-id="{c}">{c}</div>' for c in cities)
    url = pages.add(
        "/choose/filtered-rows",
        f"""
<div>Destination</div>
<div><div><div><div><input placeholder="Search field"></div></div>
<ul style="max-height:90px;overflow:auto;margin:0;padding:0">{rows}</ul></div></div>
<p id="chosen"></p>
<script>
const input = document.querySelector('input');
input.addEventListener('input', () => {{
  for (const r of document.querySelectorAll('[role=button]')) {{
    r.style.display = r.dataset.id.toLowerCase().includes(input.value.toLowerCase())
      ? '' : 'none';
  }}
}});
for (const r of document.querySelectorAll('[role=button]')) r.addEventListener('click', () => {{
  document.getElementById('chosen').textContent = r.dataset.id;
}});
</script>""",
    )
    async with run_open([{"browse": url}, {"choose": "Lisbon", "in": "Destination"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#chosen").text_content() == "Lisbon"


async def test_a_time_entered_into_a_list_of_times_is_picked_from_it(
    run_open: Opener, pages: Pages
) -> None:
    # a time select: a read-only combobox whose list offers the times, and which draws
    # the time it holds in its box beside the input (the input itself stays empty)
    times = [f"{h:02d}:{m:02d}" for h in range(6, 10) for m in (0, 15, 30, 45)]
    items = "".join(f'<li role="option">{t}</li>' for t in times)
    url = pages.add(
        "/choose/time-select",
        f"""
<label for="t">Departure time</label>
<div style="position:relative;width:200px;height:24px;border:1px solid #888">
  <span id="shown" style="padding:4px"></span>
  <input id="t" role="combobox" aria-expanded="false" readonly
    style="position:absolute;left:0;top:0;width:100%;height:100%;border:0;background:none">
</div>
<ul role="listbox" id="list" style="display:none;max-height:120px;overflow:auto">{items}</ul>
<script>
const t = document.getElementById('t'), list = document.getElementById('list');
t.addEventListener('click', () => {{
  list.style.display = 'block'; t.setAttribute('aria-expanded', 'true');
}});
for (const li of list.children) li.addEventListener('click', () => {{
  document.getElementById('shown').textContent = li.textContent;
  list.style.display = 'none'; t.setAttribute('aria-expanded', 'false');
}});
</script>""",
    )
    async with run_open([{"browse": url}, {"enter": "07:45", "into": "Departure time"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#shown").text_content() == "07:45"


async def test_a_time_field_that_drops_typing_is_set_by_its_panel_steppers(
    run_open: Opener, pages: Pages
) -> None:
    # a time-only picker whose parser throws every typed time away; its panel, opened by
    # a click on the field, steps the hour and the minute with buttons around each number
    def part(unit: str) -> str:
        return (
            f'<div><button aria-label="Next {unit}" data-u="{unit}" data-d="1">^</button>'
            f'<span id="{unit}">00</span>'
            f'<button aria-label="Previous {unit}" data-u="{unit}" data-d="-1">v</button></div>'
        )

    url = pages.add(
        "/choose/stepped-time",
        f"""
<label for="t">Departure time</label><input id="t">
<div id="panel" style="display:none;gap:12px">{part("Hour")}<span>:</span>{part("Minute")}</div>
<script>
const t = document.getElementById('t'), panel = document.getElementById('panel');
const at = {{ Hour: 0, Minute: 0 }};
const pad = (n) => String(n).padStart(2, '0');
t.addEventListener('input', () => {{ t.value = ''; }});
t.addEventListener('click', () => {{ panel.style.display = 'flex'; }});
for (const b of panel.querySelectorAll('button')) b.addEventListener('click', () => {{
  const u = b.dataset.u, span = u === 'Hour' ? 24 : 60;
  at[u] = (at[u] + Number(b.dataset.d) + span) % span;
  document.getElementById(u).textContent = pad(at[u]);
  t.value = pad(at.Hour) + ':' + pad(at.Minute);
}});
</script>""",
    )
    async with run_open([{"browse": url}, {"enter": "07:45", "into": "Departure time"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#t").input_value() == "07:45"


async def test_a_date_field_that_says_no_order_gets_the_one_it_keeps(
    run_open: Opener, pages: Pages
) -> None:
    # a picker's input that writes day/month/year, says so nowhere (no format, no language)
    # and clears whatever it cannot read once left
    url = pages.add(
        "/choose/unsaid-order",
        """
<label for="d">Departure</label><input id="d" placeholder="Select Date">
<script>
let picked = null;
const d = document.getElementById('d');
d.addEventListener('change', () => {
  const m = /^(\\d{2})\\/(\\d{2})\\/(\\d{4})$/.exec(d.value);
  const ok = m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) <= 31;
  picked = ok ? `${m[3]}-${m[2]}-${m[1]}` : null;
  if (!ok) d.value = '';
});
</script>""",
    )
    async with run_open(
        [{"browse": url}, {"enter": "14 October 2027", "into": "Departure"}]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("picked") == "2027-10-14"
