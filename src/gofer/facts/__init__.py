"""The caller's facts: a store of secret and shared values, and the rules that decide which.

Pure: no I/O, and nothing of gofer's but :mod:`gofer.errors`.

* :class:`Facts` holds the values, knows which are secret, and hides them in
  text: :meth:`Facts.redact` writes ``‹name›`` for every value,
  :meth:`Facts.mask` writes ``${name}`` for secret ones.
* :func:`secret_reason`, :func:`is_secret_name` and :func:`is_card_number` are
  the rules that make a fact secret whatever the caller says; :func:`is_card_fact`
  says whether one is card data.
"""

from __future__ import annotations

from gofer.facts.rules import is_card_fact, is_card_number, is_secret_name, secret_reason
from gofer.facts.store import Facts, mask_marker, redact_marker

__all__ = [
    "Facts",
    "is_card_fact",
    "is_card_number",
    "is_secret_name",
    "mask_marker",
    "redact_marker",
    "secret_reason",
]
