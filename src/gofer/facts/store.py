"""The caller's facts: names to values, each either secret or shared."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any, NoReturn

from gofer.errors import InvalidRequest, UnknownSecret
from gofer.facts.matching import Matcher
from gofer.facts.rules import secret_reason
from gofer.naming import NAME_RULE, is_valid_name

__all__ = ["Facts", "mask_marker", "redact_marker"]

MATCHERS_KEPT = 256
"""Matchers kept for the fact sets seen last: a task's facts, read again on every load
of the task, build theirs once."""


@lru_cache(maxsize=MATCHERS_KEPT)
def _matcher_of(facts: tuple[tuple[str, str, bool], ...], names: tuple[str, ...]) -> Matcher:
    return Matcher(facts, marker_names=names)


def redact_marker(name: str) -> str:
    """What :meth:`Facts.redact` writes in place of a value: ``‹name›``."""
    return f"‹{name}›"


def mask_marker(name: str) -> str:
    """What :meth:`Facts.mask` writes in place of a secret value: ``${name}``."""
    return "${" + name + "}"


def _invalid(message: str, **details: Any) -> NoReturn:
    raise InvalidRequest(message, code="INVALID_FACTS", **details)


def _checked_values(values: Mapping[str, Any]) -> dict[str, str]:
    if not isinstance(values, Mapping):
        _invalid("facts must be an object of names to values", got=type(values).__name__)
    checked: dict[str, str] = {}
    for name, value in values.items():
        if not is_valid_name(name):
            _invalid(
                f"a fact name may hold only {NAME_RULE}",
                name=name if isinstance(name, str) else repr(name),
            )
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            _invalid(
                f"the fact {name!r} must be a string or a number",
                name=name,
                got=type(value).__name__,
            )
        checked[name] = value if isinstance(value, str) else str(value)
    return checked


def _secret_names(secret: Iterable[str]) -> list[str]:
    if isinstance(secret, str):
        return [secret]
    names = list(secret)
    for name in names:
        if not isinstance(name, str):
            _invalid("secret fact names must be strings", got=type(name).__name__)
    return names


class Facts:
    """An immutable store of the caller's facts.

    A fact is secret when the caller names it in ``secret`` or when a rule makes
    it so (:func:`gofer.facts.secret_reason`: card data, passwords, one-time
    codes, identity and account numbers, card-number values); every other fact
    is shared. A caller can make any fact secret but cannot make a rule's secret
    shared. Naming a secret that is not a fact raises :class:`UnknownSecret`;
    malformed names or values raise :class:`InvalidRequest` (``INVALID_FACTS``).

    Numbers are kept as their text (``9876543210`` becomes ``"9876543210"``).
    A single string passed as ``secret`` names one fact. ``repr`` shows names,
    never values.
    """

    __slots__ = ("_marked", "_masker", "_redactor", "_secret", "_values")

    _values: dict[str, str]
    _secret: frozenset[str]
    _marked: frozenset[str]
    _redactor: Matcher | None
    _masker: Matcher | None

    def __init__(self, values: Mapping[str, str], secret: Iterable[str] = ()) -> None:
        """Check and store ``values``; mark ``secret`` names and the rules' secrets."""
        checked = _checked_values(values)
        marked = _secret_names(secret)
        unknown = sorted({name for name in marked if name not in checked})
        if unknown:
            raise UnknownSecret(
                "marked secret but not a fact: " + ", ".join(unknown), names=unknown
            )
        by_rule = {name for name, value in checked.items() if secret_reason(name, value)}
        object.__setattr__(self, "_values", checked)
        object.__setattr__(self, "_marked", frozenset(marked))
        object.__setattr__(self, "_secret", frozenset(marked) | by_rule)
        object.__setattr__(self, "_redactor", None)
        object.__setattr__(self, "_masker", None)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Facts is immutable; use merged() for a changed store")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("Facts is immutable")

    def __repr__(self) -> str:
        return f"Facts(names={list(self._values)!r}, secret={sorted(self._secret)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Facts):
            return NotImplemented
        return self._values == other._values and self._secret == other._secret

    def __hash__(self) -> int:
        return hash((frozenset(self._values.items()), self._secret))

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    @property
    def names(self) -> tuple[str, ...]:
        """Every fact name, in the order the facts were given."""
        return tuple(self._values)

    @property
    def secret_names(self) -> frozenset[str]:
        """Names of the secret facts (marked by the caller or by a rule)."""
        return self._secret

    @property
    def shared_names(self) -> frozenset[str]:
        """Names of the shared facts."""
        return frozenset(self._values) - self._secret

    def is_secret(self, name: str) -> bool:
        """Whether ``name`` is a secret fact (``False`` for a name that is not a fact)."""
        return name in self._secret

    def get(self, name: str) -> str | None:
        """The value of ``name``, or ``None`` when it is not a fact."""
        return self._values.get(name)

    def as_dict(self) -> dict[str, str]:
        """Every value, secrets included: only for the runtime that types them."""
        return dict(self._values)

    def merged(self, values: Mapping[str, str], secret: Iterable[str] = ()) -> Facts:
        """A new store with ``values`` added or replacing old ones.

        Every fact secret here stays secret, even when its value is replaced;
        ``secret`` may mark more (old or new names).
        """
        combined = {**self._values, **_checked_values(values)}
        return Facts(combined, [*self._secret, *_secret_names(secret)])

    def _matcher(self, *, secrets_only: bool) -> Matcher:
        slot = "_masker" if secrets_only else "_redactor"
        cached: Matcher | None = getattr(self, slot)
        if cached is None:
            facts = sorted(
                (
                    (name, value, name in self._secret)
                    for name, value in self._values.items()
                    if not secrets_only or name in self._secret
                ),
                key=lambda fact: (-len(fact[1]), fact[0]),
            )
            cached = _matcher_of(tuple(facts), tuple(self._values))
            object.__setattr__(self, slot, cached)
        return cached

    def redact(self, text: str) -> str:
        """``text`` with every fact value, secret or shared, replaced by ``‹name›``."""
        return self._matcher(secrets_only=False).replace(text, redact_marker)

    def mask(self, text: str) -> str:
        """``text`` with every secret value replaced by ``${name}``; shared values stay."""
        return self._matcher(secrets_only=True).replace(text, mask_marker)

    def redact_json(self, value: Any) -> Any:
        """:meth:`redact` applied to every string in a JSON-like value, dict keys included."""
        return _map_strings(value, self.redact)

    def mask_json(self, value: Any) -> Any:
        """:meth:`mask` applied to every string in a JSON-like value, dict keys included."""
        return _map_strings(value, self.mask)

    def leaks(self, text: str) -> list[str]:
        """Names of the secret facts whose values still appear in ``text`` (outside markers).

        In the store's order of names.
        """
        found = set(self._matcher(secrets_only=True).names_found(text))
        return [name for name in self._values if name in found]


def _map_strings(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, Mapping):
        return {
            (change(k) if isinstance(k, str) else k): _map_strings(v, change)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_map_strings(item, change) for item in value]
    return value
