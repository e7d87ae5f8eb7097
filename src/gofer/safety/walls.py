"""Walls only a person can pass, judged from a screen's visible text.

When a step fails, the screen is read for a wall: a captcha, a human check, a
one-time code, two-factor authentication, or a login wall. A task stopped by one
waits for a person instead of failing outright.

A login wall is a page that *demands* a login ("Sign in to continue", "Log in to
see prices", "Log in or sign up", "Login required", "You must be signed in"). A
header's bare "Log in" and "Sign up" links are not one, nor is an invitation such as
"Sign up for our newsletter". A one-time code is a page asking for a code that was
sent ("Enter the OTP sent to +91 98...", "Resend code"), not one offering to log in
with an OTP. The notice of an invisible captcha ("This site is protected by
reCAPTCHA and the Google Privacy Policy...") asks nothing of a person either.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CAPTCHA",
    "HUMAN_CHECK",
    "LOGIN_WALL",
    "ONE_TIME_CODE",
    "TWO_FACTOR",
    "human_wall",
]

CAPTCHA = "a captcha"
HUMAN_CHECK = "a human check"
TWO_FACTOR = "two-factor authentication"
ONE_TIME_CODE = "a one-time code"
LOGIN_WALL = "a login wall"

_YOU_ARE = r"(?:that\s+)?you(?:re|\s+are)\s+(?:a\s+)?"
_LOGIN = r"(?:log|sign)(?:ged|ed)?\s*-?\s*in"
_CODE = r"(?:otp|code|verification\s+code|passcode|one-time\s+(?:password|code))"

# Checked in this order: the first kind found is the reason given.
_WALLS: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...] = (
    (
        CAPTCHA,
        (
            re.compile(r"\b(?:re|h)?captcha\b"),
            re.compile(r"\bi(?:m|\s+am)\s+not\s+a\s+robot\b"),
            re.compile(
                r"\b(?:type|enter)\s+the\s+(?:characters|letters|text)\s+(?:you\s+see|shown)"
            ),
            re.compile(r"\bselect\s+all\s+(?:images|squares)\s+with\b"),
        ),
    ),
    (
        HUMAN_CHECK,
        (
            re.compile(
                rf"\b(?:verify|prove|confirm|show\s+us)\s+{_YOU_ARE}(?:human|not\s+a\s+(?:ro)?bot)\b"
            ),
            re.compile(r"\bare\s+you\s+(?:a\s+)?(?:human|robot|bot)\b"),
            re.compile(r"\bhuman\s+verification\b"),
            re.compile(r"\bpress\s+(?:and|&)\s+hold\b"),
            re.compile(
                r"\bchecking\s+(?:your\s+browser|if\s+the\s+site\s+connection\s+is\s+secure)\b"
            ),
            re.compile(r"\bunusual\s+traffic\b"),
        ),
    ),
    (
        TWO_FACTOR,
        (
            re.compile(r"\btwo\s*-?\s*(?:factor|step)\s+(?:authentication|verification|login)\b"),
            re.compile(r"\b2\s*-?\s*(?:step|factor)\s+(?:authentication|verification)\b"),
            re.compile(r"\b2fa\b"),
            re.compile(r"\bmulti\s*-?\s*factor\s+authentication\b"),
            re.compile(r"\bauthenticator\s+app\b"),
        ),
    ),
    (
        ONE_TIME_CODE,
        (
            re.compile(r"\bone\s*-?\s*time\s+(?:password|passcode|code|pin)\b"),
            re.compile(rf"\benter\s+(?:the\s+|your\s+|a\s+)?(?:\d\s*-?\s*digit\s+)?{_CODE}\b"),
            re.compile(rf"\b{_CODE}\s+(?:has\s+been\s+|was\s+)?sent\s+to\b"),
            re.compile(
                r"\bwe(?:ve|\s+have)?\s+(?:just\s+)?(?:sent|texted|emailed)\s+(?:you\s+)?"
                r"(?:a\s+|an\s+|the\s+)?(?:\d\s*-?\s*digit\s+)?(?:otp|code|verification|one-time)"
            ),
            re.compile(r"\bresend\s+(?:the\s+)?(?:otp|code)\b"),
        ),
    ),
    (
        LOGIN_WALL,
        (
            re.compile(
                rf"\b{_LOGIN}\s+(?:again\s+)?to\s+(?:continue|proceed|see|view|access|read|"
                r"book|use|keep|finish|complete|comment|reply|download|watch)\b"
            ),
            re.compile(rf"\b{_LOGIN}\s+or\s+(?:sign\s*-?\s*up|register|create\s+an\s+account)\b"),
            re.compile(rf"\b(?:login|{_LOGIN})\s+(?:is\s+)?required\b"),
            re.compile(rf"\bplease\s+{_LOGIN}\b"),
            re.compile(
                rf"\byou\s+(?:must|need\s+to|have\s+to|ll\s+need\s+to|will\s+need\s+to)\s+"
                rf"(?:first\s+)?(?:be\s+)?{_LOGIN}\b"
            ),
            re.compile(rf"\bto\s+continue,?\s+(?:please\s+)?{_LOGIN}\b"),
            re.compile(r"\b(?:your\s+)?session\s+(?:has\s+)?expired\b"),
            re.compile(
                r"\bonly\s+(?:available\s+)?(?:to|for)\s+(?:logged|signed)[\s-]*in\s+(?:users|members)\b"
            ),
        ),
    ),
)


# An invisible captcha's small print: nothing for a person to do.
_CAPTCHA_NOTICE = re.compile(r"\bprotected\s+by\s+(?:re|h)?captcha\b")


def _folded(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("'", "").replace("’", "")
    return " ".join(text.split())


def human_wall(screen_text: str, blocking_text: str | None = None) -> str | None:
    """A short plain reason if the screen shows a wall only a person can pass, else None.

    The reasons are ``"a captcha"``, ``"a human check"``,
    ``"two-factor authentication"``, ``"a one-time code"`` and ``"a login wall"``.
    A login wall is what blocks the content: given ``blocking_text`` (the words of
    what covers or replaces the page), only those words can make one, so that a
    header's "Login or register" link on an open page does not.
    """
    text = _CAPTCHA_NOTICE.sub(" ", _folded(screen_text))
    login_text = text if blocking_text is None else _folded(blocking_text)
    for reason, patterns in _WALLS:
        where = login_text if reason == LOGIN_WALL else text
        if any(p.search(where) for p in patterns):
            return reason
    return None
