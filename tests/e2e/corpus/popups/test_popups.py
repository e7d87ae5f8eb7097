"""Steps that the page itself interrupts: an option far down Ant Design's scrolled Select
list, and tippy.js prompts that open when a field gets focus and keep it read-only until
answered, judged by what each form posted."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from .conftest import Library
from .tasks import Task, judge

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SAVE = {"click": "Save address"}
SIGN_UP = {"click": "Create account"}

TASKS: dict[str, Task] = {
    # every row rendered, the 35th clipped by the dropdown's own scroll box
    "antd-origin-far-down": Task(
        "antd",
        [{"choose": "Norway", "in": "Country of origin"}, SAVE],
        {"origin": "Norway", "country": ""},
    ),
    # the library's virtual list: the 35th row exists only once the list is scrolled
    "antd-virtual-far-down": Task(
        "antd",
        [
            {"enter": "Ada Lovelace", "into": "Full name"},
            {"choose": "North Macedonia", "in": "Destination country"},
            SAVE,
        ],
        {"name": "Ada Lovelace", "country": "North Macedonia"},
    ),
    # a country the list does not hold: scrolled to its end, then a failure
    "antd-country-not-offered": Task(
        "antd", [{"choose": "Narnia", "in": "Destination country"}, SAVE], None
    ),
    # a newsletter prompt opens when the email field gets focus and keeps it read-only:
    # refused, never accepted, and the typing tried once more
    "tippy-email-prompt": Task(
        "tippy",
        [
            {"enter": "Ada Lovelace", "into": "Full name"},
            {"enter": "ada@example.org", "into": "Email address"},
            SIGN_UP,
        ],
        {"name": "Ada Lovelace", "email": "ada@example.org", "newsletter": "no"},
    ),
}


KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("name", list(TASKS))
async def test_popup_task(
    name: str, run_open: Opener, library: Library, request: pytest.FixtureRequest
) -> None:
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    await judge(TASKS[name], run_open, library)
