"""One-time codes as a run types them: the code of the moment for each code source a
value names, waiting for the next window when this one is about to end, and every
code typed masked from then on like the secret it comes from."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping

from gofer.facts.otp import CodeSource
from gofer.flow.names import names_in

__all__ = ["CodeTyping"]


class CodeTyping:
    """The code sources of one run; ``clock`` gives seconds since the epoch."""

    def __init__(
        self, sources: Mapping[str, CodeSource], clock: Callable[[], float] = time.time
    ) -> None:
        self._sources = dict(sources)
        self._clock = clock
        self._typed: dict[str, str] = {}  # a code typed -> its source's name

    def mask(self, text: str) -> str:
        """``text`` with every code typed so far as ``${name}``."""
        for code, name in self._typed.items():
            text = text.replace(code, "${" + name + "}")
        return text

    async def codes_for(self, text: str, on_wait: Callable[[str, float], None]) -> dict[str, str]:
        """The code of each code source ``text`` names (``on_wait`` is told of a wait
        for the next window, by name and seconds)."""
        codes: dict[str, str] = {}
        for name in names_in(text):
            source = self._sources.get(name)
            if source is None or name in codes:
                continue
            code, wait_s = source.typed_at(self._clock())
            if wait_s > 0:
                on_wait(name, round(wait_s, 1))
                await asyncio.sleep(wait_s)
            self._typed[code] = name
            codes[name] = code
        return codes
