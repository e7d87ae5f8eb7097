"""The one web address a task sends its browser to first, if it names exactly one."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

__all__ = ["start_address"]

_ADDRESS = re.compile(r"https?://[^\s<>\"'()\[\]{}]+", re.IGNORECASE)
_LEAD = re.compile(r"(?:\bgo\s+to|\bopen|\bvisit|\bstart\s+at|\bon)\s*$", re.IGNORECASE)
_TRAILING = ".,;:!?"


def start_address(task: str) -> str | None:
    """The address the task's text sends the browser to, or None.

    Only an address written out with http(s):// right after "go to", "open",
    "visit", "start at" or "on", carrying no query or fragment, in a task that names
    no other address: one merely mentioned (to check or pass on), one whose query
    could hold a token a load would spend, and several addresses load nothing.
    """
    found = list(_ADDRESS.finditer(task))
    if len(found) != 1:
        return None
    match = found[0]
    if not _LEAD.search(task[: match.start()]):
        return None
    address = match.group(0).rstrip(_TRAILING)
    parts = urlsplit(address)
    if parts.query or parts.fragment or "?" in address or "#" in address or not parts.netloc:
        return None
    return address
