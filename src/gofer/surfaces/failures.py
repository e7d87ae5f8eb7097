"""The one place Playwright's errors become gofer's.

Everything the browser surface does through Playwright runs under
:func:`playwright_errors`, which raises the :class:`~gofer.errors.SurfaceError`
that says the same (a :class:`~gofer.errors.SurfaceTimeout` for a timeout), with
a stable code, the first line of Playwright's message as ``details['reason']``,
and the original error as its cause. Nothing outside ``gofer.surfaces`` sees a
Playwright error.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from gofer.errors import SurfaceError, SurfaceTimeout

__all__ = ["PlaywrightError", "playwright_errors", "reason_of", "surface_error"]

_ERROR_MAP: dict[type[PlaywrightError], type[SurfaceError]] = {
    PlaywrightError: SurfaceError,
    PlaywrightTimeout: SurfaceTimeout,
}


def reason_of(err: BaseException) -> str:
    """The first line of an error's message (Playwright's carry a call log after it)."""
    text = err.message if isinstance(err, PlaywrightError) else str(err)
    return text.strip().splitlines()[0] if text.strip() else type(err).__name__


def surface_error(
    err: PlaywrightError,
    message: str,
    *,
    code: str,
    timeout_code: str | None = None,
    show_reason: bool = True,
    **details: Any,
) -> SurfaceError:
    """gofer's error for Playwright's ``err``: ``"<message>: <reason>"`` (only ``message``
    without ``show_reason``), coded ``code`` (``timeout_code`` for a timeout, if given)."""
    mapped: type[SurfaceError] = SurfaceError
    for source, target in _ERROR_MAP.items():
        # The most specific match wins (a TimeoutError is also an Error).
        if isinstance(err, source) and issubclass(target, mapped):
            mapped = target
    if mapped is SurfaceTimeout and timeout_code is not None:
        code = timeout_code
    reason = reason_of(err)
    text = f"{message}: {reason}" if show_reason else message
    return mapped(text, code=code, reason=reason, **details)


@contextlib.contextmanager
def playwright_errors(
    message: str,
    *,
    code: str,
    timeout_code: str | None = None,
    show_reason: bool = True,
    **details: Any,
) -> Iterator[None]:
    """Raise :func:`surface_error` for a Playwright error under the block."""
    try:
        yield
    except PlaywrightError as err:
        raise surface_error(
            err,
            message,
            code=code,
            timeout_code=timeout_code,
            show_reason=show_reason,
            **details,
        ) from err
