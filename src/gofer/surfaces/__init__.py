"""gofer.surfaces: the browser surface and the screen a flow acts on.

``BrowserEngine`` launches Debian's Chromium through Playwright and hands out
``BrowserSurface`` sessions, each in its own browser context (own cookies),
optionally confined to ``origins`` or attached to a running Chrome over CDP.
A surface's ``snapshot`` reads the page as a :class:`Screen`. The :class:`Surface`
protocol is all the runtime sees of a surface; ``gofer.surfaces.testing`` ships a
fake of it built from captured screens. A person takes a surface over through its
:class:`LiveView` (``surface.live()``: frames as it paints, their mouse and keys sent
to it; Chromium's screencast for the browser).
"""

from gofer.surfaces.base import ActionEffect, Masker, Selection, Surface, SurfaceKind
from gofer.surfaces.browser import BrowserPage, BrowserSurface
from gofer.surfaces.chromium import (
    CHROMIUM_ARGS,
    NO_SANDBOX,
    chromium_available,
    describe_isolation,
    find_chromium,
)
from gofer.surfaces.engine import BrowserEngine, BrowserOptions
from gofer.surfaces.live import (
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveOptions,
    LiveSurface,
    LiveView,
    Modifiers,
    PointerInput,
)
from gofer.surfaces.origins import OriginPattern, origin_allowed, parse_origin
from gofer.surfaces.policy import OPERATOR, BrowserPolicy, SandboxChoice
from gofer.surfaces.screen import (
    Box,
    Element,
    Record,
    RecordGroup,
    Screen,
    TextLine,
    screen_from_dict,
    screen_to_dict,
)

__all__ = [
    "CHROMIUM_ARGS",
    "NO_SANDBOX",
    "OPERATOR",
    "ActionEffect",
    "Box",
    "BrowserEngine",
    "BrowserOptions",
    "BrowserPage",
    "BrowserPolicy",
    "BrowserSurface",
    "Element",
    "KeyInput",
    "LiveDialog",
    "LiveFrame",
    "LiveOptions",
    "LiveSurface",
    "LiveView",
    "Masker",
    "Modifiers",
    "OriginPattern",
    "PointerInput",
    "Record",
    "RecordGroup",
    "SandboxChoice",
    "Screen",
    "Selection",
    "Surface",
    "SurfaceKind",
    "TextLine",
    "chromium_available",
    "describe_isolation",
    "find_chromium",
    "origin_allowed",
    "parse_origin",
    "screen_from_dict",
    "screen_to_dict",
]
