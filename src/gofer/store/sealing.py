"""Fact values at rest: sealed before a ledger writes them, opened as it reads them.

The ledgers hold a task's request (its facts, and its ask in plain words, which may
quote them) and the caller's answers (``reply`` and ``again`` events' ``inputs``); the
saved flows hold steps a person did and descriptions.
Every such value is written sealed with a
:class:`SecretBox` (Fernet from the ``cryptography`` package: AES-128-CBC with an
HMAC-SHA256), as ``gofer-sealed:1:<token>``; every other field stays as it was. A value
written before sealing existed reads as it was written.

The key comes from the entry point: ``GOFER_SECRET_KEY``, or a key file (made 0600
beside the store the first time). Every process on one store needs the same key; a
value sealed under another key is STORE_KEY_MISMATCH, never shown.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken

from gofer.errors import StoreError
from gofer.store.files import FILE_MODE, private_dir

__all__ = [
    "SEALED",
    "SecretBox",
    "open_event",
    "open_request",
    "open_text",
    "seal_event",
    "seal_request",
    "seal_text",
]

SEALED = "gofer-sealed:1:"
"""What a sealed value starts with."""

MIN_KEY_CHARS = 32
"""The shortest ``GOFER_SECRET_KEY`` taken."""


class SecretBox:
    """Seals and opens strings with one key."""

    def __init__(self, key: bytes) -> None:
        self._fernet = Fernet(key)

    def __repr__(self) -> str:
        return "SecretBox(...)"

    @classmethod
    def generate(cls) -> SecretBox:
        """A box with a new random key."""
        return cls(Fernet.generate_key())

    @classmethod
    def from_text(cls, text: str) -> SecretBox:
        """A box whose key is made from ``text`` (``GOFER_SECRET_KEY``: at least
        MIN_KEY_CHARS characters; a Fernet key is taken as it is)."""
        text = text.strip()
        if len(text) < MIN_KEY_CHARS:
            raise StoreError(
                f"the secret key is shorter than {MIN_KEY_CHARS} characters",
                code="STORE_BAD_KEY",
            )
        try:
            return cls(text.encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            return cls(base64.urlsafe_b64encode(digest))

    @classmethod
    def from_file(cls, path: Path) -> SecretBox:
        """The box of the key in ``path``, made (0600, in a 0700 folder when it makes
        the folder) with a new random key when there is none yet."""
        if not path.exists():
            private_dir(path.parent)
            fresh = path.with_name(f".{path.name}.{os.getpid()}.new")
            fd = os.open(fresh, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
            with os.fdopen(fd, "wb") as out:
                out.write(Fernet.generate_key())
            try:
                os.link(fresh, path)  # never over a key another process made meanwhile
            except FileExistsError:
                pass
            finally:
                fresh.unlink()
        try:
            return cls(path.read_bytes().strip())
        except ValueError:
            raise StoreError(
                f"the key file {path} does not hold a key", code="STORE_BAD_KEY"
            ) from None

    def seal(self, value: str) -> str:
        """``value`` sealed (a sealed value is left as it is)."""
        if value.startswith(SEALED):
            return value
        return SEALED + self._fernet.encrypt(value.encode("utf-8")).decode("ascii")

    def open(self, value: str) -> str:
        """A sealed value opened; any other value as it is."""
        if not value.startswith(SEALED):
            return value
        try:
            return self._fernet.decrypt(value[len(SEALED) :].encode("ascii")).decode("utf-8")
        except (InvalidToken, ValueError):
            raise StoreError(
                "a value in the store was sealed with another key (GOFER_SECRET_KEY or the "
                "key file beside the store)",
                code="STORE_KEY_MISMATCH",
            ) from None


def _values(values: Any, change: Callable[[str], str]) -> Any:
    if not isinstance(values, Mapping):
        return values
    return {k: change(v) if isinstance(v, str) else v for k, v in values.items()}


def _unsealed(value: str) -> str:
    if value.startswith(SEALED):
        raise StoreError(
            "a value in the store is sealed, and this connector has no key to open it",
            code="STORE_KEY_MISMATCH",
        )
    return value


def _opener(box: SecretBox | None) -> Callable[[str], str]:
    return _unsealed if box is None else box.open


def seal_text(box: SecretBox | None, text: str) -> str:
    """``text`` sealed (as it is with no box)."""
    return text if box is None else box.seal(text)


def open_text(box: SecretBox | None) -> Callable[[str], str]:
    """What opens a text :func:`seal_text` wrote (STORE_KEY_MISMATCH for a sealed
    one with no box, or another key)."""
    return _opener(box)


def seal_request(box: SecretBox | None, request: Mapping[str, Any]) -> dict[str, Any]:
    """A task's request with its facts' values, its plain-language ask (which may
    quote them) and its webhook's signing secret sealed."""
    out = dict(request)
    if box is not None:
        if "facts" in out:
            out["facts"] = _values(out["facts"], box.seal)
        if isinstance(out.get("task"), str):
            out["task"] = box.seal(out["task"])
        notify = out.get("notify")
        if isinstance(notify, dict) and isinstance(notify.get("secret"), str):
            out["notify"] = {**notify, "secret": box.seal(notify["secret"])}
    return out


def open_request(box: SecretBox | None, request: Mapping[str, Any]) -> dict[str, Any]:
    """A task's request as it was given."""
    out = dict(request)
    if "facts" in out:
        out["facts"] = _values(out["facts"], _opener(box))
    if isinstance(out.get("task"), str):
        out["task"] = _opener(box)(out["task"])
    notify = out.get("notify")
    if isinstance(notify, dict) and isinstance(notify.get("secret"), str):
        out["notify"] = {**notify, "secret": _opener(box)(notify["secret"])}
    return out


def seal_event(box: SecretBox | None, data: Mapping[str, Any]) -> dict[str, Any]:
    """An event's data with the caller's answers (``inputs``) sealed."""
    out = dict(data)
    if box is not None and "inputs" in out:
        out["inputs"] = _values(out["inputs"], box.seal)
    return out


def open_event(box: SecretBox | None, data: Mapping[str, Any]) -> dict[str, Any]:
    """An event's data as it was written."""
    out = dict(data)
    if "inputs" in out:
        out["inputs"] = _values(out["inputs"], _opener(box))
    return out
