"""The screen as read from hand-written pages on real Chromium."""

from __future__ import annotations

from typing import Any

import pytest
import pytest_asyncio

from gofer.surfaces import BrowserEngine, Element, Screen, screen_from_dict, screen_to_dict

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

FORM = """<!doctype html><html><head><title>Booking</title><style>
.link { cursor: pointer; color: blue }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0) }
#popup { position: fixed; left: 0; top: 0; width: 420px; height: 60px;
  background: #fff; z-index: 5 }
</style></head><body>
<div id="popup">Subscribe to our newsletter</div>
<div style="height: 70px"></div>
<h1>Passenger details</h1>
<input id="under" placeholder="Under the popup" style="position:absolute; top:10px; left:10px">
<form>
  <fieldset><legend>Contact</legend>
    <label>First name <input name="first"></label>
    <label for="last">Last name</label> <input id="last">
    <div class="row"><div>Email address</div><div><input type="email" id="email"></div></div>
    <input placeholder="Phone number" id="phone">
    <input type="password" id="pw" value="hunter22">
  </fieldset>
  <fieldset><legend>Seat</legend>
    <label><input type="radio" name="seat" value="w" checked> Window</label>
    <label><input type="radio" name="seat" value="a"> Aisle</label>
  </fieldset>
  <label><input type="checkbox" style="opacity: 0; position: absolute"> Meal</label>
  <select aria-label="Cabin"><option>Economy</option><option selected>Business</option></select>
  <button type="button" aria-label="Close"><svg width="12" height="12"></svg></button>
  <button type="button" disabled>Pay now</button>
  <button type="button" aria-expanded="false">More options</button>
</form>
<span class="link" id="terms">Read the terms</span>
<span class="sr">Only for screen readers</span>
<div style="display:none"><button>Hidden button</button></div>
<fare-box></fare-box>
<iframe srcdoc="<p>Framed note</p><button>Framed button</button>"
  style="width:300px; height:90px; border:0"></iframe>
<h2>Results</h2>
<div class="results">
  <div class="card"><b>IndiGo</b><div>Price: 4,500</div><button>Select</button></div>
  <div class="card"><b>Vistara</b><div>Price: 5,100</div><button>Select</button></div>
  <div class="card"><b>Akasa</b><div>Price: 3,900</div><button>Select</button></div>
</div>
<table><thead><tr><th>Flight</th><th>Departs</th></tr></thead>
<tbody><tr><td>6E 201</td><td>06:10</td></tr><tr><td>UK 811</td><td>09:45</td></tr></tbody></table>
<script>
document.getElementById('terms').addEventListener('click', () => {});
customElements.define('fare-box', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML =
      '<p>Fare rules apply</p><label>Promo code <input id="promo"></label>';
  }
});
</script></body></html>"""


def named(screen: Screen, name: str) -> Element:
    found = [el for el in screen.elements if el.name == name]
    assert found, f"no element named {name!r} in {[e.name for e in screen.elements]}"
    return found[0]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def screen(engine: BrowserEngine, module_site: Any) -> Screen:
    site = module_site
    site.add("/", FORM)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        await surface.fill(named(await surface.snapshot(), "Last name").ref, "Rao")
        return await surface.snapshot(mask=lambda text: text.replace("hunter22", "[password]"))
    finally:
        await surface.close()


async def test_fields_are_named_by_their_labels(screen: Screen) -> None:
    assert named(screen, "First name").role == "textbox"
    last = named(screen, "Last name")
    assert last.label == "Last name" and last.value == "Rao"
    email = named(screen, "Email address")
    assert email.input_type == "email" and email.section == "Contact"
    phone = named(screen, "Phone number")
    assert phone.placeholder == "Phone number" and phone.label == ""
    cabin = named(screen, "Cabin")
    assert cabin.role == "combobox" and cabin.value == "Business"
    assert cabin.options == ("Economy", "Business")


