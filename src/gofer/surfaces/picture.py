"""A PNG of a page's viewport, its text fields painted over, and any text of the page
that shows a secret (a secret file's name the page lists, a secret value it echoes).

Chromium draws it straight from the compositor (``Page.captureScreenshot``) with its
fast PNG encoder: about a third of the CPU of Playwright's screenshot, whose default
encoder compresses harder, for the same picture in a larger file.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
from collections.abc import Callable

from playwright.async_api import CDPSession, Frame, Page

from gofer.surfaces import scripts as js
from gofer.surfaces.failures import PlaywrightError

__all__ = ["viewport_png"]

MASK_COLOR = "#F0F"
"""What a hidden field is painted with (Playwright's mask colour)."""

_TEXTS = """(key) => {
  const found = [];
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.data.trim()) found.push(n);
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) visit(el.shadowRoot);
  };
  if (document.documentElement) visit(document);
  window[key] = found;
  return found.map((n) => n.data);
}"""
"""The frame's text, node by node (open shadow roots included), kept under ``key`` for
:data:`_MASK` to cover the nodes a mask changes."""

_MASK = """([selector, color, id, key, covered]) => {
  const boxes = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll(selector)) boxes.push(el.getBoundingClientRect());
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) visit(el.shadowRoot);
  };
  if (selector) visit(document);
  const texts = window[key] || [];
  delete window[key];
  for (const i of covered) {
    const range = document.createRange();
    range.selectNodeContents(texts[i]);
    for (const b of range.getClientRects()) boxes.push(b);
  }
  if (!boxes.length || !document.documentElement) return false;
  const pane = document.createElement("gofer-mask");
  pane.id = id;
  pane.setAttribute("popover", "manual");
  const style = pane.style;
  for (const [k, v] of [["position", "fixed"], ["inset", "0"], ["width", "100%"],
      ["height", "100%"], ["max-width", "none"], ["max-height", "none"], ["padding", "0"],
      ["margin", "0"], ["border", "none"], ["overflow", "visible"],
      ["pointer-events", "none"], ["background", "transparent"], ["display", "block"]]) {
    style.setProperty(k, v, "important");
  }
  const shadow = pane.attachShadow({ mode: "closed" });
  for (const b of boxes) {
    if (!b.width || !b.height) continue;
    const box = document.createElement("div");
    for (const [k, v] of [["position", "absolute"], ["left", b.left + "px"],
        ["top", b.top + "px"], ["width", b.width + "px"], ["height", b.height + "px"],
        ["background", color], ["margin", "0"], ["padding", "0"], ["border", "none"]]) {
      box.style.setProperty(k, v, "important");
    }
    shadow.appendChild(box);
  }
  document.documentElement.appendChild(pane);
  try { pane.showPopover(); } catch (e) { /* no top layer: the highest z-index then */
    style.setProperty("z-index", "2147483647", "important");
  }
  return true;
}"""
"""Paints every text field of the frame (open shadow roots included), and the text nodes
``covered`` names, over with boxes in a pane on the top layer, above the page's own
dialogs; whether there was any to paint."""

_UNMASK = "(id) => { const pane = document.getElementById(id); if (pane) pane.remove(); }"


async def viewport_png(
    session: CDPSession,
    page: Page,
    *,
    hide_fields: bool,
    hide_text: Callable[[str], str] | None = None,
) -> bytes:
    """The PNG of ``page``'s viewport, drawn over ``session`` (a DevTools session of the
    page's own); with ``hide_fields`` every text field, in the page and in its frames,
    painted over first and uncovered after; with ``hide_text`` (a mask of secrets) every
    text the mask changes too."""
    masked: list[Frame] = []
    pane = f"gofer-mask-{secrets.token_hex(8)}"
    key = f"__gofer_texts_{secrets.token_hex(8)}"
    selector = js.FIELDS if hide_fields else ""

    async def mask(frame: Frame) -> None:
        try:
            covered: list[int] = []
            if hide_text is not None:
                texts = await frame.evaluate(_TEXTS, key)
                covered = [i for i, text in enumerate(texts) if hide_text(text) != text]
            if await frame.evaluate(_MASK, [selector, MASK_COLOR, pane, key, covered]):
                masked.append(frame)
        except PlaywrightError:
            if not frame.is_detached():
                raise  # a frame still shown whose fields could not be covered

    try:
        if hide_fields or hide_text is not None:
            frames = [f for f in page.frames if not f.is_detached()]
            # every frame's answer is waited for, so none is left covered after
            for failed in await asyncio.gather(*map(mask, frames), return_exceptions=True):
                if isinstance(failed, BaseException):
                    raise failed
        shot = await session.send(
            "Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True}
        )
    finally:
        for frame in masked:
            with contextlib.suppress(PlaywrightError):
                await frame.evaluate(_UNMASK, pane)
    return base64.b64decode(shot["data"])
