"""The runtime on captured screens (tests/unit/screens/*.json) through the fake surface:
what it does on the page, judged by the page's own state."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gofer.facts import Facts
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, StepOutcome, Workspace, run_flow
from gofer.surfaces.screen import Box, Screen, TextLine
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)
CANARY = "canary-Pw-7f3a9"


def _next_page(title: str) -> Screen:
    return Screen(
        f"http://pages.test/{title.lower().replace(' ', '-')}",
        title,
        (TextLine(title, Box(0, 0, 300, 20), heading=1),),
        (),
    )


FILL_IN = [
    {"enter": "${email}", "into": "Email address"},
    {"enter": "${password}", "into": "Password"},
    {"choose": "Remember me", "in": "Remember me"},
]


def _sign_in_request(steps: list[dict[str, str]]) -> RunRequest:
    facts = Facts({"email": "asha@example.com", "password": CANARY}, secret=["password"])
    return RunRequest(
        flow=parse_flow(steps),
        variables={name: facts.get(name) or "" for name in facts.names},
        private=facts.secret_names,
        mask=facts.mask,
    )


async def test_signing_in_fills_the_form_and_the_password_never_shows() -> None:
    page = FakeSurface.captured(SCREENS / "login.json")
    result = await run_flow(_sign_in_request(FILL_IN), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.COMPLETED, result.failure
    assert await page.read_value("e3") == "asha@example.com"
    assert await page.read_value("e4") == CANARY
    assert await page.read_value("e6") == "true"
    request = _sign_in_request(FILL_IN)
    assert request.mask is not None
    assert CANARY not in repr(await page.snapshot(request.mask))
    assert CANARY not in repr(result.steps) + repr(result.trace)

    page = FakeSurface.captured(
        SCREENS / "login.json", after_click={"e7": _next_page("Your trips")}
    )
    result = await run_flow(
        _sign_in_request([*FILL_IN, {"click": "Sign in"}]), Workspace.on(page), settings=FAST
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.url == "http://pages.test/your-trips"
    assert CANARY not in repr(result.steps) + repr(result.trace)


async def test_paying_on_a_captured_checkout_stops_in_front_of_the_button() -> None:
    page = FakeSurface.captured(SCREENS / "checkout.json")
    result = await run_flow(
        RunRequest(flow=parse_flow([{"click": "Pay now"}])), Workspace.on(page), settings=FAST
    )
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.consequence == "payment"
    assert page.clicked == []


async def test_a_click_under_two_popups_closes_each_with_the_least_consent() -> None:
    shown = FakeSurface.captured(SCREENS / "cookie_modal.json").screen
    without_consent = replace(
        shown, elements=tuple(e for e in shown.elements if e.section != "Cookie consent")
    )
    clear = replace(
        shown,
        dialog_open=False,
        elements=tuple(
            replace(e, on_top=True) for e in shown.elements if e.section == "Your booking"
        ),
        lines=tuple(
            line for line in shown.lines if line.text in ("Your booking", "Email", "Continue")
        ),
    )
    page = FakeSurface(
        shown, after_click={"e7": without_consent, "e5": clear, "e2": _next_page("Extras")}
    )
    result = await run_flow(
        RunRequest(flow=parse_flow([{"click": "Continue"}])), Workspace.on(page), settings=FAST
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[0].outcome is StepOutcome.DONE
    # "Reject all" (not "Accept all") for the cookies, "No thanks" for the offer.
    assert page.clicked == ["e7", "e5", "e2"]
    assert page.pressed == ["Escape"]
    assert page.url == "http://pages.test/extras"


async def test_a_secret_inside_a_label_does_not_hide_the_label_from_the_grounder() -> None:
    # "US" is a secret here, and it occurs inside "Username": the grounder still finds
    # the field, and nothing that leaves the run shows the secret, however it is cased.
    facts = Facts(
        {"region": "US", "email": "wren.canary@example.org", "user": "asha"},
        secret=["region", "email"],
    )
    welcome = replace(
        _next_page("Welcome"),
        lines=(TextLine("Welcome asha, your region is US", Box(0, 0, 300, 20), heading=1),),
    )
    fill = [{"enter": "${user}", "into": "Username"}, {"enter": "${email}", "into": "Email"}]
    then = [
        {"click": "Create account"},
        {"read": "Welcome", "as": "greeting"},
        {"verify": {"shows": "Missing words"}},
    ]
    shown = ""
    for steps in (fill, [*fill, *then]):
        page = FakeSurface.captured(SCREENS / "signup.json", after_click={"e4": welcome})
        result = await run_flow(
            RunRequest(
                flow=parse_flow(steps),
                variables={name: facts.get(name) or "" for name in facts.names},
                private=facts.secret_names,
                mask=facts.mask,
            ),
            Workspace.on(page),
            settings=FAST,
        )
        if steps is fill:
            assert result.status is RunStatus.COMPLETED, result.failure
            assert await page.read_value("e1") == "asha"
            assert await page.read_value("e2") == "wren.canary@example.org"
        else:
            assert result.failure is not None and result.failure.path == "4", result.failure
            assert page.clicked == ["e4"]
            assert result.variables["greeting"] == "asha, your region is ${region}"
        assert result.steps[0].element is not None
        assert result.steps[0].element.name == "${region}ername"  # masked where it leaves
        shown += (
            repr(result.steps)
            + repr(result.trace)
            + repr(result.hints)
            + repr(result.failure)
            + repr(result.changed)
            + result.screen_text
        )
    assert facts.leaks(shown) == []
    assert "Username" not in shown and "wren.canary" not in shown