async def test_states_and_groups(screen: Screen) -> None:
    window, aisle = named(screen, "Window"), named(screen, "Aisle")
    assert window.role == "radio" and window.checked is True and aisle.checked is False
    assert window.group == "Seat"
    assert named(screen, "Close").role == "button"
    assert named(screen, "Pay now").disabled
    assert named(screen, "More options").expanded is False
    meal = named(screen, "Meal")  # a see-through checkbox, shown through its label
    assert meal.role == "checkbox" and meal.visible and meal.on_top and meal.checked is False


async def test_secret_values_are_masked(screen: Screen) -> None:
    password = next(el for el in screen.elements if el.input_type == "password")
    assert password.value == "[password]"
    assert "hunter22" not in str(screen_to_dict(screen))


async def test_clickable_span_shadow_dom_and_frames(screen: Screen) -> None:
    terms = named(screen, "Read the terms")
    assert terms.role == "clickable" and terms.tag == "span"
    assert "Fare rules apply" in screen.text
    assert named(screen, "Promo code").role == "textbox"
    framed = named(screen, "Framed button")
    assert framed.frame == "1" and framed.ref.startswith("f1:")
    assert "Framed note" in screen.text
    assert framed.box.y > named(screen, "Read the terms").box.y


async def test_hidden_content_is_left_out(screen: Screen) -> None:
    assert "Only for screen readers" not in screen.text
    assert all(el.name != "Hidden button" for el in screen.elements)


async def test_a_popup_covering_a_field_takes_it_off_top(screen: Screen) -> None:
    under = named(screen, "Under the popup")
    assert under.visible and not under.on_top
    assert named(screen, "First name").on_top
    assert not screen.dialog_open


async def test_lines_in_reading_order_with_headings(screen: Screen) -> None:
    texts = [line.text for line in screen.lines]
    assert texts.index("Passenger details") < texts.index("Results") < texts.index("IndiGo")
    heading = next(line for line in screen.lines if line.text == "Passenger details")
    assert heading.heading == 1
    assert "Business" in texts  # a select's chosen option reads as a line


async def test_records_of_cards_and_tables(screen: Screen) -> None:
    cards = next(g for g in screen.records if len(g.records) == 3)
    assert cards.name == "Results"
    assert cards.records[0].lines[:2] == ("IndiGo", "Price: 4,500")
    assert cards.records[2].fields["Price"] == "3,900"
    selects = [el for el in screen.elements if el.name == "Select"]
    group = screen.records.index(cards)
    assert [el.record for el in selects] == [(group, 0), (group, 1), (group, 2)]
    table = next(g for g in screen.records if g.headers)
    assert table.headers == ("Flight", "Departs")
    assert table.records[1].fields == {"Flight": "UK 811", "Departs": "09:45"}


async def test_screen_survives_a_json_round_trip(screen: Screen) -> None:
    assert screen_from_dict(screen_to_dict(screen)) == screen


