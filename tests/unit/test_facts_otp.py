"""Authenticator seeds as one-time code sources: which facts are, the code of a
moment, the wait for the next window, and the seed secret by rule."""

from __future__ import annotations

import pyotp

from gofer.facts import Facts, secret_reason
from gofer.facts.otp import MIN_LEFT_S, code_source, code_sources, unusable_seed, unusable_seeds
from gofer.facts.rules import is_one_time_code_name

SEED = pyotp.random_base32()
URI = pyotp.TOTP(SEED).provisioning_uri(name="asha@example.com", issuer_name="Bank")


def test_an_otpauth_uri_under_any_name_is_a_code_source() -> None:
    source = code_source("bank login", URI)
    assert source is not None
    assert source.at(1_000_000_000.0)[0] == pyotp.TOTP(SEED).at(1_000_000_000.0)


def test_a_bare_seed_is_one_only_under_a_name_the_rules_call_a_one_time_code() -> None:
    names = ("totp", "TOTP seed", "authenticator", "Authenticator app", "bank_totp", "otp")
    for name in (*names, "2fa seed", "mfa secret", "otp secret", "login 2fa"):
        assert is_one_time_code_name(name), name
        assert code_source(name, SEED) is not None, name
    for name in ("password", "api key", "notes", "recovery key"):
        assert code_source(name, SEED) is None, name
        assert unusable_seed(name, SEED) is None, name
    assert code_source("totp", "not base32 at all!") is None
    assert code_source("x", "otpauth://hotp/Bank?secret=" + SEED + "&counter=1") is None


def test_an_80_bit_seed_gives_the_rfc_codes() -> None:
    # RFC 6238's SHA-1 vector (8 digits at 59 s); pyotp refuses an 80-bit seed, so
    # its code is checked against the e2e site's own computation instead.
    rfc = "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8"
    source = code_source("x", rfc)
    assert source is not None and source.at(59)[0] == "94287082"
    short = code_source("totp seed", "JBSWY3DPEHPK3PXP")
    assert short is not None and len(short.at(1_000_000_000.0)[0]) == 6
    assert short.at(1_000_000_000.0)[0] == short.code(1_000_000_000 // 30)


def test_a_value_that_looks_like_a_seed_and_gives_no_codes_is_unusable() -> None:
    bad = {
        "x": "otpauth://hotp/Bank?secret=" + SEED + "&counter=1",
        "y": "otpauth://totp/Bank?secret=" + SEED + "&digits=abc",
        "z": "otpauth://totp/Bank?issuer=Bank",
        "w": "otpauth://totp/Bank?secret=" + SEED + "&algorithm=MD5",
        "2fa seed": "JBSWY3DPEHPK3PXPQ",
        "mfa secret": "JBSWY3DP",  # too short to look like a seed: an ordinary value
    }
    found = unusable_seeds(bad)
    assert sorted(found) == ["2fa seed", "w", "x", "y", "z"]
    assert all(value not in why for value in bad.values() for why in found.values())
    assert unusable_seed("totp", SEED) is None and unusable_seed("bank", URI) is None


def test_a_code_about_to_expire_is_not_typed_the_next_one_is() -> None:
    source = code_source("totp", SEED)
    assert source is not None
    start = 1_700_000_010.0 - (1_700_000_010.0 % 30)
    code, wait = source.typed_at(start + 10)
    assert (code, wait) == (pyotp.TOTP(SEED).at(start + 10), 0.0)
    late = start + 30 - (MIN_LEFT_S - 1)
    code, wait = source.typed_at(late)
    assert wait == MIN_LEFT_S - 1
    assert code == pyotp.TOTP(SEED).at(start + 30)


def test_the_seed_is_secret_by_rule_and_only_secret_ones_are_sources() -> None:
    assert secret_reason("bank login", URI) == "one-time code"
    assert secret_reason("authenticator", SEED) == "one-time code"
    facts = Facts({"bank login": URI, "authenticator": SEED, "email": "a@b.io"})
    assert {"bank login", "authenticator"} <= facts.secret_names
    assert sorted(code_sources(facts.as_dict(), facts.secret_names)) == [
        "authenticator",
        "bank login",
    ]
    assert code_sources({"totp": SEED}, frozenset()) == {}
