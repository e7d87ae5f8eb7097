"""human_wall(): a wall only a person can pass."""

from __future__ import annotations

import pytest

from gofer.safety import human_wall

WALLS: list[tuple[str, str]] = [
    ("Please complete the reCAPTCHA to continue", "a captcha"),
    ("hCaptcha\nSelect all images with a bus", "a captcha"),
    ("I'm not a robot\nPrivacy - Terms", "a captcha"),
    ("Type the characters you see in this image", "a captcha"),
    ("Verify you are human by completing the action below.", "a human check"),
    ("Please verify that you're a human", "a human check"),
    ("Are you a robot?", "a human check"),
    ("Press & Hold to confirm you are a human (and not a bot).", "a human check"),
    ("Checking your browser before accessing example.com", "a human check"),
    ("Our systems have detected unusual traffic from your computer network.", "a human check"),
    ("Two-factor authentication\nEnter the code from your app", "two-factor authentication"),
    ("2FA is on for this account", "two-factor authentication"),
    ("Open your authenticator app and enter the 6-digit code", "two-factor authentication"),
    ("2-Step Verification\nThis extra step shows it's really you", "two-factor authentication"),
    ("Enter the OTP sent to +91 98xxxxxx10", "a one-time code"),
    ("Enter the code we sent to your email", "a one-time code"),
    ("We've sent a 6-digit code to j***@mail.com", "a one-time code"),
    ("One-time password\nResend in 30s", "a one-time code"),
    ("Didn't get it? Resend OTP", "a one-time code"),
    ("Sign in to continue", "a login wall"),
    ("Log in to see prices for your dates", "a login wall"),
    ("Log in or sign up\nWelcome to Stays", "a login wall"),
    ("Login required", "a login wall"),
    ("Please log in to view your bookings", "a login wall"),
    ("You must be signed in to book this fare", "a login wall"),
    ("You need to log in first.", "a login wall"),
    ("Your session has expired. Please sign in again.", "a login wall"),
    ("To continue, sign in", "a login wall"),
]

NOT_WALLS: list[str] = [
    "",
    "Home  Flights  Hotels  Log in  Sign up\nDelhi → Srinagar\nSearch flights",
    "Sign up for our newsletter and get 10% off your first trip",
    "Login | Register | Help",
    "Sign In  Sign Up  ·  Deals for you  ·  Login with OTP",
    "IndiGo 08:00 ₹7,346 Select\nAir India 10:15 ₹8,102 Select",
    "Enter promo code\nApply",
    "Payment\nCard number\nCVV\nEnter the security code on the back of your card",
    "Booking confirmed! Your reference is QX7P2B.",
    "Robots and humans alike love our cheap fares",
    "Create an account to save your favourite hotels",
]


def test_the_table_is_large_enough() -> None:
    assert len(WALLS) + len(NOT_WALLS) >= 20


@pytest.mark.parametrize(("text", "reason"), WALLS, ids=[t[:40] for t, _ in WALLS])
def test_walls_are_recognised_with_a_plain_reason(text: str, reason: str) -> None:
    assert human_wall(text) == reason


@pytest.mark.parametrize("text", NOT_WALLS, ids=[t[:40] or "empty" for t in NOT_WALLS])
def test_ordinary_pages_are_not_walls(text: str) -> None:
    assert human_wall(text) is None


def test_case_and_line_breaks_do_not_matter() -> None:
    assert human_wall("SIGN IN\nTO CONTINUE") == "a login wall"
    assert human_wall("verify   you\nare HUMAN") == "a human check"


def test_a_captcha_is_named_before_the_login_it_guards() -> None:
    assert human_wall("Sign in to continue\nreCAPTCHA: I'm not a robot") == "a captcha"


def test_a_login_wall_is_looked_for_only_in_what_blocks_the_content() -> None:
    header = "Corner Shop\nLogin or register\nLinen Shirt\n$38.00"
    assert human_wall(header) == "a login wall"  # the words alone would say so
    assert human_wall(header, blocking_text="Linen Shirt") is None
    assert human_wall(header, blocking_text="Sign in to continue") == "a login wall"
    # Other walls are read on the whole screen whatever blocks it.
    assert human_wall(header + "\nVerify you are human", blocking_text="") == "a human check"


def test_an_invisible_captchas_notice_is_no_wall() -> None:
    notice = (
        "Sign up for our newsletter\nThis site is protected by reCAPTCHA and the Google "
        "Privacy Policy and Terms of Service apply."
    )
    assert human_wall(notice) is None
    assert human_wall(notice + "\nI'm not a robot") == "a captcha"