async def test_modal_dialog_is_seen(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        """<input placeholder="Search">
        <div role="dialog" aria-modal="true" aria-label="Cookies"
             style="position:fixed; inset:0; background:rgba(0,0,0,.5)">
          <button>Accept all</button></div>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        assert screen.dialog_open
        assert not named(screen, "Search").on_top
        accept = named(screen, "Accept all")
        assert accept.on_top and accept.section == "Cookies"
    finally:
        await surface.close()


SHADOWING = """<!doctype html><html><head><title>Rooms</title></head><body>
<h1>Pick a room</h1>
<div class="rooms">
  <form class="room" action="/book"><b>Double room</b><div>Price: 120</div>
    <input type="hidden" name="parentNode"><input type="hidden" name="parentElement">
    <input type="hidden" name="getAttribute"><input type="hidden" name="querySelectorAll">
    <button type="button">Book</button></form>
  <form class="room" action="/book"><b>Twin room</b><div>Price: 95</div>
    <input type="hidden" name="parentNode"><input type="hidden" name="parentElement">
    <input type="hidden" name="getAttribute"><input type="hidden" name="querySelectorAll">
    <button type="button">Book</button></form>
</div>
<form id="search" action="/search" name="search">
  <fieldset><legend>Guests</legend>
  <p><label for="a">Adults</label> <input id="a" name="adults" value="2"></p>
  <p><label for="c">Children</label> <input id="c" name="children" value="0"></p>
  </fieldset>
  <p>Reference <input name="id" aria-label="Reference"></p>
  <p><input name="name" placeholder="Lead guest"></p>
  <p><label>Notes <input name="attributes"></label></p>
  <input type="hidden" name="nodeType"><input type="hidden" name="tagName">
  <input type="hidden" name="childNodes"><input type="hidden" name="shadowRoot">
  <input type="hidden" name="classList"><input type="hidden" name="childElementCount">
  <input type="hidden" name="isConnected"><input type="hidden" name="tabIndex">
  <button type="button" onclick="this.textContent = 'Searched'">Search</button>
</form></body></html>"""


async def test_form_fields_named_like_dom_properties(engine: BrowserEngine, site: Any) -> None:
    """A form's fields named children, id, parentNode... hide the form's own DOM
    properties; the screen is read all the same, and acted on (the rooms' forms are
    only read: fields named parentNode or parentElement trip Playwright's own click)."""
    site.add("/", SHADOWING)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        children = named(screen, "Children")
        assert children.value == "0" and children.section == "Guests"
        assert named(screen, "Reference").role == "textbox"
        assert named(screen, "Lead guest").role == "textbox"
        assert named(screen, "Notes").label == "Notes"
        rooms = next(g for g in screen.records if len(g.records) == 2)
        assert [r.lines[0] for r in rooms.records] == ["Double room", "Twin room"]
        assert [e.record for e in screen.elements if e.name == "Book"] == [
            (screen.records.index(rooms), 0),
            (screen.records.index(rooms), 1),
        ]
        await surface.fill(children.ref, "1")
        assert await surface.read_value(children.ref) == "1"
        effect = await surface.click(named(screen, "Search").ref)
        assert effect.changed
        assert "Searched" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_a_table_with_one_row_under_its_header_is_a_record(
    engine: BrowserEngine, site: Any
) -> None:
    site.add(
        "/",
        """<h2>Archived customers</h2>
<table><thead><tr><th>Name</th><th>Status</th></tr></thead>
<tbody><tr><td>Charles Babbage</td><td>Archived</td></tr></tbody></table>
<div role="table"><table><tr><td role="columnheader">Plan</td><td role="columnheader">Seats</td>
</tr><tr><td>Pro</td><td>5</td></tr></table></div>
<section><table><tr><td>Layout cell</td><td>beside it</td></tr></table></section>""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        assert [g.headers for g in screen.records] == [("Name", "Status"), ("Plan", "Seats")]
        archived, plans = screen.records
        assert [r.fields for r in archived.records] == [
            {"Name": "Charles Babbage", "Status": "Archived"}
        ]
        assert archived.name == "Archived customers"
        assert [r.fields for r in plans.records] == [{"Plan": "Pro", "Seats": "5"}]
    finally:
        await surface.close()


DELEGATED = """<!doctype html><html><head><style>
.days { display: grid; grid-template-columns: repeat(7, 36px); gap: 2px; width: 270px }
.day { cursor: pointer; text-align: center }
.day.past { cursor: default }
table td { width: 36px; height: 30px; text-align: center }
.card { cursor: pointer; width: 300px; border: 1px solid #ccc }
.btn { display: inline-block; padding: 4px }
</style></head><body>
<p id="picked">Nothing picked</p>
<div class="days" id="days">
  <span class="day past">1</span><span class="day past">2</span><span class="day">3</span>
  <span class="day">4</span><span class="day">5</span><span class="day">6</span>
  <span class="day">7</span><span class="day">8</span><span class="day">9</span>
  <span class="day">10</span><span class="day">11</span><span class="day">12</span>
</div>
<table id="month"><caption>March</caption><tr><td>20</td><td>21</td><td>22</td><td>23</td>
<td>24</td><td>25</td><td>26</td></tr><tr><td>27</td><td>28</td><td>29</td><td>30</td>
<td>31</td><td></td><td></td></tr></table>
<div class="card" id="card"><b>Sea view room</b> <span>Breakfast included</span></div>
<div class="btn" id="go"><span style="cursor: pointer">Go</span></div>
<table><tr id="row"><td>A1</td><td>B2</td><td>C3</td><td>D4</td><td>E5</td><td>F6</td>
<td>G7</td><td>H8</td><td>I9</td></tr></table>
<script>
const picked = document.getElementById('picked');
const pick = (what) => (ev) => { picked.textContent = what + ' ' + ev.target.textContent; };
document.getElementById('days').addEventListener('click', pick('day'));
document.getElementById('month').addEventListener('click', pick('March'));
document.getElementById('card').addEventListener('click', pick('card'));
document.getElementById('go').addEventListener('click', pick('go'));
document.getElementById('row').addEventListener('click', pick('row'));
</script></body></html>"""


async def test_cells_of_a_delegating_container_are_elements(
    engine: BrowserEngine, site: Any
) -> None:
    """Days sharing one click listener on their container are elements of their own
    (by their own pointer cursor, or as short table cells); a card's or a small
    button's text and a clickable row's cells are not."""
    site.add("/", DELEGATED)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        names = [e.name for e in screen.elements if e.role == "clickable"]
        assert [n for n in names if n.isdigit()] == [
            *map(str, range(3, 13)),
            *map(str, range(20, 32)),
        ]
        for kept in ("Sea view room Breakfast included", "Go"):
            assert kept in names
        for gone in ("Sea view room", "Breakfast included", "A1", "I9"):
            assert gone not in names
        effect = await surface.click(named(screen, "11").ref)
        assert effect.dom_changed
        assert "day 11" in (await surface.snapshot()).text
        await surface.click(named(screen, "28").ref)
        assert "March 28" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_a_link_wrapping_onto_two_lines_is_on_top(engine: BrowserEngine, site: Any) -> None:
    # The link starts at the end of one line and ends at the start of the next, so the
    # centre of its box falls on plain text.
    site.add(
        "/wrap",
        "<p style='width:200px;font:16px/20px monospace;margin:0'>"
        "xxxxxxxxxxx <a href='/story'>Monsoon arrives</a> and then more"
        " text here</p>",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/wrap"))
        screen = await surface.snapshot()
        (link,) = [e for e in screen.elements if e.role == "link"]
        assert link.visible and link.on_top
    finally:
        await surface.close()


async def test_a_toggle_row_marked_by_class_and_an_input_kept_for_the_form(
    engine: BrowserEngine, site: Any
) -> None:
    """A row of buttons whose chosen one only a class marks reads as pressed or not; an
    input out of the accessibility tree and the tab order is not offered through its
    label; a lone "active" button and a nav row marking none say nothing."""
    site.add(
        "/",
        """<div class="seat"><button class="btn btn--active">Window</button>
        <button class="btn">Aisle</button><button class="btn">Middle</button></div>
        <div><button class="btn">Left</button><button class="btn">Right</button></div>
        <div><button class="active">Alone</button><span>text</span></div>
        <label for="kept">Departure date</label>
        <input id="kept" aria-hidden="true" tabindex="-1"
               style="opacity: 0; position: absolute; left: 0; top: 200px">""",
    )
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        screen = await surface.snapshot()
        row = {n: named(screen, n).checked for n in ("Window", "Aisle", "Middle", "Left", "Alone")}
        assert row == {"Window": True, "Aisle": False, "Middle": False, "Left": None, "Alone": None}
        kept = next(e for e in screen.elements if e.tag == "input")
        assert not kept.visible
    finally:
        await surface.close()
