"""Property tests: no fact value survives redact (no secret survives mask), however written.

Texts are built as prefix + a written form of a value + suffix, for several
values at once; written forms change case, whitespace and separators the way
such values are written (digits regrouped with spaces, dashes and dots; phones
with or without a country code). The check reads the output with every marker
taken out as a boundary, so a value can neither hide inside a marker's name nor
be glued together from the text on both sides of one.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gofer.facts import Facts, is_card_number

PROFILE = settings(
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüñ"
WHITESPACE = [" ", "  ", "\n", "\t", "\u00a0", " \n "]
SEPARATORS = ["", " ", "-", ".", " - ", "  "]
SURROUNDING = st.text(alphabet=LETTERS + "0123456789 ,.;:!-+()@\n", max_size=15)
REDACT_MARK = re.compile(r"‹[^›]*›")
MASK_MARK = re.compile(r"\$\{[^}]*\}")
DIGIT_GAP = re.compile(r"(?<=[0-9])[\s\-.()\u2010-\u2015]{1,3}(?=[0-9])")


@dataclass(frozen=True)
class Value:
    """A generated fact value and what must not be readable in output once replaced."""

    text: str
    digits: str | None  # for numbers: the digits that must never stand together again


def luhn_complete(body: str) -> str:
    for check in "0123456789":
        if is_card_number(body + check):
            return body + check
    raise AssertionError("some check digit always passes")


@st.composite
def text_values(draw: st.DrawFn) -> Value:
    words = draw(
        st.lists(
            st.text(alphabet=LETTERS + "0123456789@.'&", min_size=1, max_size=8),
            min_size=1,
            max_size=3,
        )
    )
    text = " ".join(words)
    if sum(len(w) for w in words) < 3 or not any(c.isalpha() for c in text):
        text = "Zed" + text
    return Value(text, None)


@st.composite
def card_values(draw: st.DrawFn) -> Value:
    body = draw(st.text(alphabet="0123456789", min_size=15, max_size=15))
    number = luhn_complete(draw(st.sampled_from("2345")) + body)
    grouped = " ".join(number[i : i + 4] for i in range(0, 16, 4))
    return Value(draw(st.sampled_from([number, grouped, grouped.replace(" ", "-")])), number)


@st.composite
def phone_values(draw: st.DrawFn) -> Value:
    national = draw(st.sampled_from("6789")) + draw(
        st.text(alphabet="0123456789", min_size=9, max_size=9)
    )
    shape = draw(st.sampled_from(["{n}", "+91 {a} {b}", "+91{n}", "0{n}", "0091-{n}", "({a}) {b}"]))
    return Value(shape.format(n=national, a=national[:5], b=national[5:]), national)


@st.composite
def plain_numbers(draw: st.DrawFn) -> Value:
    digits = draw(st.text(alphabet="123456789", min_size=3, max_size=6))
    return Value(
        draw(st.sampled_from([digits, "-".join(digits), digits[:2] + " " + digits[2:]])), digits
    )


VALUES = st.one_of(text_values(), card_values(), phone_values(), plain_numbers())
NAMES = st.builds(
    "{}{}".format,
    st.sampled_from(["first name", "note", "card number", "otp", "city", "a", "Zed", "x-1", "pin"]),
    st.sampled_from(["", " 2", "_b", "-c"]),
)


def written(value: Value, rng: random.Random) -> str:
    """``value`` as someone might have written it."""
    if value.digits is None:
        words = value.text.split()
        spaced = words[0] + "".join(rng.choice(WHITESPACE) + word for word in words[1:])
        return "".join(c.swapcase() if rng.random() < 0.5 else c for c in spaced)
    digits = value.digits
    out = digits[0] + "".join(rng.choice(SEPARATORS) + digit for digit in digits[1:])
    if len(digits) == 10:  # a phone's national number
        out = rng.choice(["", "+91 ", "+91", "0091 ", "0", "+1-"]) + out
    return out


@st.composite
def stores(draw: st.DrawFn) -> tuple[Facts, dict[str, Value]]:
    names = draw(st.lists(NAMES, min_size=1, max_size=5, unique=True))
    values = {name: draw(VALUES) for name in names}
    secret = draw(st.lists(st.sampled_from(names), unique=True))
    return Facts({n: v.text for n, v in values.items()}, secret=secret), values


@st.composite
def scenes(draw: st.DrawFn) -> tuple[Facts, dict[str, Value], str]:
    facts, values = draw(stores())
    chosen = draw(st.lists(st.sampled_from(list(values)), min_size=1, max_size=4))
    rng = draw(st.randoms(use_true_random=False))
    text = "".join(draw(SURROUNDING) + written(values[name], rng) for name in chosen)
    return facts, values, text + draw(SURROUNDING)


def readable(value: Value, segment: str) -> bool:
    """Whether ``value`` can still be read in ``segment`` in any of its written forms."""
    if value.digits is not None:
        return value.digits in DIGIT_GAP.sub("", segment)
    wanted = " ".join(value.text.split()).casefold()
    return wanted in re.sub(r"\s+", " ", segment).casefold()


def survivors(output: str, marker: re.Pattern[str], values: dict[str, Value]) -> list[str]:
    segments = marker.split(output)
    return [name for name, v in values.items() if any(readable(v, s) for s in segments)]


@PROFILE
@given(scenes())
def test_no_value_survives_redact_and_no_secret_survives_mask(
    scene: tuple[Facts, dict[str, Value], str],
) -> None:
    facts, values, text = scene
    redacted = facts.redact(text)
    assert survivors(redacted, REDACT_MARK, values) == []
    masked = facts.mask(text)
    secrets = {name: v for name, v in values.items() if facts.is_secret(name)}
    assert survivors(masked, MASK_MARK, secrets) == []
    assert facts.leaks(masked) == []
    assert facts.leaks(redacted) == []
    # Markers are kept as they are: replacing twice, or masking first, changes nothing more.
    assert facts.redact(redacted) == redacted
    assert facts.mask(masked) == masked
    both = facts.redact(masked)
    assert survivors(both, re.compile(f"{REDACT_MARK.pattern}|{MASK_MARK.pattern}"), values) == []


@PROFILE
@given(
    value=st.text(alphabet=LETTERS + "0123456789", min_size=1, max_size=2),
    before=st.sampled_from(["", " ", "x ", "(", ", "]),
    after=st.sampled_from(["", " ", " y", ")", "."]),
)
def test_short_shared_value_vanishes_as_a_whole_token(value: str, before: str, after: str) -> None:
    facts = Facts({"tiny": value})
    text = f"{before}{value}{after}"
    out = facts.redact(text)
    assert out == f"{before}‹tiny›{after}"
