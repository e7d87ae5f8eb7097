"""The one rule for what may name a variable or a fact (flows.md, "Variables and facts").

A name holds letters, digits, spaces, hyphens and underscores (``first name``,
``card-number``), holds at least one letter or digit, neither starts nor ends
with a space, and is at most :data:`MAX_NAME_LENGTH` characters long. Flow
validation, the flow JSON Schema and the caller's facts all use this rule.
This module imports nothing of gofer's, so the pure rule packages may use it.
"""

from __future__ import annotations

import re

__all__ = ["MAX_NAME_LENGTH", "NAME_PATTERN", "NAME_RULE", "is_valid_name"]

MAX_NAME_LENGTH = 100
"""The longest a name may be, in characters."""

_BODY = r"(?=[\w -]*[^\W_])[\w-](?:[\w -]*[\w-])?"

NAME_PATTERN = f"^{_BODY}$"
"""The rule as a regular expression (for JSON Schema's ``pattern``; length aside)."""

NAME_RULE = (
    "letters, digits, spaces, hyphens and underscores, with at least one letter or digit, "
    f"no space at either end, at most {MAX_NAME_LENGTH} characters"
)
"""The rule in words, for error messages."""

_NAME = re.compile(_BODY)


def is_valid_name(name: object) -> bool:
    """Whether ``name`` may name a variable or a fact."""
    return (
        isinstance(name, str) and len(name) <= MAX_NAME_LENGTH and _NAME.fullmatch(name) is not None
    )
